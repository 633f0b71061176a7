"""The answer to a ``hint`` reply in Blockers: worded by its presentation
(the moves that leave the score lowest), not in JUMBULAYA's words."""

from __future__ import annotations

from collections.abc import Callable

from games.mail_in.hint_answers import NOT_YOUR_TURN, hints_text
from games.models import Game
from tests.kinds.blockers.conftest import pile


def test_the_answer_lists_the_moves_leaving_the_lowest_score(after_ann_s_1: Game) -> None:
    game = after_ann_s_1
    first, *lines = hints_text(game, 1).splitlines()
    assert first == (
        f"The moves that leave your score lowest now (at move #{game.last_seq}; "
        "the fewest points win):"
    )
    # Each of Bob's five hints puts a tile on an empty square: a group of one, 1 point.
    assert len(lines) == 5
    assert all(line.startswith("- ") and line.endswith(": leaves you 1 point") for line in lines)
    assert "word" not in hints_text(game, 1)


def test_not_ones_turn_the_answer_says_why_there_is_none(
    rigged_blockers: Callable[..., Game],
) -> None:
    game = rigged_blockers(
        [pile("1", "2", "3", "4", "5"), pile("A", "B", "C", "D", "E"), pile("6", "7", "8")],
        hints=True,
    )
    assert hints_text(game, 1) == NOT_YOUR_TURN
