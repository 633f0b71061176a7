"""The Blockers robot levels: ``beginner``, ``greedy`` and ``strong``.

Every level decides from a seat view only (:class:`~..view.SeatView`): its own
rack, the board, the captured tiles and the counts.  Lower scores win, so every
figure here is a cost.

- ``beginner`` plays a legal move at random.
- ``greedy`` plays the move that leaves its own score lowest now (groups plus
  its captures of the colour it took most), at random among equals.
- ``strong`` looks ahead over what the others may hold: it keeps the moves
  that the greedy cost ranks best, then, again and again within its time
  budget, deals every other seat a rack at random from that seat's unseen
  tiles, lets each play in turn as an adversarial greedy player would (its own
  cost first, then the damage to the robot), and scores where that leaves it:
  its own cost, its best follow-up with the tiles it keeps, and room to grow
  (empty squares next to its groups).  The move with the lowest average wins.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..board import NEIGHBOURS, SQUARE_NAMES
from ..events import Passed, TilePlaced
from ..fold import evolve
from ..groups import labels
from ..movegen import Move, legal_moves
from ..state import BlockersState
from ..view import SeatView, guess_state, view_state

#: A level's choice on its own turn (there is at least one legal move): the move,
#: given the view, the state it reads, a generator and a budget in ms (None: its own).
Choose = Callable[[SeatView, BlockersState, random.Random, float | None], str]

#: The strong level's own budget per turn, and how many moves it looks at closely.
STRONG_BUDGET_MS = 40.0
STRONG_CANDIDATES = 8
#: The most samples it takes of what the others hold (with time to spare, the
#: same view always gets the same answer from the same generator).
STRONG_SAMPLES = 12
#: How much an empty square next to one's own groups is worth (a cost: negative).
ROOM_WEIGHT = 0.05
#: How much the best follow-up with the kept tiles counts.
FOLLOW_UP_WEIGHT = 0.5


class Costs:
    """``seat``'s score after each of its own moves, worked out from one
    labelling of its groups: a tile joins the groups it touches into one."""

    def __init__(self, state: BlockersState, seat: int) -> None:
        self.labels, self.groups = labels(state.owners, seat)
        self.captures = state.captures[seat]
        self.most = max(self.captures, default=0)

    def after(self, move: Move) -> int:
        near = {self.labels[n] for n in NEIGHBOURS[move.square]} - {-1}
        most = self.most
        if move.captured is not None:
            most = max(most, self.captures[move.captured] + 1)
        return self.groups + 1 - len(near) + most


def room(state: BlockersState, seat: int) -> set[int]:
    """Empty squares next to ``seat``'s tiles: where its groups can still grow."""
    owners = state.owners
    return {n for i, o in enumerate(owners) if o == seat for n in NEIGHBOURS[i] if owners[n] < 0}


def room_gain(state: BlockersState, near: set[int], square: int) -> int:
    """How much ``near`` (a seat's :func:`room`) grows when that seat takes ``square``."""
    fresh = sum(1 for n in NEIGHBOURS[square] if state.owners[n] < 0 and n not in near)
    return fresh - (square in near)


def _apply(state: BlockersState, seat: int, move: Move) -> BlockersState:
    placed = TilePlaced(seat, move.tile, SQUARE_NAMES[move.square], move.captured, None)
    return evolve(state, placed)


def beginner(view: SeatView, state: BlockersState, rng: random.Random, budget: float | None) -> str:
    assert view.seat is not None
    return rng.choice(legal_moves(state, view.seat)).notation()


def greedy(view: SeatView, state: BlockersState, rng: random.Random, budget: float | None) -> str:
    seat = view.seat
    assert seat is not None
    moves = legal_moves(state, seat)
    costs = Costs(state, seat)
    scored = [costs.after(m) for m in moves]
    low = min(scored)
    return rng.choice([m for m, c in zip(moves, scored, strict=True) if c == low]).notation()


def _reply(state: BlockersState, seat: int, victim: int) -> BlockersState:
    """``seat`` plays greedily, and among its best moves the one that hems
    ``victim`` in most (a careful guess at an opponent); with no move it passes."""
    moves = legal_moves(state, seat)
    if not moves:
        return evolve(state, Passed(seat))
    costs = Costs(state, seat)
    owners = state.owners

    def key(m: Move) -> tuple[int, int]:
        return costs.after(m), -sum(1 for n in NEIGHBOURS[m.square] if owners[n] == victim)

    return _apply(state, seat, min(moves, key=key))


def _moves_for(state: BlockersState, seat: int) -> list[Move]:
    """``seat``'s legal moves as if it were its turn (a look-ahead's own follow-up)."""
    if state.over or state.turn == seat:
        return legal_moves(state, seat)
    return legal_moves(replace(state, turn=seat), seat)


def _value(state: BlockersState, seat: int) -> float:
    """Where a line of play leaves ``seat``: its cost, its best follow-up and its room."""
    costs = Costs(state, seat)
    now = costs.groups + costs.most
    follow = min((costs.after(m) for m in _moves_for(state, seat)), default=now) - now
    return now + FOLLOW_UP_WEIGHT * follow - ROOM_WEIGHT * len(room(state, seat))


def strong(view: SeatView, state: BlockersState, rng: random.Random, budget: float | None) -> str:
    seat = view.seat
    assert seat is not None
    deadline = time.perf_counter() + (STRONG_BUDGET_MS if budget is None else budget) / 1000
    moves = legal_moves(state, seat)
    costs = Costs(state, seat)
    near = room(state, seat)
    ranked = sorted(moves, key=lambda m: (costs.after(m), -room_gain(state, near, m.square)))
    candidates = ranked[:STRONG_CANDIDATES]
    if len(candidates) == 1:
        return candidates[0].notation()
    totals = [0.0] * len(candidates)
    samples = 0
    while samples < STRONG_SAMPLES and (samples == 0 or time.perf_counter() < deadline):
        guess = guess_state(view, rng)
        for i, move in enumerate(candidates):
            line = _apply(guess, seat, move)
            while not line.over and line.turn is not None and line.turn != seat:
                line = _reply(line, line.turn, seat)
            totals[i] += _value(line, seat)
        samples += 1
    best = min(range(len(candidates)), key=lambda i: (totals[i], i))
    return candidates[best].notation()


@dataclass(frozen=True)
class Level:
    """A robot level: its name, a line saying how it plays, and how it chooses."""

    name: str
    description: str
    choose: Choose

    def answer(self, view: SeatView, rng: random.Random, budget_ms: float | None = None) -> str:
        """``wait`` when it is not this seat's turn (or the game is over), ``pass``
        when it has no legal move, else the level's move."""
        if view.status != "playing" or not view.my_turn:
            return "wait"
        state = view_state(view)
        assert view.seat is not None
        if not legal_moves(state, view.seat):
            return "pass"
        return self.choose(view, state, rng, budget_ms)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", "Plays a legal tile at random.", beginner),
        Level("greedy", "Plays the tile that keeps its own score lowest right now.", greedy),
        Level(
            "strong",
            "Looks a round ahead over the tiles the others may hold, within a time budget.",
            strong,
        ),
    )
}
