"""An ESP's webhook while the database is away: 503, so the ESP posts again later; the
log says once that the database is away and once that it is back; the post made again
afterwards makes its move once (issue 21, point 3)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client
from esp_payloads import BASIC_AUTH, POSTMARK_INBOUND, auth_headers, postmark_payload, reply_to_turn
from inbound_mails import mover

from games.models import Event, Game, InboundMail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]


def refuse(*args: Any) -> Any:
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')


def test_a_webhook_answers_503_while_the_database_is_away(
    two_player: Game, client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    game = two_player
    payload = json.dumps(postmark_payload(reply_to_turn(game, mover(game), "pass")))

    def post() -> Any:
        return client.post(
            POSTMARK_INBOUND,
            payload,
            content_type="application/json",
            headers=auth_headers(BASIC_AUTH),
        )

    events = Event.objects.filter(game=game).count()
    caplog.set_level(logging.DEBUG)
    with connection.execute_wrapper(refuse):
        answers = [post() for _ in range(6)]
    for response in answers:
        assert response.status_code == 503
        assert response["Retry-After"] == "30"
        assert response["Content-Type"] == "text/plain; charset=utf-8"
        assert (
            response.content == b"The service is briefly unavailable; please post this again later."
        )
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage().split(" (")[0] for r in warned] == ["The database is away"]
    assert "POST /anymail/postmark/inbound/" in warned[0].getMessage()
    assert all(r.exc_info is None for r in caplog.records)

    # The ESP posts again once the database is back: one move, however many posts.
    assert post().status_code == 200
    assert post().status_code == 200
    assert Event.objects.filter(game=game).count() == events + 1
    assert InboundMail.objects.count() == 1
    warned = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage().split(" (")[0] for r in warned] == [
        "The database is away",
        "The database is back",
    ]
