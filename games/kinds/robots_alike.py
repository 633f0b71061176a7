"""What every kind's :class:`~games.kinds.base.Robots` answer alike: the
levels offered (weakest first), the strongest and the baselines never offered,
the lookup of a level by name and the level a robot seat plays; and a match's
result as ``manage.py robot match`` reads it, wins, shared wins and losses
counted from each game's outcome for the seat of level ``a``.

>>> class Levels(RobotLevels[str]):
...     levels = {"weak": "plays its first move", "strong": "plays its best"}
...     strongest = "strong"
...     baselines = {"old": "plays as the old site did"}
>>> Levels().playing("retired"), Levels().playing("weak"), Levels().level("old")
('strong', 'weak', 'plays as the old site did')
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


class RobotLevels[L]:
    """Mixed into a kind's robots, which set :attr:`levels` and :attr:`strongest`
    (and :attr:`baselines`, when it has any)."""

    levels: Mapping[str, L]
    strongest: str
    baselines: Mapping[str, L] = MappingProxyType({})

    def level(self, name: str) -> L:
        """The level or baseline called ``name`` (``LookupError`` naming them if none)."""
        known = {**self.levels, **self.baselines}
        found = known.get(name)
        if found is None:
            raise LookupError(f"unknown robot level {name!r} (levels: {', '.join(known)})")
        return found

    def playing(self, name: str) -> str:
        """The level a robot seat of level ``name`` plays: that one while it is
        offered, else (a level no longer offered) the strongest."""
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
