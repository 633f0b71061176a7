"""What a move would do, for the mover only, before it is sent: a play's score
and every word it forms (bonus words named), an exchange's tiles, or the
rules' refusal in words.  In a game with challenges (``async``) a play is
never checked against the word list here: a phony may be played and
challenged, and a preview that named it would take the bluff away.  A
challenge's preview never says how the challenge would end."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import seat_names
from games.core.projection import current_state, game_lexicon
from games.engine.crossword import events, notation
from games.engine.crossword.fold import evolve
from games.engine.crossword.state import GameState
from games.engine.errors import Refusal
from games.kinds.base import page_refusal
from games.models import Game

from .kind import CROSSWORD
from .log_words import extras_note


@dataclass(frozen=True)
class CrosswordPreview:
    kind: str  # "play", "exchange", "pass", "challenge", "resign" or "refused"
    summary: str
    details: tuple[str, ...] = ()
    ends_game: bool = False
    message: str | None = None
    accepted: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        return self.kind == "refused"


def preview_move(state: GameState, seat: int, move: str, words: object) -> CrosswordPreview:
    try:
        refusal = page_refusal(move)
        if refusal is not None:
            raise refusal
        made = CROSSWORD.decide(state, seat, move, words)
    except Refusal as r:
        return CrosswordPreview("refused", "This move cannot be made:", message=r.message)
    first = made[0]
    after = state
    for event in made:
        after = evolve(after, event)
    match first:
        case events.Played():
            formed = ", ".join(first.words)
            details = [f"Words formed: {formed}.{extras_note(first)}"]
            if state.options.challenge == "async":
                details.append("Another player may challenge the play until the next move.")
            if after.ending:
                details.append(
                    "This play ends the game unless it is challenged: the next player may "
                    "challenge it or accept the end."
                )
            summary = (
                f"Play {notation.format_move(notation.parse_move(move))}: {first.points} points."
            )
            return CrosswordPreview("play", summary, tuple(details), after.over)
        case events.Exchanged(tiles=tiles):
            return CrosswordPreview(
                "exchange",
                f"Exchange {', '.join(tiles)}.",
                ("Your turn ends and scores nothing; the tiles are mixed back into the bag.",),
            )
        case events.PlayWithdrawn(mover=mover) | events.ChallengeFailed(mover=mover):
            made_play = state.open_play
            assert made_play is not None
            wrong = (
                "If every word is in the list, the game ends as the play made it."
                if state.ending
                else "If every word is in the list, you lose your next turn."
            )
            return CrosswordPreview(
                "challenge",
                f"Challenge {state.players[mover]}'s play of {', '.join(made_play.words)}.",
                (
                    "If any of its words is not in the word list, the play is taken back and "
                    f"{state.players[mover]} loses that turn.",
                    wrong,
                ),
            )
        case events.Resigned():
            return CrosswordPreview("resign", "Resign from the game.", (), after.over)
    if state.ending and state.open_play is not None:
        ender = state.players[state.open_play.seat]
        return CrosswordPreview(
            "pass",
            "Accept the end.",
            (f"The game ends as {ender}'s play made it: it can no longer be challenged.",),
            after.over,
        )
    return CrosswordPreview("pass", "Pass this turn.", ("Your turn scores nothing.",), after.over)


def preview_game_move(game: Game, seat: int, move: str) -> CrosswordPreview:
    names = seat_names.names_now(game)
    state = seat_names.renamed_state(CROSSWORD, current_state(game), names)
    return preview_move(state, seat, move, game_lexicon(game))
