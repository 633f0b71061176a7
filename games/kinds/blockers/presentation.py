"""Blockers' presentation: the seat view pages and emails read, the board in
text, a reply's reading, the log and the rules in words, a move's preview, a
replay's step and the analysis page.  Like every kind's presentation it may
read the core's read side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import seat_names
from games.core.projection import current_state, kind_of, load_events
from games.engine import blockers as engine
from games.kinds.base import Logged, Question, ShownHint, Steps
from games.kinds.reply_reading import ReplyReading
from games.models import Game

from . import log_words, replies, seat_view
from .analysis import BlockersAnalysis, TurnAnalysis
from .kind import BLOCKERS, BlockersOptions
from .preview import MovePreview, preview, question_for
from .replays import Step, replay_step
from .seat_view import BlockersView

#: The most missed chances the game-over email names.
MISSED_SHOWN = 3


@dataclass(frozen=True)
class AnalysedTurn:
    turn: TurnAnalysis
    name: str


@dataclass(frozen=True)
class SeatTotals:
    name: str
    score: int
    given_away: int
    agreed: int
    turns: int
    winner: bool


def _move_words(notation: str) -> str:
    """A tile placed, in words: the tile, then its square."""
    command = engine.parse_move(notation)
    if not isinstance(command, engine.Place):
        return notation
    return f"{seat_view.tile_words(command.tile)} at {command.square}"


class BlockersPresentation:
    name = BLOCKERS.name
    accepted_forms = replies.ACCEPTED_FORMS
    analysis_template: str | None = "blockers/analysis.html"

    def seat_view(self, state: engine.BlockersState, seat: int | None) -> BlockersView:
        return seat_view.seat_view(state, seat)

    def board_text(self, view: BlockersView) -> str:
        return seat_view.board_text(view)

    def read_reply(self, text: str, subject: str = "") -> ReplyReading:
        return replies.read_reply(text, subject)

    def describe(
        self, before: engine.BlockersState, event: engine.Event, after: engine.BlockersState
    ) -> str:
        return log_words.describe(before, event)

    def problem_with(self, why: str) -> str:
        return replies.problem_with(why)

    def question_for(self, state: engine.BlockersState, seat: int, move: str) -> Question | None:
        return question_for(state, seat, move)

    def reply_hint(self, seq: int) -> str:
        return (
            "Or reply to this email with your move on the first line: a tile of your rack "
            f"and a square, such as “7 at C7 #{seq}” or “* at E5 #{seq}” (#{seq} names this "
            "position), or “resign”."
        )

    def hints_in_words(self, hints: Sequence[Any], seq: int) -> str:
        if not hints:
            return (
                "There is no move to suggest now: hints are for your turn, and a turn where "
                "no tile of your rack can go anywhere is a pass."
            )
        lines = [
            f"- {h.notation}: leaves you {h.points} point{'s' if h.points != 1 else ''}"
            + (" (a capture)" if h.captures else "")
            for h in hints
        ]
        heading = (
            f"The moves that leave your score lowest now (at move #{seq}; the fewest points win):"
        )
        return "\n".join([heading, *lines])

    def rules_in_words(self, options: BlockersOptions) -> list[str]:
        label = BLOCKERS.preset_labels.get(options.preset, options.preset)
        return log_words.rules_in_words(label)

    def game_log(self, game: Game, names: Mapping[int, str] | None = None) -> list[Logged]:
        now = seat_names.names_now(game) if names is None else dict(names)
        events = load_events(game)
        return seat_names.as_played(
            game,
            now,
            lambda then: log_words.history(seat_names.renamed_events(BLOCKERS, events, then)),
        )

    def window_outcomes(self, game: Game, seat: int | None) -> list[str]:
        return []

    def compose_context(self, state: engine.BlockersState) -> dict[str, Any]:
        """``can_pass``: the seat to move has no legal move, so its one move is a pass."""
        turn = state.turn
        return {"can_pass": turn is not None and not engine.legal_moves(state, turn)}

    def preview(self, game: Game, seat: int, move: str) -> MovePreview:
        assert kind_of(game) is BLOCKERS
        names = seat_names.names_now(game)
        return preview(seat_names.renamed_state(BLOCKERS, current_state(game), names), seat, move)

    def hints_shown(self, game: Game, seat: int, hints: Sequence[Any]) -> list[ShownHint]:
        """Each move as the log tells one (``the 7 at C7``), filling the move
        field with its notation (``7 at C7``)."""
        return [
            ShownHint(_move_words(h.notation), h.notation, h.points, h.gain, h.captures)
            for h in hints
        ]

    def analysis_context(self, analysis: Any, names: Mapping[int, str]) -> dict[str, Any]:
        assert isinstance(analysis, BlockersAnalysis)
        name = [names.get(s, p) for s, p in enumerate(analysis.players)]
        totals = [
            SeatTotals(
                name=name[s],
                score=analysis.final_scores[s],
                given_away=analysis.given_away(s),
                agreed=analysis.agreed(s),
                turns=len(analysis.of_seat(s)),
                winner=s in analysis.winners,
            )
            for s in range(len(analysis.players))
        ]
        turns = [AnalysedTurn(t, name[t.seat]) for t in analysis.turns]
        return {"totals": totals, "turns": turns, "robot_level": analysis.robot_level}

    def missed_chances(self, analysis: Any, seat: int) -> list[str]:
        assert isinstance(analysis, BlockersAnalysis)
        worse = [t for t in analysis.of_seat(seat) if (d := t.difference) is not None and d > 0]
        if not worse:
            return []
        worst = sorted(worse, key=lambda t: (-(t.difference or 0), t.seq))[:MISSED_SHOWN]
        said = "; ".join(
            f"at move #{t.seq} you played {t.played} (leaving you {t.score}) where the "
            f"{analysis.robot_level} robot chose {t.robot} (leaving {t.robot_score})"
            for t in worst
        )
        return [f"Your biggest missed chances, by the score each move left at once: {said}."]

    def replay_step(self, replay: Steps, step: int) -> Step:
        return replay_step(replay, step)


BLOCKERS_PRESENTATION = BlockersPresentation()
