"""Sessions live in the database with Redis in front: while Redis is away the
site goes on (sign-in, moves, turn links, sign-out), reading the database."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.mail import EmailMessage
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game

pytestmark = pytest.mark.django_db


def seat_user(game: Game, seat: int) -> User:
    user = game.seats.get(index=seat).user
    assert user is not None
    return user


def test_the_site_goes_on_while_the_session_cache_is_away(
    started_game: Callable[..., Game],
    redis_away: None,
    mailoutbox: list[EmailMessage],
    link_in: Callable[[EmailMessage], str],
) -> None:
    game = started_game()
    seat = game.turn_seat or 0
    mover, other = seat_user(game, seat), seat_user(game, 1 - seat)

    # sign in by email
    browser = Client()
    browser.post(reverse("accounts:sign_in"), {"email": mover.email})
    link = link_in(mailoutbox[-1])
    assert browser.post(link).status_code == 302
    assert browser.session.get(SESSION_KEY) == str(mover.pk)
    assert browser.get("/dashboard/").status_code == 200

    # a move from the game page
    form = {
        "notation": "pass",
        "expected_seq": "1",
        "idempotency_key": "k" * 20,
        "confirmed": "yes",
    }
    assert browser.post(f"/games/{game.pk}/move/", form).status_code == 302

    # a move through a turn link, not signed in
    url = f"/t/{turn_token(other.pk, game.pk, 2)}/"
    visitor = Client()
    assert visitor.get(url).status_code == 200
    assert (
        visitor.post(
            url, {"notation": "pass", "idempotency_key": "j" * 20, "confirmed": "yes"}
        ).status_code
        == 302
    )
    assert list(Event.objects.filter(game=game).values_list("type", flat=True)) == [
        "game_started",
        "passed",
        "passed",
    ]

    # sign out: the session is gone from the database, so from every process
    assert browser.post(reverse("accounts:sign_out")).status_code == 302
    assert browser.get("/dashboard/").status_code == 302  # to the sign-in page
