"""Robots: players that decide from a seat view only (spec: seat-view.md).

A robot is given a read :class:`~games.engine.jumbulaya.view.SeatView`, the game's word
list and its own random generator, and answers as the robot protocol does: a
move in explicit notation on its turn, ``jumbulaya WORD`` to call one (on or
off turn), or ``wait``.  It never sees another seat's rack or the bag's order:
the view does not hold them.

:data:`LEVELS` lists the levels from the weakest to the strongest
(:func:`levels_table` writes this table for docs/games/jumbulaya.md):

| level | plays |
|---|---|
| `beginner` | A child can beat it: common words of at most five tiles, often not its best. |
| `casual` | The twenty thousand commonest words, up to seven tiles, usually its best. |
| `greedy` | Plays the word that scores the most right now, from the whole word list. |
| `club` | Every word; weighs both scores, its leave, the game's end and the JUMBULAYA race. |
| `expert` | The strongest: every word; simulates the replies each move hands the next seat. |
"""

from __future__ import annotations

import random

from ...lexicon import Lexicon
from ..view import SeatView
from .base import Level
from .greedy import GREEDY
from .levels import BEGINNER, CASUAL, CLUB, EXPERT

#: The levels, weakest first; the last is the strongest and the default.
LEVELS: dict[str, Level] = {level.name: level for level in (BEGINNER, CASUAL, GREEDY, CLUB, EXPERT)}

STRONGEST: str = list(LEVELS)[-1]


class UnknownLevel(LookupError):
    """A level name that is not in :data:`LEVELS`."""


def level(name: str) -> Level:
    try:
        return LEVELS[name]
    except KeyError:
        known = ", ".join(LEVELS)
        raise UnknownLevel(f"unknown robot level {name!r} (levels: {known})") from None


def levels_table() -> str:
    """The levels as a Markdown table, weakest first (for docs/games/jumbulaya.md)."""
    rows = [f"| `{lv.name}` | {lv.description} |" for lv in LEVELS.values()]
    return "\n".join(["| level | plays |", "|---|---|", *rows])


def answer(
    view: SeatView,
    lexicon: Lexicon,
    name: str = STRONGEST,
    rng: random.Random | None = None,
    budget_ms: float | None = None,
) -> str:
    """What the robot of level ``name`` answers to ``view``; ``budget_ms`` caps
    the time a searching level thinks (None: the level's own budget)."""
    return level(name).answer(view, lexicon, rng or random.Random(), budget_ms)


__all__ = ["LEVELS", "STRONGEST", "Level", "UnknownLevel", "answer", "level", "levels_table"]
