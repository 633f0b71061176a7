"""The answer to a ``hint`` reply in Blockers: worded by its presentation
(the moves that leave the score lowest), not in JUMBULAYA's words."""

from __future__ import annotations

from collections.abc import Callable

from games.core import door
from games.mail_in.hint_answers import NOT_YOUR_TURN, hints_text
from games.models import Event, Game
from tests.kinds.blockers.conftest import pile


def test_the_answer_lists_the_moves_leaving_the_lowest_score(
    rigged_blockers: Callable[..., Game],
) -> None:
    game = rigged_blockers(
        [
            pile("1", "2", "3", "4", "5"),
            pile("A", "B", "C", "D", "E"),
            pile("6", "7", "8", "9", "F"),
        ],
        hints=True,
    )
    door.submit(game.pk, 0, "1 at A1", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
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
