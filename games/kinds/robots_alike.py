"""What every kind's :class:`~games.kinds.base.Robots` answer alike: the
kind's own levels (weakest first), the strongest and the baselines never
offered, the lookup of a level by name, the kind's levels placed on the one
:data:`LADDER` players choose from, and the level a robot seat plays; and a
match's result as ``manage.py robot match`` reads it, wins, shared wins and
losses counted from each game's outcome for the seat of level ``a``.

Players choose a robot by its rung of the ladder (``casual``), the same
names in every game; each kind says which of its own levels stands on each
rung (the crossword game's ``greedy`` is its ``club``), and may leave a rung
empty.  A robot account is named after its rung (``Robot Casual``); the
accounts of levels no longer on the ladder (``Robot Greedy``, ``Robot
Strong``) keep the seats they hold and play their own level of the kind.

>>> class Levels(RobotLevels[str]):
...     levels = {"weak": "plays its first move", "strong": "plays its best"}
...     strongest = "strong"
...     baselines = {"old": "plays as the old site did"}
...     ladder = {"beginner": "weak", "expert": "strong"}
>>> Levels().playing("beginner"), Levels().playing("weak"), Levels().playing("retired")
('weak', 'weak', 'strong')
>>> Levels().level("old")
'plays as the old site did'
>>> Levels().level("champion")
Traceback (most recent call last):
...
LookupError: unknown robot level 'champion' (levels: weak, strong, old)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

#: The rungs players choose a robot by, weakest first, the same in every game.
LADDER = ("beginner", "casual", "club", "expert")
#: The rung of a game against a robot started without choosing one: a fair
#: first opponent in every game.
DEFAULT_RUNG = "casual"


class RobotLevels[L]:
    """Mixed into a kind's robots, which set :attr:`levels`, :attr:`strongest`
    and :attr:`ladder` (and :attr:`baselines`, when it has any)."""

    levels: Mapping[str, L]
    strongest: str
    baselines: Mapping[str, L] = MappingProxyType({})
    #: The kind's own level on each rung of :data:`LADDER` it offers.
    ladder: Mapping[str, str]

    def level(self, name: str) -> L:
        """The level or baseline called ``name`` (``LookupError`` naming them if none)."""
        known = {**self.levels, **self.baselines}
        found = known.get(name)
        if found is None:
            raise LookupError(f"unknown robot level {name!r} (levels: {', '.join(known)})")
        return found

    def playing(self, name: str) -> str:
        """The level a robot seat of level ``name`` plays: the kind's own level
        on the rung ``name``; a level of the kind's own (the account of a level
        no longer on the ladder, seated before it was) that one; else the
        strongest."""
        own = self.ladder.get(name)
        if own is not None:
            return own
        return name if name in self.levels else self.strongest


@dataclass(frozen=True)
class MatchOutcome(ABC):
    """A match's result: the engine's, whose figures (``a``, ``b``, ``played``,
    ``win_rate``…) it passes through, with :meth:`outcome` counted into
    ``a``'s wins, shared wins and losses."""

    result: Any

    def __getattr__(self, name: str) -> Any:
        return getattr(self.result, name)

    @abstractmethod
    def outcome(self, game: Any, seat: int) -> float:
        """What ``game`` gave ``seat``: 1 a sole win, 0.5 a shared one, 0 a loss."""

    def _outcomes(self) -> list[float]:
        return [self.outcome(g, s) for g, s in zip(self.games, self.a_seat, strict=True)]

    @property
    def wins(self) -> int:
        return self._outcomes().count(1.0)

    @property
    def draws(self) -> int:
        return self._outcomes().count(0.5)

    @property
    def losses(self) -> int:
        return int(self.result.played) - self.wins - self.draws
