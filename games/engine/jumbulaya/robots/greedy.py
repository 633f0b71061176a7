"""The greedy level: the word that scores the most now, nothing more."""

from __future__ import annotations

import random

from ...lexicon import Lexicon
from ..movegen import legal_moves
from ..notation import explicit_word
from ..state import GameState, line_points
from ..view import SeatView
from .base import Level, fallback


def choose_greedy(
    view: SeatView,
    state: GameState,
    lexicon: Lexicon,
    rng: random.Random,
    budget_ms: float | None = None,
) -> str:
    """The legal word that scores the most for this seat now (what the line
    scores, less what it already scored for this seat); ties broken at random."""
    best: list[tuple[int, str]] = []
    top = 0
    for move in legal_moves(state, view.seat, lexicon):
        held = state.lines[move.line]
        gain = move.points - (line_points(held.tiles) if held.owner == view.seat else 0)
        if gain > top:
            top, best = gain, []
        if gain == top and gain > 0:
            best.append((move.line, explicit_word(move.tiles)))
    if not best:
        return fallback(view)
    index, word = rng.choice(best)
    return f"{index + 1} {word}"


GREEDY = Level(
    name="greedy",
    description="Plays the word that scores the most right now, from the whole word list.",
    choose=choose_greedy,
)
