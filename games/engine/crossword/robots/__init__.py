"""Robots for the crossword game, Bible edition: levels from ``beginner`` to
``strong`` (:mod:`.levels`), what they see and answer (:mod:`.base`), and a
self-play match runner (:mod:`.match`).

| level | plays |
|---|---|
| `beginner` | Short words, picked at random from the lower-scoring half. |
| `casual` | One of its ten best-scoring moves, at random. |
| `greedy` | The move that scores the most now. |
| `strong` | Score plus the leave's value; exchanges; reads the endgame a move deep. |
"""

from __future__ import annotations

from ..dawg import Dawg
from .base import Answer, Exchange, Pass, Position, Robot
from .levels import LEVELS


class UnknownLevel(LookupError):
    """A level name that is not in :data:`~.levels.LEVELS`."""


def robot(name: str, dawg: Dawg) -> Robot:
    """The robot of level ``name``, bound to ``dawg``."""
    try:
        return LEVELS[name](dawg)
    except KeyError:
        known = ", ".join(LEVELS)
        raise UnknownLevel(f"unknown robot level {name!r} (levels: {known})") from None


__all__ = ["LEVELS", "Answer", "Exchange", "Pass", "Position", "Robot", "UnknownLevel", "robot"]
