"""Robot matches: the figures every engine's ``robots/match.py`` reports.

A match plays many games of level ``a`` against level ``b`` and counts them
from ``a``'s side: each game gives ``a`` a result (1 for a sole win, a share of
one for a shared win, 0 for a loss), and the points are their sum.  The win
rate is reported with its 95% Wilson interval, which stays inside 0–1 and is
honest for the few dozen games a match usually plays; decision times with
their median and 95th percentile.  How a game is played and what a shared win
is worth stay each engine's own.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


def wilson_interval(points: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a rate of ``points`` out of
    ``n`` (a draw counts half a point).

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = points / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of ``values``, by linear interpolation.

    >>> percentile([1, 2, 3, 4, 5], 50), percentile([1, 2, 3, 4, 5], 95)
    (3.0, 4.8)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return float(ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo))


@dataclass(frozen=True, slots=True)
class Timing:
    """Decision times of one level on its own turns, in milliseconds."""

    count: int
    median: float
    p95: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Timing:
        if not values:
            return cls(0, 0.0, 0.0, 0.0)
        return cls(len(values), statistics.median(values), percentile(values, 95), max(values))


def game_seed(seed: int, deal: int) -> int:
    """The seed of a match's ``deal``-th deal (every seating of it plays it)."""
    return seed * 100_003 + deal


def swapped_seatings[T](a: T, b: T, games: int, seed: int) -> list[tuple[int, tuple[T, T], int]]:
    """A two-seat match's games, ``games`` rounded up to even: each deal twice,
    the seats swapped, as ``(game seed, the seats' players, a's seat)``."""
    return [
        (game_seed(seed, i), order, 0 if order[0] is a else 1)
        for i in range((games + 1) // 2)
        for order in ((a, b), (b, a))
    ]


class Scored(Protocol):
    """A finished game as a match counts it."""

    def result(self, seat: int) -> float: ...


class MatchTally[G: Scored]:
    """A match's figures from ``a``'s side, for a match dataclass that holds
    its ``games`` and ``a``'s seat in each (``a_seat``)."""

    __slots__ = ()
    games: tuple[G, ...]
    a_seat: tuple[int, ...]

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def points(self) -> float:
        """A's points: the sum of its results."""
        return sum(g.result(s) for g, s in zip(self.games, self.a_seat, strict=True))

    @property
    def win_rate(self) -> float:
        return self.points / self.played if self.played else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95% Wilson interval."""
        return wilson_interval(self.points, self.played)


class TwoSeatScored(Scored, Protocol):
    """A finished two-seat game: its final scores, by seat."""

    @property
    def scores(self) -> Sequence[int]: ...


class HeadToHead[G: TwoSeatScored](MatchTally[G]):
    """A two-seat match's figures: a result of 1 is a win, 0.5 a draw."""

    __slots__ = ()

    @property
    def wins(self) -> int:
        return sum(1 for g, s in zip(self.games, self.a_seat, strict=True) if g.result(s) == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for g, s in zip(self.games, self.a_seat, strict=True) if g.result(s) == 0.5)

    @property
    def losses(self) -> int:
        return self.played - self.wins - self.draws

    @property
    def average_scores(self) -> tuple[float, float]:
        """A's and B's average final scores."""
        if not self.games:
            return (0.0, 0.0)
        a = [g.scores[s] for g, s in zip(self.games, self.a_seat, strict=True)]
        b = [g.scores[1 - s] for g, s in zip(self.games, self.a_seat, strict=True)]
        return (statistics.fmean(a), statistics.fmean(b))

    def tally_line(self) -> str:
        """The count and the rate, for the start of a summary line."""
        lo, hi = self.interval
        return (
            f"{self.played} games, {self.wins}-{self.draws}-{self.losses} (W-D-L), "
            f"win rate {self.win_rate:.1%} [95% {lo:.1%}-{hi:.1%}]"
        )


def two_seat_result(winners: Sequence[int], seat: int) -> float:
    """1 for a sole win, 0.5 for a shared one, else 0."""
    if seat not in winners:
        return 0.0
    return 1.0 if len(winners) == 1 else 0.5
