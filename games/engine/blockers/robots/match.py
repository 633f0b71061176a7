"""Robot self-play for Blockers: one game (:func:`play_game`) and a match (:func:`match`).

A game keeps the true state and its events; each robot is given only its own
seat view, written by :func:`~..view.seat_view` and read back by
:func:`~..view.read_view`, as a robot outside the process would get it.  The
deal depends on the game's seed only.  A robot answer the engine refuses is a
bug in the robot (:class:`RobotError`).

A match of level ``a`` against level ``b`` seats ``a`` once among ``b``s and
plays every deal once per seat ``a`` can take (the seats rotated), so each
level meets every deal from every seat.  ``a`` scores 1 for a sole win and
``1/k`` for a win shared by ``k``; with equal levels its expected rate is one
game in ``players``.  Nothing here prints: the caller passes ``progress``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...common.matches import MatchTally, Timing, game_seed
from ...errors import Refusal
from ..commands import decide, drawer
from ..deal import deal
from ..events import Event
from ..fold import evolve, start
from ..options import Options
from ..state import BlockersState
from ..view import read_view, seat_view
from .levels import Level


class RobotError(AssertionError):
    """A robot gave an answer the engine refuses (a bug in the robot)."""

    def __init__(self, level: str, answer: str, refusal: Refusal) -> None:
        self.level = level
        self.answer = answer
        self.refusal = refusal
        super().__init__(
            f"robot {level!r} answered {answer!r}, which the engine refuses: {refusal}"
        )


@dataclass(frozen=True)
class GameResult:
    """A finished self-play game, with each seat's decision times on its turns."""

    seed: int
    levels: tuple[str, ...]
    events: tuple[Event, ...]
    state: BlockersState
    times: tuple[tuple[float, ...], ...]

    def result(self, seat: int) -> float:
        """1 for a sole win, ``1/k`` for a win shared by ``k`` seats, else 0."""
        winners = self.state.winners()
        return 1 / len(winners) if seat in winners else 0.0


def play_game(levels: Sequence[Level], seed: int, budget_ms: float | None = None) -> GameResult:
    """One game between ``levels`` (one per seat); the deal, who starts and the
    draws depend on ``seed`` only, whatever levels sit where."""
    started = deal(
        tuple(f"{level.name}-{i}" for i, level in enumerate(levels)),
        Options(),
        random.Random(f"deal:{seed}"),
    )
    rngs = [random.Random(f"robot:{seed}:{i}") for i in range(len(levels))]
    draw = drawer(random.Random(f"draw:{seed}"))
    events: list[Event] = [started]
    state = start(started)
    times: list[list[float]] = [[] for _ in levels]
    while not state.over:
        seat = state.turn
        assert seat is not None
        view = read_view(seat_view(events, state, seat))
        t0 = time.perf_counter()
        answer = levels[seat].answer(view, rngs[seat], budget_ms)
        times[seat].append((time.perf_counter() - t0) * 1000)
        try:
            new = decide(state, seat, answer, draw)
        except Refusal as e:
            raise RobotError(levels[seat].name, answer, e) from None
        for event in new:
            events.append(event)
            state = evolve(state, event)
    return GameResult(
        seed, tuple(lv.name for lv in levels), tuple(events), state, tuple(map(tuple, times))
    )


@dataclass(frozen=True)
class MatchResult(MatchTally[GameResult]):
    """Level ``a`` seated once among ``b``s, counted from ``a``'s side."""

    a: str
    b: str
    players: int
    games: tuple[GameResult, ...]
    a_seat: tuple[int, ...]
    times: dict[str, Timing]

    @property
    def fair_share(self) -> float:
        """``a``'s expected rate were the levels equal."""
        return 1 / self.players

    @property
    def average_scores(self) -> tuple[float, float]:
        """``a``'s average final score and the average of the ``b`` seats'."""
        if not self.games:
            return (0.0, 0.0)
        a: list[int] = []
        b: list[int] = []
        for g, s in zip(self.games, self.a_seat, strict=True):
            scores = g.state.scores()
            a.append(scores[s])
            b.extend(v for i, v in enumerate(scores) if i != s)
        return (statistics.fmean(a), statistics.fmean(b))

    def summary(self) -> str:
        lo, hi = self.interval
        sa, sb = self.average_scores
        return (
            f"{self.a} vs {self.players - 1} {self.b}: {self.played} games, win rate "
            f"{self.win_rate:.1%} [95% {lo:.1%}-{hi:.1%}] (fair share {self.fair_share:.1%}), "
            f"scores {sa:.1f} vs {sb:.1f}"
        )

    def to_json(self) -> dict[str, object]:
        lo, hi = self.interval
        sa, sb = self.average_scores
        return {
            "a": self.a,
            "b": self.b,
            "players": self.players,
            "games": self.played,
            "points": round(self.points, 3),
            "win_rate": round(self.win_rate, 3),
            "interval_95": [round(lo, 3), round(hi, 3)],
            "fair_share": round(self.fair_share, 3),
            "average_scores": [round(sa, 2), round(sb, 2)],
            "ms_per_turn": {
                name: {"median": round(t.median, 3), "p95": round(t.p95, 3)}
                for name, t in self.times.items()
            },
        }


def match(
    a: Level,
    b: Level,
    deals: int,
    seed: int,
    players: int = 3,
    progress: Callable[[int, int], None] | None = None,
    budget_ms: float | None = None,
) -> MatchResult:
    """``deals`` deals, each played ``players`` times with ``a`` in every seat
    in turn; ``progress(done, total)`` is called after each game."""
    total = deals * players
    games: list[GameResult] = []
    seats: list[int] = []
    times: dict[str, list[float]] = {a.name: [], b.name: []}
    for d in range(deals):
        for seat in range(players):
            levels = [a if s == seat else b for s in range(players)]
            g = play_game(levels, game_seed(seed, d), budget_ms)
            games.append(g)
            seats.append(seat)
            for s, t in enumerate(g.times):
                times[levels[s].name].extend(t)
            if progress is not None:
                progress(len(games), total)
    return MatchResult(
        a.name,
        b.name,
        players,
        tuple(games),
        tuple(seats),
        {name: Timing.of(v) for name, v in times.items()},
    )
