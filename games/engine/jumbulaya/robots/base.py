"""What every robot level shares: the protocol's answer around a level's choice."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ...lexicon import Lexicon
from ..notation import explicit_word
from ..runs import Found, search
from ..state import GameState
from ..view import SeatView, view_state

#: A level's choice on its own turn: the move, in explicit notation.  The last
#: argument is a time budget in milliseconds (None: the level's own default).
Choose = Callable[[SeatView, GameState, Lexicon, random.Random, float | None], str]
#: A level's JUMBULAYA finder: the call it would make now, or None.
Spot = Callable[[SeatView, GameState, Lexicon, random.Random], Found | None]


def best_jumbulaya(
    view: SeatView, state: GameState, lexicon: Lexicon, rng: random.Random
) -> Found | None:
    """The best-scoring JUMBULAYA on the board, when a call is allowed now."""
    if not state.jumbulaya_open() or view.barred[view.seat] or not view.in_game[view.seat]:
        return None
    found = search([line.tiles for line in state.lines], lexicon, state.rules)
    return found[0] if found else None


@dataclass(frozen=True)
class Level:
    """A robot level: its name, a one-line description, how it chooses its own
    move and how it spots a JUMBULAYA."""

    name: str
    description: str
    choose: Choose
    spot: Spot = best_jumbulaya

    def answer(
        self,
        view: SeatView,
        lexicon: Lexicon,
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        """The protocol's answer: ``wait`` when over or nothing to do off turn, a
        ``jumbulaya`` call when the level spots one, else its move."""
        if view.status != "playing" or not view.in_game[view.seat]:
            return "wait"
        state = view_state(view)
        found = self.spot(view, state, lexicon, rng)
        if found is not None:
            return f"jumbulaya {explicit_word(found.tiles)}"
        if view.next != view.seat:
            return "wait"
        return self.choose(view, state, lexicon, rng, budget_ms)


def fallback(view: SeatView) -> str:
    """No word worth playing: exchange the whole rack while the bag can give as
    many back, else pass."""
    if view.rack and view.bag >= len(view.rack):
        return "exchange all"
    return "pass"
