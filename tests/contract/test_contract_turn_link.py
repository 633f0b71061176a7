"""The turn link of every kind's "your turn" email: it opens the game for the
seat without signing in, with that seat's hand, and sends its move."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from games.mail_out.turnlinks import turn_url
from games.models import Game
from tests import leaks

from .play import a_move, move_form, seat_user, text, to_move

pytestmark = pytest.mark.django_db


def test_a_turn_link_opens_the_seat_s_game_and_sends_a_move(
    contract_game: Callable[..., Game],
) -> None:
    game = contract_game()
    seat = to_move(game)
    path = turn_url(seat_user(game, seat).pk, game.pk, game.last_seq).split("8000", 1)[-1]
    browser = Client()
    page = text(browser.get(path))
    assert "Opened from the link in your email" in page
    assert 'id="move-form"' in page
    # The seat's own hand (a kind that deals one), and no other.
    assert leaks.HAND.findall(page) == ([str(seat)] if leaks.hands(game)[seat] else [])
    others = {s: hand for s, hand in leaks.hands(game).items() if s != seat}
    assert not leaks.leaks(page, others)
    made = browser.post(path, move_form(game, a_move(game, seat), f"link-{seat}"))
    assert made.status_code == 302, text(made)
    assert game.events.count() == 2
