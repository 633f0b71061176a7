"""Fixtures of the mail tracking tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client, override_settings
from esp_api_standin import MAILGUN_DOMAIN, MAILGUN_KEY, TOKEN, StandIn, serve

from games.mail_out import outbox
from games.models import Game, Notification


@pytest.fixture(autouse=True)
def no_worker_expected(settings: Any) -> None:
    """No worker or beat runs beside these tests: /healthz judges the mail and the
    database alone (with Redis, as in CI, it would wait for a worker's heartbeat)."""
    settings.JUMBULAYA_HEALTH_EXPECT_WORKERS = False


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


@pytest.fixture
def esp_api() -> Iterator[StandIn]:
    """A stand-in for the ESPs' HTTP APIs on loopback (esp_api_standin.py)."""
    stand_in, server = serve()
    yield stand_in
    server.shutdown()
    server.server_close()


@pytest.fixture
def postmark_api(esp_api: StandIn) -> Iterator[StandIn]:
    """Mail sent through anymail's Postmark backend, its API the stand-in."""
    with override_settings(
        MAILERS={"default": {"BACKEND": "anymail.backends.postmark.EmailBackend", "OPTIONS": {}}},
        ANYMAIL={"POSTMARK_SERVER_TOKEN": TOKEN, "POSTMARK_API_URL": esp_api.url + "/"},
    ):
        yield esp_api


@pytest.fixture
def mailgun_api(esp_api: StandIn) -> Iterator[StandIn]:
    """Mail sent through anymail's Mailgun backend, its API the stand-in."""
    with override_settings(
        MAILERS={"default": {"BACKEND": "anymail.backends.mailgun.EmailBackend", "OPTIONS": {}}},
        ANYMAIL={
            "MAILGUN_API_KEY": MAILGUN_KEY,
            "MAILGUN_SENDER_DOMAIN": MAILGUN_DOMAIN,
            "MAILGUN_API_URL": esp_api.url + "/v3",
        },
    ):
        yield esp_api
