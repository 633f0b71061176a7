"""JUMBULAYA's presentation as a :class:`~games.kinds.base.KindPresentation`:
the code of :mod:`games.kinds.jumbulaya.seat_view`,
:mod:`games.kinds.jumbulaya.log_words`,
:mod:`games.kinds.jumbulaya.preview`, :mod:`games.kinds.jumbulaya.replays` and
:mod:`games.kinds.jumbulaya.replies`, wrapped.

Only the presentation layer imports this module (through
:mod:`games.kinds.presentation`); the core never does, so it may import
presentation code that reads the core's read side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import jumbulaya as engine
from games.engine.jumbulaya.analysis import GameAnalysis
from games.engine.jumbulaya.notation import PlayWord
from games.kinds.jumbulaya.log_words import (
    describe,
    game_log,
    judged_claims,
    move_in_words,
    outcome_words,
    rules_in_words,
)
from games.kinds.jumbulaya.preview import MovePreview, preview_game_move
from games.kinds.jumbulaya.replays import StepView, step_view
from games.kinds.jumbulaya.replies import ACCEPTED_FORMS, Reading, problem_with, read_reply
from games.kinds.jumbulaya.seat_view import BoardView, board_text, board_view
from games.models import Game

from ..base import Logged, Question, ShownHint, Steps
from .confirmations import question_for
from .kind import JUMBULAYA


def _move_words(notation: str) -> str:
    """A word move in words: its word, then its line."""
    command = engine.parse_move(notation)
    if not isinstance(command, PlayWord):
        return notation
    word = "".join(ch for ch in command.word.letters if ch.isalpha()).upper()
    return f"{word} on line {command.line + 1}"


class JumbulayaPresentation:
    """The board, its text, the reply reader, the log's words, the move preview
    and the replay's steps of JUMBULAYA."""

    name = JUMBULAYA.name
    accepted_forms = ACCEPTED_FORMS

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

    def rules_in_words(self, options: engine.Rules) -> list[str]:
        return rules_in_words(options)

    def game_log(self, game: Game, names: Mapping[int, str] | None = None) -> list[Logged]:
        return game_log(game, None if names is None else dict(names))

    def window_outcomes(self, game: Game, seat: int | None) -> list[str]:
        return [outcome_words(claim) for claim in judged_claims(game, seat)]

    def compose_context(self, state: engine.GameState) -> dict[str, Any]:
        return {"rack_limit": state.rules.rack_limit}

    def preview(self, game: Game, seat: int, move: str) -> MovePreview:
        return preview_game_move(game, seat, move)

    def hints_shown(self, game: Game, seat: int, hints: Sequence[Any]) -> list[ShownHint]:
        """Each word move as the log tells one (``EQUAL on line 3``), filling
        the move field with its notation (``3 E[QU]AL``)."""
        return [ShownHint(_move_words(h.notation), h.notation, h.points, h.gain) for h in hints]

    def reply_hint(self, seq: int) -> str:
        return (
            "Or reply to this email with your move on the first line, such as "
            f"“3 FACTS #{seq}” (#{seq} names this position), “pass”, "
            "“exchange Q X” or “resign”."
        )

    def hints_in_words(self, hints: Sequence[Any], seq: int) -> str:
        if not hints:
            return "Your rack makes no word on any line now: a pass or an exchange may be best."
        lines = [
            f"- {h.notation}: {h.points} point{'s' if h.points != 1 else ''}"
            + (f" (you gain {h.gain})" if h.gain != h.points else "")
            for h in hints
        ]
        return "\n".join([f"The best word moves for your rack now (at move #{seq}):", *lines])

    analysis_template: str | None = "jumbulaya/analysis.html"

    def analysis_context(self, analysis: GameAnalysis, names: Mapping[int, str]) -> dict[str, Any]:
        players = [names.get(i, name) for i, name in enumerate(analysis.players)]
        return {
            "players": players,
            "turns": [(t, players[t.seat]) for t in analysis.turns],
            "jumbulayas": [
                (j, None if j.called_by is None else players[j.called_by])
                for j in analysis.jumbulayas
            ],
        }

    def missed_chances(self, analysis: GameAnalysis, seat: int) -> list[str]:
        totals = next((t for t in analysis.totals if t.seat == seat), None)
        if totals is None or not totals.biggest:
            return [
                "Your biggest missed chances: none. Every move you made was the best by points."
            ]
        best = {t.turn: t.best_points for t in analysis.turns}
        said = [
            f"turn {m.turn + 1}: you played {move_in_words(m.played)}, where "
            f"{move_in_words(m.best)} scored "
            f"{best.get(m.turn, 0)} ({m.missed} more)"
            for m in totals.biggest
        ]
        return [f"Your biggest missed chances: {'; '.join(said)}."]

    def replay_step(self, replay: Steps, step: int) -> StepView:
        return step_view(replay, step)


#: The one instance :mod:`games.kinds.presentation` holds.
JUMBULAYA_PRESENTATION = JumbulayaPresentation()
