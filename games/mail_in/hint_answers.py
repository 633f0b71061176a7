"""The answer to a ``hint`` reply, in the words of the game's kind: its
presentation says what the hints are best at (JUMBULAYA's word moves that
gain the most, the crossword game's best plays, Blockers' moves that leave the
score lowest).

The hints are those stored for the sender's seat at the game's current
position (:mod:`games.coach.hints`), as the game page shows them; a reply that
arrives before the task has stored them prepares them through the same
function (:func:`games.coach.hints.prepare`), once, and the page then shows
the same.  Only the seat to move is given any: they reveal its rack."""

from __future__ import annotations

from games.coach.hints import HINTS_OFF, PREPARING, hints_now, prepare
from games.core.projection import kind_of
from games.kinds import presentation
from games.models import Game

#: The answer to a ``hint`` reply from a seat that is not to move.
NOT_YOUR_TURN = (
    "Hints are given to the player to move, for the position of their turn, and it is "
    "not your turn now: reply hint to the email that says it is."
)
#: The answer to a ``hint`` reply once the game is over.
GAME_OVER = "This game is over: hints are for a game in play."
#: The answer when the hints could not be found (or the game moved on meanwhile).
NOT_FOUND = "No hints could be found for this position: reply hint again in a moment."


def hints_text(game: Game, seat: int) -> str:
    """``seat``'s hints at the game's position now in words, one move a line,
    or why there are none (hints off in this game:
    :data:`games.coach.hints.HINTS_OFF`; not its turn; the game over)."""
    if not game.hints or kind_of(game).robots is None:
        return HINTS_OFF
    if game.status != Game.Status.PLAYING:
        return GAME_OVER
    now = hints_now(game, seat)
    if now is None:
        return NOT_YOUR_TURN
    if now.pending == PREPARING:
        prepare(game.pk, seat, game.last_seq)
        now = hints_now(game, seat)
    if now is None or now.hints is None:
        return NOT_FOUND
    return presentation.of(kind_of(game)).hints_in_words(now.hints, game.last_seq)
