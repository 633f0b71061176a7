"""Robot self-play for the crossword game: one game (:func:`play_game`) and a
match of many (:func:`match`), each deal played twice with the seats swapped.

The game loop is a minimal one of its own, enough for matches: the standard
draw, scoring (the move's score as :func:`~..movegen.legal_moves` counts it),
exchanges (reading 6: the new tiles from the front of the bag, the returned ones
to its back), and the end (reading 7: a play that empties the mover's rack with
the bag empty, or six scoreless turns in a row; each loses its own unplayed
letters and the player who went out gains the others').  Each robot is given
only its seat's :class:`~.base.Position`.  Nothing here prints: the caller
passes a ``progress`` callback.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...common.matches import HeadToHead, swapped_seatings, two_seat_result
from ..layout import RACK_SIZE, VALUES
from ..movegen import EMPTY_BOARD, STANDARD_BINGO, Board, Move, placements, play
from .base import EXCHANGE_MIN_BAG, Answer, Exchange, Pass, Position, Robot, full_set

#: Scoreless turns in a row that end the game (passes, exchanges, 0-point plays).
SCORELESS_END = 6
#: Turns after which a game is stopped and counted as a draw.
MAX_TURNS = 200


class RobotError(AssertionError):
    """A robot answered something the game cannot apply (a bug in the robot)."""


@dataclass(frozen=True)
class GameResult:
    seed: int
    levels: tuple[str, ...]
    scores: tuple[int, ...]  # final, after the unplayed letters
    before: tuple[int, ...]  # before the unplayed letters
    turns: int
    capped: bool
    turn_ms: tuple[tuple[float, ...], ...]  # per seat, each of its turns
    moves: tuple[str, ...]  # every answer's notation, in order

    @property
    def winners(self) -> list[int]:
        """The highest final score; a tie goes to the higher score before the
        unplayed letters; still tied, all of them win.  A capped game: everyone."""
        seats = range(len(self.scores))
        if self.capped:
            return list(seats)
        top = max(self.scores)
        tied = [s for s in seats if self.scores[s] == top]
        best = max(self.before[s] for s in tied)
        return [s for s in tied if self.before[s] == best]

    def result(self, seat: int) -> float:
        """1 for a sole win, 0.5 for a shared one, else 0."""
        return two_seat_result(self.winners, seat)


def _bag(seed: int) -> list[str]:
    tiles = list(full_set().elements())
    random.Random(f"bag:{seed}").shuffle(tiles)
    return tiles


def play_game(
    robots: Sequence[Robot],
    seed: int,
    *,
    rack_size: int = RACK_SIZE,
    bingo_sizes: frozenset[int] = STANDARD_BINGO,
    bonus: Mapping[str, int] | None = None,
    budget_ms: float | None = None,
    max_turns: int = MAX_TURNS,
) -> GameResult:
    """One game, seat 0 first.  The bag's order depends on ``seed`` only, so the
    same seed with the robots in another order deals the same tiles to the seats."""
    bag = _bag(seed)
    seats = len(robots)
    racks = [bag[i * rack_size : (i + 1) * rack_size] for i in range(seats)]
    del bag[: seats * rack_size]
    rngs = [random.Random(f"robot:{seed}:{i}") for i in range(seats)]
    bonus_pairs = tuple(sorted((bonus or {}).items()))
    board: Board = EMPTY_BOARD
    scores = [0] * seats
    times: list[list[float]] = [[] for _ in range(seats)]
    played: list[str] = []
    scoreless = 0
    turn = 0
    out: int | None = None
    while turn < max_turns:
        seat = turn % seats
        rack = "".join(racks[seat])
        seen = Counter(rack)
        for row in board:
            seen.update("?" if ch.islower() else ch for ch in row if ch != ".")
        position = Position(
            board,
            rack,
            len(bag),
            "".join(sorted((full_set() - seen).elements())),
            tuple(scores),
            seat,
            rack_size,
            bingo_sizes,
            bonus_pairs,
        )
        t0 = time.perf_counter()
        answer = robots[seat].choose(position, rngs[seat], budget_ms)
        times[seat].append((time.perf_counter() - t0) * 1000)
        played.append(answer.notation)
        turn += 1
        board, gained = _apply(board, racks[seat], bag, answer, robots[seat].name, rack_size)
        scores[seat] += gained
        scoreless = 0 if gained else scoreless + 1
        if not racks[seat] and not bag:
            out = seat
            break
        if scoreless >= SCORELESS_END:
            break
    capped = out is None and scoreless < SCORELESS_END
    before = tuple(scores)
    left = [sum(VALUES[t] for t in r) for r in racks]
    final = [s - n for s, n in zip(scores, left, strict=True)]
    if out is not None:
        final[out] += sum(left)
    return GameResult(
        seed,
        tuple(r.name for r in robots),
        tuple(final),
        before,
        turn,
        capped,
        tuple(tuple(t) for t in times),
        tuple(played),
    )


def _apply(
    board: Board, rack: list[str], bag: list[str], answer: Answer, name: str, rack_size: int
) -> tuple[Board, int]:
    """Apply ``answer`` to ``board``, the mover's ``rack`` and the ``bag`` (both
    changed in place): the new board and the points gained."""
    if isinstance(answer, Move):
        for *_, ch in placements(board, answer):
            tile = "?" if ch.islower() else ch
            if tile not in rack:
                raise RobotError(f"{name} played {answer.notation} without a {tile} on {rack}")
            rack.remove(tile)
        board = play(board, answer)
        gained = answer.score
    elif isinstance(answer, Exchange):
        if len(bag) < EXCHANGE_MIN_BAG or len(answer.tiles) > len(bag) or not answer.tiles:
            raise RobotError(f"{name} exchanged {answer.tiles!r} with {len(bag)} in the bag")
        for t in answer.tiles:
            if t not in rack:
                raise RobotError(f"{name} exchanged a {t} it does not hold ({rack})")
            rack.remove(t)
        rack.extend(bag[: len(answer.tiles)])
        del bag[: len(answer.tiles)]
        bag.extend(answer.tiles)
        return board, 0
    elif isinstance(answer, Pass):
        return board, 0
    else:
        raise RobotError(f"{name} answered {answer!r}")
    draw = min(len(bag), rack_size - len(rack))
    rack.extend(bag[:draw])
    del bag[:draw]
    return board, gained


@dataclass(frozen=True)
class MatchResult(HeadToHead[GameResult]):
    """A match between robots ``a`` and ``b``, counted from ``a``'s side."""

    a: str
    b: str
    games: tuple[GameResult, ...]
    a_seat: tuple[int, ...]  # a's seat in each game

    @property
    def spreads(self) -> list[int]:
        """A's final score less B's, game by game."""
        return [g.scores[s] - g.scores[1 - s] for g, s in zip(self.games, self.a_seat, strict=True)]

    def turn_ms(self, side: str) -> list[float]:
        """Every turn's decision time of ``a`` or ``b``."""
        return [
            ms
            for g, s in zip(self.games, self.a_seat, strict=True)
            for ms in g.turn_ms[s if side == "a" else 1 - s]
        ]

    def summary(self) -> str:
        """One line of figures, for people."""
        sa, sb = self.average_scores
        return f"{self.a} vs {self.b}: {self.tally_line()}, average scores {sa:.1f}-{sb:.1f}"


def match(
    a: Robot,
    b: Robot,
    games: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    *,
    rack_size: int = RACK_SIZE,
    bingo_sizes: frozenset[int] = STANDARD_BINGO,
    bonus: Mapping[str, int] | None = None,
    budget_ms: float | None = None,
) -> MatchResult:
    """``games`` games (rounded up to even) of ``a`` against ``b``: each deal
    twice, the seats swapped.  ``progress(done, total)`` after each game."""
    seatings = swapped_seatings(a, b, games, seed)
    played: list[GameResult] = []
    seats: list[int] = []
    for game_seed, order, a_seat in seatings:
        played.append(
            play_game(
                order,
                game_seed,
                rack_size=rack_size,
                bingo_sizes=bingo_sizes,
                bonus=bonus,
                budget_ms=budget_ms,
            )
        )
        seats.append(a_seat)
        if progress is not None:
            progress(len(played), len(seatings))
    return MatchResult(a.name, b.name, tuple(played), tuple(seats))
