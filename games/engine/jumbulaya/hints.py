"""Hints: the best word moves for one seat's rack, from its seat view only.

:func:`hints` reads nothing but a :class:`~games.engine.jumbulaya.view.SeatView`: the
seat's own rack and what is public.  Another seat's rack and the bag's order
are not in the view, so a hint can never give them away.  Only word moves are
hinted, never a JUMBULAYA: finding those is the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..lexicon import Lexicon
from .movegen import legal_moves
from .state import line_points
from .view import SeatView, view_state

#: How many hints a player is shown.
HINTS = 5


@dataclass(frozen=True, slots=True)
class Hint:
    """One word move: its notation (``3 FACTS``), the points the line scores and
    what the seat gains by it (less, when the seat already owns the line)."""

    notation: str
    word: str
    line: int  # from 1, as in the notation
    points: int
    gain: int


def hints(view: SeatView, lexicon: Lexicon, n: int = HINTS) -> list[Hint]:
    """The ``n`` word moves that gain the viewing seat the most points now, best
    first (ties: the longer word, then the top line first).  Empty when the game
    is over or the seat has no word move."""
    if view.status != "playing" or not view.in_game[view.seat]:
        return []
    state = view_state(view)
    found: dict[str, Hint] = {}
    for move in legal_moves(state, view.seat, lexicon):
        held = state.lines[move.line]
        gain = move.points - (line_points(held.tiles) if held.owner == view.seat else 0)
        notation = move.notation()
        if notation not in found:
            found[notation] = Hint(notation, move.word, move.line + 1, move.points, gain)
    ranked = sorted(found.values(), key=lambda h: (-h.gain, -len(h.word), h.line, h.notation))
    return ranked[:n]


__all__ = ["HINTS", "Hint", "hints"]
