"""Tumble-Words' presentation: the seat view pages and emails read, the rolls
and crosswords in text, a reply's reading, the log and the rules in words, a
crossword's preview, a replay's step and the analysis page.  Like every
kind's presentation it may read the core's read side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import seat_names
from games.core.projection import current_state, game_lexicon, kind_of, load_events
from games.engine import tumble as engine
from games.kinds.base import Logged, Question, ShownHint, Steps
from games.kinds.reply_reading import ReplyReading
from games.kinds.tumble.word_index import words_of
from games.models import Game

from . import log_words, replies, seat_view
from .analysis import RoundAnalysis, TumbleAnalysis
from .kind import PRESET_LABELS, TUMBLE
from .preview import MovePreview, preview, question_for
from .replays import Step, replay_step
from .seat_view import TumbleView

#: The most missed chances the game-over email names.
MISSED_SHOWN = 3


@dataclass(frozen=True)
class AnalysedRound:
    """A round of the analysis for its page: the crosswords as rows, as a
    player types them (the notation keeps their colours too)."""

    round: RoundAnalysis
    name: str
    played_rows: tuple[str, ...]
    robot_rows: tuple[str, ...]


@dataclass(frozen=True)
class SeatTotals:
    name: str
    score: int
    given_away: int
    rounds: int
    winner: bool


def _crossword_rows(crossword: str | None) -> tuple[str, ...]:
    """A crossword's one-line form (its colours too, or none) as its rows."""
    return () if crossword is None else seat_view.shown(crossword).lines


def _rows(notation: str) -> tuple[str, ...]:
    """A submission's crossword as its rows, as a player types them."""
    command = engine.parse_move(notation)
    return command.crossword.rows if isinstance(command, engine.Submit) else (notation,)


class TumblePresentation:
    name = TUMBLE.name
    accepted_forms = replies.ACCEPTED_FORMS
    analysis_template: str | None = "tumble/analysis.html"

    def seat_view(self, state: engine.TumbleState, seat: int | None) -> TumbleView:
        return seat_view.seat_view(state, seat)

    def board_text(self, view: TumbleView) -> str:
        return seat_view.board_text(view)

    def read_reply(self, text: str, subject: str = "") -> ReplyReading:
        return replies.read_reply(text, subject)

    def describe(
        self, before: engine.TumbleState, event: engine.Event, after: engine.TumbleState
    ) -> str:
        return log_words.describe(before, event)

    def problem_with(self, why: str) -> str:
        return replies.problem_with(why)

    def question_for(self, state: engine.TumbleState, seat: int, move: str) -> Question | None:
        return question_for(state, seat, move)

    def reply_hint(self, seq: int) -> str:
        return (
            "Or reply to this email with your crossword at the top, one row a line: capital "
            "letters for the faces, “.” for an empty square, a blank's letter in lower case "
            f"(“..H” on one line, “FAME” on the next). Add #{seq} on a line of its own to "
            "name this round; “resign” leaves the game."
        )

    def hints_in_words(self, hints: Sequence[Any], seq: int) -> str:
        if not hints:
            return (
                "There is no crossword to suggest now: hints are for a round that waits for "
                "your crossword."
            )
        lines = []
        for h in hints:
            lines.append(f"Scoring {h.points}, one row a line as you would reply with it:")
            lines += [f"    {row}" for row in _rows(h.notation)]
        heading = f"The strong robot's crossword for your roll (at move #{seq}):"
        return "\n".join([heading, *lines])

    def rules_in_words(self, options: engine.Options) -> list[str]:
        preset, changed = TUMBLE.preset_of(options)
        label = PRESET_LABELS.get(preset, preset)
        if changed:
            label += f", to {options.target} points"
        return log_words.rules_in_words(label, options)

    def game_log(self, game: Game, names: Mapping[int, str] | None = None) -> list[Logged]:
        now = seat_names.names_now(game) if names is None else dict(names)
        events = load_events(game)
        return seat_names.as_played(
            game,
            now,
            lambda then: log_words.history(seat_names.renamed_events(TUMBLE, events, then)),
        )

    def window_outcomes(self, game: Game, seat: int | None) -> list[str]:
        return []

    def compose_context(self, state: engine.TumbleState) -> dict[str, Any]:
        """``sealed_round``: two players, whose crosswords stay sealed and
        can be replaced until the round closes."""
        return {"sealed_round": state.sealed_rounds}

    def preview(self, game: Game, seat: int, move: str) -> MovePreview:
        assert kind_of(game) is TUMBLE
        names = seat_names.names_now(game)
        state = seat_names.renamed_state(TUMBLE, current_state(game), names)
        return preview(state, seat, move, words_of(game_lexicon(game)))

    def hints_shown(self, game: Game, seat: int, hints: Sequence[Any]) -> list[ShownHint]:
        """Each crossword drawn as the page draws one (its squares with their
        cubes' colours, its words and points, from its preview on the seat's
        roll), filling the crossword field with its rows."""
        out = []
        for h in hints:
            drawn = self.preview(game, seat, h.notation).crossword
            if drawn is None:  # the roll no longer holds it: drawn without colours
                drawn = seat_view.shown(h.notation.partition(" ")[2])
            words = f"The strong robot's crossword for your roll, scoring {h.points}"
            fill = "\n".join(_rows(h.notation))
            out.append(ShownHint(words, fill, h.points, h.gain, drawn=drawn))
        return out

    def analysis_context(self, analysis: Any, names: Mapping[int, str]) -> dict[str, Any]:
        assert isinstance(analysis, TumbleAnalysis)
        name = [names.get(s, p) for s, p in enumerate(analysis.players)]
        totals = [
            SeatTotals(
                name=name[s],
                score=analysis.final_scores[s],
                given_away=analysis.given_away(s),
                rounds=len(analysis.of_seat(s)),
                winner=s in analysis.winners,
            )
            for s in range(len(analysis.players))
        ]
        rounds = [
            AnalysedRound(r, name[r.seat], _crossword_rows(r.played), _crossword_rows(r.robot))
            for r in analysis.rounds
        ]
        return {"totals": totals, "rounds": rounds, "robot_level": analysis.robot_level}

    def missed_chances(self, analysis: Any, seat: int) -> list[str]:
        assert isinstance(analysis, TumbleAnalysis)
        worse = [r for r in analysis.of_seat(seat) if (d := r.difference) is not None and d > 0]
        if not worse:
            return []
        worst = sorted(worse, key=lambda r: (-(r.difference or 0), r.round))[:MISSED_SHOWN]
        said = "; ".join(
            f"in round {r.round} you scored {r.points} where the {analysis.robot_level} robot "
            f"laid {r.robot} for {r.robot_points}"
            for r in worst
        )
        return [f"Your biggest missed chances, by the points of each round: {said}."]

    def replay_step(self, replay: Steps, step: int) -> Step:
        return replay_step(replay, step)


TUMBLE_PRESENTATION = TumblePresentation()
