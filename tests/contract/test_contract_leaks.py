"""The leak scan (tests/leaks.py) over a game of every kind: after a few
moves, no page, preview, turn link or email of one viewer (each seat, and a
spectator) shows another seat's hand, with hints stored where the kind has
them; and no log line written meanwhile shows any hand."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games.kinds.base import GameKind
from games.mail_out import outbox
from games.models import Game
from tests import leaks

from .play import play_one, viewers_of

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

#: The kinds whose pieces never repeat (each card is in one place): a single
#: piece of another seat's in markup is a leak too.
UNIQUE_PIECES = {"highcard"}


def test_no_page_email_or_log_line_shows_another_seat_s_hand(
    kind: GameKind,
    contract_game: Callable[..., Game],
    make_user: Callable[[str], User],
    mailoutbox: list[Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    players = min(3, kind.max_players)
    game = contract_game(players=players, is_public=True, hints=kind.robots is not None)
    for _ in range(players + 1):  # a round and a move: what is played is public
        if game.status == Game.Status.PLAYING:
            play_one(game)
    outbox.sweep()
    viewers = viewers_of(game, make_user("eve"))
    hidden = leaks.hands(game)
    if kind.robots is not None:
        assert leaks.prepare_hints(game) >= 1  # the seat to move's, shown on its page alone
    read = leaks.scan(game, viewers, moves=("not a move",), unique=kind.name in UNIQUE_PIECES)
    assert read > players * 10 and mailoutbox
    for record in caplog.records:
        assert not leaks.leaks(record.getMessage(), hidden), record.getMessage()
    # The scan itself finds a hand where one is shown.
    seat, hand = next(((s, h) for s, h in hidden.items() if len(h) >= 2), (None, ()))
    if seat is not None:
        shown = " ".join(hand)
        assert leaks.leaks(f"<p>{shown}</p>", {seat: hand}) == [f"seat {seat}'s hand as text"]
        marked = f'<p data-hand="{seat}">'
        assert leaks.leaks(marked, {seat: hand}) == [f"seat {seat}'s hand in markup"]
