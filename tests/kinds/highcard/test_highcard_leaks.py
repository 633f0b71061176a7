"""The leak scan (tests/leaks.py), through the kind, over a game of high card:
no page or email for one viewer shows a card of another seat's hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client

from accounts.models import User
from games.core import door
from games.mail_out import outbox
from games.models import Event, Game
from tests import leaks


def test_no_page_or_email_shows_another_seat_s_hand(
    card_game: Callable[..., Game], make_user: Callable[[str], User], mailoutbox: list[Any]
) -> None:
    game = card_game(players=3, is_public=True)
    for _ in range(4):  # a round and a card: cards played are public, hands are not
        game.refresh_from_db()
        seat = game.turn_seat
        assert seat is not None
        move = leaks.legal_moves(game, seat)[0]
        door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    outbox.sweep()
    viewers: dict[int | None, Any] = {s.index: s.user for s in game.seats.select_related("user")}
    viewers[None] = make_user("eve")
    hidden = leaks.hands(game)
    assert all(len(hand) >= 3 for hand in hidden.values())
    # The scan can see cards: a seat's own page shows its own hand.
    ann = Client()
    ann.force_login(viewers[0])
    assert leaks.shows_own_hand(game, ann, 0)
    # A card no hand holds, for a refused move whose words repeat it.
    missing = next(c for c in range(1, 41) if all(str(c) not in h for h in hidden.values()))
    read = leaks.scan(game, viewers, moves=(f"play {missing}",), unique=True)
    assert read > 4 * 5 and len(mailoutbox) >= 3
    # The scan itself finds a hand where one is shown.
    bob = " ".join(hidden[1])
    assert leaks.leaks(f"<p>{bob}</p>", {1: hidden[1]}) == ["seat 1's hand as text"]
    card = f'<span data-card="{hidden[1][0]}">'
    assert leaks.leaks(card, {1: hidden[1]}, unique=True) == [f"seat 1's {hidden[1][0]} in markup"]
