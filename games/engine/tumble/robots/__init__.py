"""Tumble-Words robots: players that decide from a ``tumble-view/1`` seat view.

A robot is given a read :class:`~games.engine.tumble.view.SeatView`, the word
list and its own random generator, and answers ``submit`` with its crossword
when the open round waits for it, else ``wait``.

| level | plays |
|---|---|
| `beginner` | One good word, one of the three best it sees; no crossword. |
| `casual` | Grows a crossword greedily from its best word, a few words deep. |
| `strong` | The highest-scoring crossword it can find in its time (beam search, up to 1.2 s). |
"""

from __future__ import annotations

import random
from collections.abc import Collection

from ..view import SeatView
from .levels import BEGINNER, CASUAL, STRONG, Level

#: The levels, weakest first; the last is the strongest and the default.
LEVELS: dict[str, Level] = {lv.name: lv for lv in (BEGINNER, CASUAL, STRONG)}
STRONGEST: str = STRONG.name


def level(name: str) -> Level:
    try:
        return LEVELS[name]
    except KeyError:
        raise LookupError(f"unknown robot level {name!r} (levels: {', '.join(LEVELS)})") from None


def answer(
    view: SeatView,
    words: Collection[str],
    name: str = STRONGEST,
    rng: random.Random | None = None,
    budget_ms: float | None = None,
) -> str:
    """What the robot of level ``name`` answers to ``view``."""
    return level(name).answer(view, words, rng or random.Random(), budget_ms)


__all__ = ["LEVELS", "STRONGEST", "Level", "answer", "level"]
