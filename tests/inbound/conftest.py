"""Fixtures of the reply-by-email tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.test import Client

from games.models import Game


@pytest.fixture
def two_player(started_game: Callable[..., Game]) -> Game:
    return started_game(players=2)


@pytest.fixture
def esp_webhooks() -> Iterator[None]:
    """Both ESPs' inbound webhooks on, their credentials set, as a production
    site configures them."""
    from django.test import override_settings
    from esp_payloads import BASIC_AUTH, SIGNING_KEY

    with override_settings(
        ANYMAIL={"WEBHOOK_SECRET": BASIC_AUTH, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY},
        JUMBULAYA_INBOUND_ESPS=["postmark", "mailgun"],
    ):
        yield


@pytest.fixture
def client() -> Client:
    """A client that, like an ESP, carries no CSRF token, and whose posts are
    checked for one as a real server checks them: a webhook must not need one."""
    return Client(enforce_csrf_checks=True)
