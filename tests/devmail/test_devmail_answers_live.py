"""A reply sent from a message page with htmx: the page stays, and the
service's answer and the next turn email are listed on it as they arrive
(the page polls for the emails kept since)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from devmail.models import Message
from devmail.replies import quoted
from games.mail_out import outbox
from games.models import Game, Seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(settings: Any, started_game: Callable[..., Game]) -> Game:
    settings.JUMBULAYA_MAILBOX = True
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    game = started_game(players=2)
    outbox.sweep()
    return game


def turn_email(game: Game) -> Message:
    game.refresh_from_db()
    user = Seat.objects.get(game=game, index=game.turn_seat).user
    assert user is not None
    mail = Message.objects.filter(to=user.email, message_id__contains=".your_turn.").first()
    assert mail is not None
    return mail


def poll_url(html: str) -> str:
    (url,) = re.findall(r'id="mail-news-poll" hx-get="([^"]+)"', html)
    return url.replace("&amp;", "&")


def test_the_message_page_has_a_live_region_for_answers(game: Game, client: Client) -> None:
    page = client.get(f"/dev/mailbox/{turn_email(game).pk}/").content.decode()
    assert 'hx-post="/dev/mailbox/' in page and 'hx-target="#mail-news"' in page
    assert '<div id="mail-news" aria-live="polite">' in page


def test_the_answer_and_the_next_turn_email_are_listed_as_they_arrive(
    game: Game, client: Client
) -> None:
    mail = turn_email(game)
    mover = mail.to
    response = client.post(
        f"/dev/mailbox/{mail.pk}/reply/", {"body": "pass" + quoted(mail)}, **HTMX
    )
    assert response.status_code == 200  # the page stays: no redirect
    html = response.content.decode()
    assert "the move was made" in html
    assert '<ul id="mail-news-list"' in html
    reply = Message.objects.get(sender=mover, to__startswith="play+")
    assert poll_url(html) == f"/dev/mailbox/news/?after={reply.pk}"
    # Nothing sent yet: the poll is answered "no content" and swaps nothing.
    assert client.get(poll_url(html)).status_code == 204
    outbox.sweep()  # the worker sends the answer and the next player's turn email
    news = client.get(poll_url(html))
    assert news.status_code == 200
    items = news.content.decode()
    kept = list(Message.objects.filter(pk__gt=reply.pk).order_by("pk"))
    assert len(kept) >= 2
    for message in kept:
        assert f'href="/dev/mailbox/{message.pk}/"' in items
    assert {m.to for m in kept} >= {mover}  # the answer, to the player who replied
    assert any(m.to != mover for m in kept)  # the next player's turn email
    # The poller moves on past what it listed, out of band.
    assert 'hx-swap-oob="true"' in items
    assert poll_url(items) == f"/dev/mailbox/news/?after={kept[-1].pk}"
    assert client.get(poll_url(items)).status_code == 204


def test_a_reply_without_htmx_still_goes_back_to_the_inbox(game: Game, client: Client) -> None:
    mail = turn_email(game)
    response = client.post(f"/dev/mailbox/{mail.pk}/reply/", {"body": "pass"})
    assert response.status_code == 302


@pytest.mark.parametrize("after", ["", "x", "-1", "1" * 13])
def test_the_poll_needs_a_place_to_start(game: Game, client: Client, after: str) -> None:
    response = client.get(f"/dev/mailbox/news/?after={after}")
    assert response.status_code == 400
    assert "?after=<id>" in response.content.decode()
