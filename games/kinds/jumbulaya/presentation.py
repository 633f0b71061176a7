"""JUMBULAYA's presentation as a :class:`~games.kinds.base.KindPresentation`:
the code of :mod:`games.kinds.jumbulaya.presenters` and
:mod:`games.kinds.jumbulaya.reply_reading`, wrapped.

Only the presentation layer imports this module (through
:mod:`games.kinds.presentation`); the core never does, so it may import
presentation code that reads the core's read side.
"""

from __future__ import annotations

from games import engine
from games.kinds.jumbulaya.presenters import BoardView, board_text, board_view, describe
from games.kinds.jumbulaya.reply_reading import Reading, problem_with, read_reply

from ..base import Question
from .confirmations import question_for
from .kind import JUMBULAYA


class JumbulayaPresentation:
    """The board, its text, the reply reader and the log's words of JUMBULAYA."""

    name = JUMBULAYA.name

    def seat_view(self, state: engine.GameState, seat: int | None) -> BoardView:
        return board_view(state, seat)

    def board_text(self, view: BoardView) -> str:
        return board_text(view)

    def read_reply(self, text: str, subject: str = "") -> Reading:
        return read_reply(text, subject)

    def describe(
        self, before: engine.GameState, event: engine.Event, after: engine.GameState
    ) -> str:
        return describe(before, event, after)

    def problem_with(self, why: str) -> str:
        return problem_with(why)

    def question_for(self, state: engine.GameState, seat: int, move: str) -> Question | None:
        return question_for(move, state.racks[seat])


#: The one instance :mod:`games.kinds.presentation` holds.
JUMBULAYA_PRESENTATION = JumbulayaPresentation()
