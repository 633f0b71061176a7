"""A finished game whose analysis is known: the board is claimed in nine moves,
a JUMBULAYA (SPRINTS) lies open through two passes, then Bob calls it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.core.door import submit
from games.models import Event, Game
from tests.conftest import CLAIM_THE_BOARD

#: After the board is claimed: Bob and Ann pass with SPRINTS open, Bob calls it.
ENDING = [(1, "pass"), (0, "pass"), (1, "jumbulaya SPRINTS")]


def play_out(game: Game) -> Game:
    moves = [(i % 2, m) for i, m in enumerate(CLAIM_THE_BOARD)] + ENDING
    for seat, move in moves:
        game.refresh_from_db()
        submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    return game


@pytest.fixture
def finished_game(board_game: Callable[..., Game]) -> Callable[..., Game]:
    """``finished_game(**options)``: the game above, over (not yet analysed
    unless a nudge ran)."""

    def make(**options: Any) -> Game:
        return play_out(board_game(claim_window=False, **options))

    return make
