"""The crossword game's presentation as a
:class:`~games.kinds.base.KindPresentation`: the board view and its text grid
(:mod:`.seat_view`), the log and rules in words (:mod:`.log_words`), reply
reading (:mod:`.replies`), the preview (:mod:`.preview`), the replay's
steps (:mod:`.replays`) and the analysis page's context.

Only the presentation layer imports this module (through
:mod:`games.kinds.presentation`): it reads the core's read side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import seat_names
from games.core.projection import load_events
from games.engine.crossword import events
from games.engine.crossword.options import Options
from games.engine.crossword.state import GameState
from games.kinds.crossword.replies import ACCEPTED_FORMS, problem_with, read_reply
from games.kinds.crossword.seat_view import CrosswordBoardView, board_text, board_view
from games.models import Game

from ..base import Logged, Question, ShownHint, Steps
from ..reply_reading import ReplyReading
from .analysis import GameAnalysis
from .kind import CROSSWORD
from .log_words import describe, history, rules_in_words
from .preview import CrosswordPreview, preview_game_move
from .replays import Step, replay_step


def question_for(state: GameState, seat: int, move: str) -> Question | None:
    words = move.split()
    verb = words[0].lower() if words else ""
    if verb in ("pass", "accept") and len(words) == 1 and state.ending:
        return Question(
            move,
            "Accept the end? The game ends as the last play made it, and the play can no longer "
            "be challenged.",
            "Yes, accept the end",
            "No, not yet",
        )
    if verb == "pass" and len(words) == 1:
        return Question(move, "Pass your turn? It scores nothing.", "Yes, pass", "No, keep my turn")
    if verb == "exchange" and len(words) > 1:
        n = len("".join(words[1:]))
        return Question(
            move,
            f"Exchange {n} tile{'s' if n != 1 else ''}? Your turn ends and scores nothing.",
            "Yes, exchange",
            "No, keep my tiles",
        )
    if verb == "resign" and len(words) == 1:
        return Question(
            move, "Resign from this game?", "Yes, resign", "No, stay in the game", danger=True
        )
    if verb == "challenge" and len(words) == 1 and state.open_play is not None:
        return challenge_question(state, seat, move)
    return None


def challenge_question(state: GameState, seat: int, move: str) -> Question:
    """What a wrong challenge costs, as the rules say: the challenger's next
    turn, the current one if it is theirs; a play that would end the game
    ends it."""
    made = state.open_play
    assert made is not None
    if state.ending:
        cost = "the game ends as the play made it"
    elif state.turn == seat:
        cost = "you lose this turn"
    else:
        cost = "you lose your next turn"
    return Question(
        move,
        f"Challenge {state.players[made.seat]}'s play of {', '.join(made.words)}? "
        f"If every word is valid, {cost}.",
        "Yes, challenge",
        "No, let it stand",
    )


class CrosswordPresentation:
    """The board, its text, the reply reader, the log's words, the preview, the
    replay's steps and the analysis of the crossword game."""

    name = CROSSWORD.name
    accepted_forms = ACCEPTED_FORMS
    analysis_template: str | None = "crossword/analysis.html"

    def seat_view(self, state: GameState, seat: int | None) -> CrosswordBoardView:
        return board_view(state, seat)

    def board_text(self, view: CrosswordBoardView) -> str:
        return board_text(view)

    def read_reply(self, text: str, subject: str = "") -> ReplyReading:
        return read_reply(text, subject)

    def describe(self, before: GameState, event: events.Event, after: GameState) -> str:
        return describe(before, event, after)

    def problem_with(self, why: str) -> str:
        return problem_with(why)

    def question_for(self, state: GameState, seat: int, move: str) -> Question | None:
        return question_for(state, seat, move)

    def reply_hint(self, seq: int) -> str:
        return (
            "Or reply to this email with your move on the first line, such as "
            f"“8H FACTS #{seq}” (across from 8H; “H8 FACTS” goes down; #{seq} names this "
            "position), “exchange QXZ”, “pass”, “challenge” or “resign”."
        )

    def hints_in_words(self, hints: Sequence[Any], seq: int) -> str:
        if not hints:
            return "Your rack makes no word on the board now: a pass or an exchange may be best."
        lines = [f"- {h.notation}: {h.points} point{'s' if h.points != 1 else ''}" for h in hints]
        return "\n".join([f"The best plays for your rack now (at move #{seq}):", *lines])

    def rules_in_words(self, options: Options) -> list[str]:
        return rules_in_words(options)

    def game_log(self, game: Game, names: Mapping[int, str] | None = None) -> list[Logged]:
        now = seat_names.names_now(game) if names is None else dict(names)
        events = load_events(game)
        return seat_names.as_played(
            game, now, lambda then: history(seat_names.renamed_events(CROSSWORD, events, then))
        )

    def window_outcomes(self, game: Game, seat: int | None) -> list[str]:
        return []

    def compose_context(self, state: GameState) -> dict[str, Any]:
        return {"challenge_mode": state.options.challenge}

    def preview(self, game: Game, seat: int, move: str) -> CrosswordPreview:
        return preview_game_move(game, seat, move)

    def hints_shown(self, game: Game, seat: int, hints: Sequence[Any]) -> list[ShownHint]:
        """Each play as the log writes plays (``8H FACTS``), which fills the
        move field as it is."""
        return [ShownHint(h.notation, h.notation, h.points, h.gain) for h in hints]

    def analysis_context(self, analysis: GameAnalysis, names: Mapping[int, str]) -> dict[str, Any]:
        players = [names.get(i, name) for i, name in enumerate(analysis.players)]
        return {
            "players": players,
            "turns": [(t, players[t.seat]) for t in analysis.turns],
            "totals": [(t, players[t.seat]) for t in analysis.totals],
        }

    def missed_chances(self, analysis: GameAnalysis, seat: int) -> list[str]:
        totals = next((t for t in analysis.totals if t.seat == seat), None)
        if totals is None or not totals.biggest:
            return [
                "Your biggest missed chances: none. Every move you made scored as much as any "
                "word your rack could make."
            ]
        said = [
            f"turn {m.turn + 1}: you played {m.played}, where {m.best} scored {m.missed} more"
            for m in totals.biggest
        ]
        return [f"Your biggest missed chances: {'; '.join(said)}."]

    def replay_step(self, replay: Steps, step: int) -> Step:
        return replay_step(replay, step)


#: The one instance :mod:`games.kinds.presentation` holds.
CROSSWORD_PRESENTATION = CrosswordPresentation()
