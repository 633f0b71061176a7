"""Robot self-play: one game (:func:`play_game`) and a match of many (:func:`match`).

Each robot is given only its seat view, written by
:func:`~games.engine.tumble.view.seat_view` and read back, as a robot outside
the process would get it.  Rolls come from a generator seeded by the game's
seed, so the same seed with the levels swapped rolls the same cubes for each
seat.  A robot answer the engine refuses is a bug: :class:`RobotError`.
Nothing here prints: the caller passes a ``progress`` callback.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from ...common.matches import wilson_interval
from ...errors import Refusal
from ..commands import decide, roller
from ..deal import deal
from ..events import Event, RoundClosed
from ..fold import evolve, start
from ..options import Options
from ..state import TumbleState
from ..view import read_view, seat_view
from .levels import Level

#: The seed's own rules (no variant).
SEED_RULES = Options()
#: Rounds after which a game is stopped and counted as a draw.
MAX_ROUNDS = 200


class RobotError(AssertionError):
    """A robot gave an answer the engine refuses."""


@dataclass(frozen=True)
class GameResult:
    seed: int
    levels: tuple[str, ...]
    events: tuple[Event, ...]
    state: TumbleState
    capped: bool
    times_ms: tuple[tuple[int, float], ...]  # (seat, ms) of every answer

    def result(self, seat: int) -> float:
        """1 for a sole win, 0.5 for a shared one or a capped game, else 0."""
        winners = list(range(self.state.seats)) if self.capped else self.state.winners()
        if seat not in winners:
            return 0.0
        return 1.0 if len(winners) == 1 else 0.5

    def round_points(self, seat: int) -> list[int]:
        """What ``seat`` scored in each round it played."""
        return [
            p
            for e in self.events
            if isinstance(e, RoundClosed)
            for s, p in zip(e.seats, e.points, strict=True)
            if s == seat
        ]


def play_game(
    players: Sequence[Level],
    words: Collection[str],
    seed: int,
    options: Options = SEED_RULES,
    *,
    max_rounds: int = MAX_ROUNDS,
    budget_ms: float | None = None,
) -> GameResult:
    """Play one game between ``players`` (one level a seat)."""
    started = deal(
        tuple(f"{lv.name}-{i}" for i, lv in enumerate(players)),
        options,
        random.Random(f"deal:{seed}"),
    )
    roll = roller(random.Random(f"roll:{seed}"))
    rngs = [random.Random(f"robot:{seed}:{i}") for i in range(len(players))]
    events: list[Event] = [started]
    state = start(started)
    times: list[tuple[int, float]] = []
    while not state.over and state.round <= max_rounds:
        for seat in state.waiting():
            view = read_view(seat_view(state, seat, lexicon="default"))
            t0 = time.perf_counter()
            move = players[seat].answer(view, words, rngs[seat], budget_ms)
            times.append((seat, (time.perf_counter() - t0) * 1000))
            try:
                new = decide(state, seat, move, words, roll)
            except Refusal as exc:
                raise RobotError(f"{players[seat].name} answered {move!r}: {exc}") from None
            for event in new:
                events.append(event)
                state = evolve(state, event)
    return GameResult(
        seed,
        tuple(lv.name for lv in players),
        tuple(events),
        state,
        not state.over,
        tuple(times),
    )


@dataclass(frozen=True)
class MatchResult:
    """A match of level ``a`` against ``b``, counted from ``a``'s side."""

    a: str
    b: str
    games: tuple[GameResult, ...]
    a_seat: tuple[int, ...]

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def points(self) -> float:
        return sum(g.result(s) for g, s in zip(self.games, self.a_seat, strict=True))

    @property
    def win_rate(self) -> float:
        return self.points / self.played if self.played else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.played)

    def mean_round_points(self) -> tuple[float, float]:
        """Each side's average points a round."""
        a = [p for g, s in zip(self.games, self.a_seat, strict=True) for p in g.round_points(s)]
        b = [p for g, s in zip(self.games, self.a_seat, strict=True) for p in g.round_points(1 - s)]
        return (statistics.fmean(a) if a else 0.0, statistics.fmean(b) if b else 0.0)

    def summary(self) -> str:
        lo, hi = self.interval
        pa, pb = self.mean_round_points()
        return (
            f"{self.a} vs {self.b}: {self.played} games, win rate {self.win_rate:.1%} "
            f"[95% {lo:.1%}-{hi:.1%}], points a round {pa:.1f}-{pb:.1f}"
        )


def match(
    a: Level,
    b: Level,
    games: int,
    seed: int,
    words: Collection[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    budget_ms: float | None = None,
) -> MatchResult:
    """``games`` two-player games (rounded up to even), each seed twice with
    the seats swapped; ``progress(done, total)`` after each game."""
    deals = (games + 1) // 2
    played: list[GameResult] = []
    seats: list[int] = []
    for i in range(deals):
        for order in ((a, b), (b, a)):
            played.append(play_game(order, words, seed * 100_003 + i, budget_ms=budget_ms))
            seats.append(0 if order[0] is a else 1)
            if progress is not None:
                progress(len(played), 2 * deals)
    return MatchResult(a.name, b.name, tuple(played), tuple(seats))
