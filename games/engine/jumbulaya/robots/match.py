"""Robot self-play: one game (:func:`play_game`) and a match of many (:func:`match`).

A game keeps the true state and its events; each robot is only ever given its
own seat view, written by :func:`~games.engine.jumbulaya.view.seat_view` and read back by
:func:`~games.engine.jumbulaya.view.read_view`, exactly as a robot outside the process
would get it.  Its answer is applied with :func:`~games.engine.jumbulaya.commands.decide`
and :func:`~games.engine.jumbulaya.fold.evolve`; the draws come from a generator seeded
by the game's seed, so a game is replayed exactly by its seed.

The seat to move answers on its turn.  After every applied event, every other
seat still in the game, starting with the seat after the one that made it, is
asked once whether it calls a JUMBULAYA (as the service's sealed claim windows
allow).  The seat whose turn comes next answers with its move then: a call is
applied at once, any other move is kept and made when its turn is taken (unless
another seat's call changed the position meanwhile).

A robot answer the engine refuses is a bug in the robot: :class:`RobotError`
carries the view and the answer.  A game that runs past ``max_turns`` turns is
stopped and counted as a draw (``capped``).

:func:`match` plays each deal twice with the seats swapped and sums the results
from the first level's side, with the 95% Wilson interval of its win rate
(:mod:`games.engine.common.matches`).  Nothing here prints: the caller passes
a ``progress`` callback.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...common.matches import HeadToHead, swapped_seatings, two_seat_result
from ...common.matches import Timing as Timing
from ...common.matches import percentile as percentile
from ...common.matches import wilson_interval as wilson_interval
from ...errors import Refusal
from ...lexicon import Lexicon
from ...tiles import Tiles
from ..commands import Drawer, decide
from ..deal import deal
from ..events import Event, GameStarted
from ..fold import evolve, start
from ..options import PRESETS, Rules
from ..state import GameState
from ..view import read_view, seat_view
from .base import Level

#: Turns after which a game is stopped and counted as a draw.
MAX_TURNS = 400


class RobotError(AssertionError):
    """A robot gave an answer the engine refuses (a bug in the robot)."""

    def __init__(self, level: str, view: dict[str, Any], answer: str, refusal: Exception) -> None:
        self.level = level
        self.view = view
        self.answer = answer
        self.refusal = refusal
        super().__init__(
            f"robot {level!r} answered {answer!r}, which the engine refuses ({refusal}); "
            f"its view: {view!r}"
        )


@dataclass(frozen=True, slots=True)
class Decision:
    """One answer a robot gave: its seat, whether it was its turn, how long it took."""

    seat: int
    on_turn: bool
    ms: float
    answer: str


@dataclass(frozen=True)
class GameResult:
    """A finished (or capped) self-play game."""

    seed: int
    levels: tuple[str, ...]  # level name per seat
    events: tuple[Event, ...]
    state: GameState
    turns: int
    capped: bool
    decisions: tuple[Decision, ...]

    @property
    def scores(self) -> list[int]:
        return self.state.scores()

    @property
    def winners(self) -> list[int]:
        """The winning seats; every seat when the game was capped (a draw)."""
        if self.capped:
            return list(range(self.state.seats))
        return self.state.winners()

    def result(self, seat: int) -> float:
        """1 for a sole win, 0.5 for a shared one (or a capped game), else 0."""
        return two_seat_result(self.winners, seat)

    def turn_times(self, seat: int) -> list[float]:
        """The milliseconds ``seat`` took for each answer on its own turn."""
        return [d.ms for d in self.decisions if d.seat == seat and d.on_turn]


def seeded_drawer(rng: random.Random) -> Drawer:
    """A drawer that takes tiles at random from the bag with ``rng``."""

    def draw(bag: Tiles, n: int) -> Tiles:
        return tuple(bag[i] for i in rng.sample(range(len(bag)), n))

    return draw


def play_game(
    players: Sequence[Level],
    lexicon: Lexicon,
    seed: int,
    rules: Rules = PRESETS["official"],
    *,
    lexicon_name: str | None = None,
    max_turns: int = MAX_TURNS,
    budget_ms: float | None = None,
) -> GameResult:
    """Play one game between ``players`` (one level per seat, seat 0 first in
    the list).  The deal and who moves first depend on ``seed`` only, so the same
    seed with the levels in another order deals the same game with the seats
    swapped.  ``budget_ms`` is passed to every level (None: each level's own)."""
    name = lexicon_name or lexicon.name
    deal_rng = random.Random(f"deal:{seed}")
    started: GameStarted = deal(
        tuple(f"{level.name}-{i}" for i, level in enumerate(players)), rules, lexicon, deal_rng
    )
    draw = seeded_drawer(random.Random(f"draw:{seed}"))
    rngs = [random.Random(f"robot:{seed}:{i}") for i in range(len(players))]
    events: list[Event] = [started]
    state = start(started)
    decisions: list[Decision] = []
    turns = 0
    capped = False
    pending: tuple[int, int, str] | None = None  # (state.seq, seat, answer)

    def ask(seat: int) -> tuple[dict[str, Any], str]:
        doc = seat_view(events, state, seat, lexicon=name)
        view = read_view(doc)
        t0 = time.perf_counter()
        answer = players[seat].answer(view, lexicon, rngs[seat], budget_ms)
        ms = (time.perf_counter() - t0) * 1000
        decisions.append(Decision(seat, view.my_turn, ms, answer))
        return doc, answer

    def apply(seat: int, doc: dict[str, Any], answer: str) -> None:
        nonlocal state
        try:
            new = decide(state, seat, answer, lexicon, draw)
        except Refusal as exc:
            raise RobotError(players[seat].name, doc, answer, exc) from None
        for event in new:
            events.append(event)
            state = evolve(state, event)

    def offer_calls(after: int) -> None:
        """Ask every other seat still in the game, from the next one, whether it calls."""
        nonlocal pending
        n = state.seats
        for k in range(1, n):
            seat = (after + k) % n
            if state.over:
                return
            if not state.in_game(seat):
                continue
            doc, answer = ask(seat)
            if answer == "wait":
                continue
            if seat == state.turn and not answer.lower().startswith("jumbulaya"):
                pending = (state.seq, seat, answer)
                continue
            apply(seat, doc, answer)

    while not state.over:
        if turns >= max_turns:
            capped = True
            break
        seat = state.turn
        assert seat is not None
        if pending is not None and pending[:2] == (state.seq, seat):
            doc = seat_view(events, state, seat, lexicon=name)
            answer = pending[2]
        else:
            doc, answer = ask(seat)
        pending = None
        apply(seat, doc, answer)
        turns += 1
        offer_calls(seat)
    return GameResult(
        seed=seed,
        levels=tuple(level.name for level in players),
        events=tuple(events),
        state=state,
        turns=turns,
        capped=capped,
        decisions=tuple(decisions),
    )


@dataclass(frozen=True)
class MatchResult(HeadToHead[GameResult]):
    """A match between levels ``a`` and ``b``, counted from ``a``'s side."""

    a: str
    b: str
    games: tuple[GameResult, ...]
    a_seat: tuple[int, ...]  # a's seat in each game
    times: dict[str, Timing] = field(default_factory=dict)

    @property
    def capped(self) -> int:
        return sum(1 for g in self.games if g.capped)

    def summary(self) -> str:
        """One line of figures, for people."""
        sa, sb = self.average_scores
        parts = [
            f"{self.a} vs {self.b}: {self.tally_line()}, "
            f"scores {sa:.1f}-{sb:.1f}, capped {self.capped}"
        ]
        for name in dict.fromkeys((self.a, self.b)):
            t = self.times.get(name)
            if t is not None:
                parts.append(f"{name}: median {t.median:.1f} ms, p95 {t.p95:.1f} ms")
        return "; ".join(parts)


def match(
    a: Level,
    b: Level,
    games: int,
    seed: int,
    lexicon: Lexicon,
    progress: Callable[[int, int], None] | None = None,
    rules: Rules = PRESETS["official"],
    *,
    lexicon_name: str | None = None,
    max_turns: int = MAX_TURNS,
    budget_ms: float | None = None,
) -> MatchResult:
    """Play ``games`` games (rounded up to even) of ``a`` against ``b``: each deal
    twice, the seats swapped.  ``progress(done, total)`` is called after each
    game."""
    seatings = swapped_seatings(a, b, games, seed)
    played: list[GameResult] = []
    seats: list[int] = []
    times: dict[str, list[float]] = {a.name: [], b.name: []}
    for game_seed, order, a_seat in seatings:
        g = play_game(
            order,
            lexicon,
            game_seed,
            rules,
            lexicon_name=lexicon_name,
            max_turns=max_turns,
            budget_ms=budget_ms,
        )
        played.append(g)
        seats.append(a_seat)
        times[a.name].extend(g.turn_times(a_seat))
        times[b.name].extend(g.turn_times(1 - a_seat))
        if progress is not None:
            progress(len(played), len(seatings))
    return MatchResult(
        a.name,
        b.name,
        tuple(played),
        tuple(seats),
        {name: Timing.of(values) for name, values in times.items()},
    )
