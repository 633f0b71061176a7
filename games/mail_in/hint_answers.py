"""The answer to a ``hint`` reply, in the words of the game's kind: its
presentation says what the hints are best at (JUMBULAYA's word moves that
gain the most, the crossword game's best plays, Blockers' moves that leave the
score lowest)."""

from __future__ import annotations

from games.coach.hints import HINTS_OFF, hints_for
from games.core.projection import kind_of
from games.kinds import presentation
from games.models import Game


def hints_text(game: Game, seat: int) -> str:
    """``seat``'s hints now in words, one move a line, or why there are none
    (hints off in this game: :data:`games.coach.hints.HINTS_OFF`)."""
    found = hints_for(game, seat)
    if found is None:
        return HINTS_OFF
    return presentation.of(kind_of(game)).hints_in_words(found, game.last_seq)
