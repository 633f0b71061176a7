"""Hints for one seat of a game: the best word moves for its rack, computed
from its seat view only (:func:`games.engine.hints.hints`).

A game shows hints only when its ``hints`` option is on, and only to the seat
whose rack they are for: :func:`hints_for` says ``None`` when hints are off.
"""

from __future__ import annotations

from games.core.projection import current_state, game_lexicon, load_events
from games.engine.events import Event as EngineEvent
from games.engine.hints import HINTS, Hint, hints
from games.engine.state import GameState
from games.engine.view import read_view, seat_view
from games.models import Game

#: What a reply asking for hints is read as (by the kind's reply reading).
HINT_REPLY = "hint"
#: The answer to a ``hint`` reply in a game without hints.
HINTS_OFF = (
    "Hints are off in this game: its creator chose to play without them, so none are "
    "shown, by email or on the game page."
)


def hints_for(game: Game, seat: int, n: int = HINTS) -> list[Hint] | None:
    """The best word moves for ``seat``'s rack now, or ``None`` when the game
    has hints off (or is not being played)."""
    if not game.hints or game.status != Game.Status.PLAYING:
        return None
    state = current_state(game)
    events = load_events(game)
    assert isinstance(state, GameState)
    engine_events = [e for e in events if isinstance(e, EngineEvent)]
    doc = seat_view(engine_events, state, seat, lexicon=game.lexicon_name)
    return hints(read_view(doc), game_lexicon(game), n)


def hints_text(game: Game, seat: int) -> str:
    """The hints in words, for an email: one move a line, or why there are none."""
    found = hints_for(game, seat)
    if found is None:
        return HINTS_OFF
    if not found:
        return "Your rack makes no word on any line now: a pass or an exchange may be best."
    lines = [
        f"- {h.notation}: {h.points} point{'s' if h.points != 1 else ''}"
        + (f" (you gain {h.gain})" if h.gain != h.points else "")
        for h in found
    ]
    return "\n".join([f"The best word moves for your rack now (at move #{game.last_seq}):", *lines])
