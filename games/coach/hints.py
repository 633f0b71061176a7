"""Hints for one seat of a game: the best word moves for its rack, computed
from its seat view only (the kind's robots' ``hints``).

A game shows hints only when its ``hints`` option is on, and only to the seat
whose rack they are for: :func:`hints_for` says ``None`` when hints are off.
They are put in words by the kind's presentation, on the page (its compose
template) and in the answer to a ``hint`` reply
(:func:`games.mail_in.hint_answers.hints_text`).
"""

from __future__ import annotations

from typing import Any

from games.core.projection import current_state, game_lexicon, kind_of, load_events
from games.models import Game

#: How many hints a seat is shown.
HINTS = 5

#: What a reply asking for hints is read as (by the kind's reply reading).
HINT_REPLY = "hint"
#: The answer to a ``hint`` reply in a game without hints.
HINTS_OFF = (
    "Hints are off in this game: its creator chose to play without them, so none are "
    "shown, by email or on the game page."
)


def hints_for(game: Game, seat: int, n: int = HINTS) -> list[Any] | None:
    """The best word moves for ``seat``'s rack now (each with its
    ``notation``, ``points`` and ``gain``), or ``None`` when the game has hints
    off, is not being played, or is of a kind without robots to find them."""
    kind = kind_of(game)
    if not game.hints or game.status != Game.Status.PLAYING or kind.robots is None:
        return None
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    return kind.robots.hints(load_events(game), current_state(game), seat, lexicon, n)
