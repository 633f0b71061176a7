"""Fixtures of the mail tracking tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from django.test import Client, override_settings

from games.mail_out import outbox
from games.models import Game, Notification


@pytest.fixture
def esp_webhooks() -> Iterator[None]:
    """Both ESPs' webhooks on, their credentials set, as a production site has them."""
    from tracking_payloads import BASIC_AUTH, SIGNING_KEY

    with override_settings(
        ANYMAIL={"WEBHOOK_SECRET": BASIC_AUTH, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY},
        JUMBULAYA_INBOUND_ESPS=["postmark", "mailgun"],
    ):
        yield


@pytest.fixture
def esp_client() -> Client:
    """A client that, like an ESP, carries no CSRF token (and is checked for one)."""
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def sent_game(started_game: Callable[..., Game]) -> Game:
    """A two-player game whose game-started emails have been sent."""
    game = started_game(players=2)
    outbox.sweep()
    assert not Notification.objects.filter(game=game, sent_at__isnull=True).exists()
    return game
