"""The robot levels, weakest first: ``beginner``, ``casual``, ``greedy``, ``strong``.

Each is bound to a word list (a :class:`~..dawg.Dawg`) and answers a
:class:`~.base.Position` with every legal move in hand (:func:`~..movegen.legal_moves`).
Randomness comes only from the ``rng`` passed in; with ``budget_ms=None`` every
level is deterministic given that generator.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from itertools import combinations

from ..dawg import Dawg
from ..layout import VALUES
from ..leave import leave_value
from ..movegen import Move, legal_moves, play
from .base import Answer, Exchange, Pass, Position

#: The longest word a beginner plays (when it has one that short).
BEGINNER_LETTERS = 5
#: Casual picks among this many of its best-scoring moves.
CASUAL_CHOICES = 10
#: With the bag empty and no budget given, ``strong`` looks at the opponent's
#: best reply to this many of its best moves.
ENDGAME_CANDIDATES = 20
#: With fewer tiles than this in the bag, the leave counts for less (fewer
#: draws are left to use it).
FULL_LEAVE_BAG = 7


def rack_after(rack: str, tiles: str) -> str:
    """``rack`` less ``tiles``."""
    for t in tiles:
        rack = rack.replace(t, "", 1)
    return rack


def tile_points(tiles: str) -> int:
    return sum(VALUES[t] for t in tiles)


def fallback(position: Position) -> Answer:
    """No move: exchange the whole rack if the bag allows (as much of it as the
    bag holds), else pass."""
    if position.exchange_allowed and position.rack:
        return Exchange("".join(sorted(position.rack))[: position.bag])
    return Pass()


class _Level(ABC):
    name = ""
    description = ""

    def __init__(self, dawg: Dawg) -> None:
        self.dawg = dawg

    def moves(self, position: Position) -> list[Move]:
        return legal_moves(
            position.board,
            position.rack,
            self.dawg,
            bingo_sizes=position.bingo_sizes,
            bonus=position.bonus_words,
        )

    @abstractmethod
    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        """This seat's answer (``budget_ms``: time to think, None for the level's own)."""

    def __repr__(self) -> str:
        return f"<robot {self.name}>"


class Beginner(_Level):
    name = "beginner"
    description = (
        "Short words (five letters at most when it has one), picked at random "
        "from the lower-scoring half."
    )

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        moves = self.moves(position)
        short = [m for m in moves if len(m.word) <= BEGINNER_LETTERS] or moves
        if not short:
            return fallback(position)
        short.sort(key=lambda m: m.score)
        return rng.choice(short[: (len(short) + 1) // 2])


class Casual(_Level):
    name = "casual"
    description = (
        f"One of its {CASUAL_CHOICES} best-scoring moves, at random; never minds its rack."
    )

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        moves = self.moves(position)
        if not moves:
            return fallback(position)
        moves.sort(key=lambda m: -m.score)
        return rng.choice(moves[:CASUAL_CHOICES])


class Greedy(_Level):
    name = "greedy"
    description = "The move that scores the most now (ties at random)."

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        moves = self.moves(position)
        if not moves:
            return fallback(position)
        top = max(m.score for m in moves)
        return rng.choice([m for m in moves if m.score == top])


class Strong(_Level):
    name = "strong"
    description = (
        "Score plus the value of the tiles it keeps; exchanges when keeping is worth more; "
        "with the bag empty, weighs the opponent's best reply and going out."
    )

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        began = time.perf_counter()
        moves = self.moves(position)
        if position.bag == 0 and len(position.scores) == 2 and moves:
            return self._endgame(position, moves, began, budget_ms)
        weight = min(1.0, position.bag / FULL_LEAVE_BAG)
        rack = position.rack
        best: Answer | None = None
        best_equity = float("-inf")
        for m in moves:
            equity = m.score + weight * leave_value(rack_after(rack, m.tiles))
            if equity > best_equity:
                best, best_equity = m, equity
        if position.exchange_allowed:
            keep, equity = self._best_keep(rack, position.bag)
            if equity > best_equity:
                best, best_equity = Exchange(rack_after(rack, keep)), equity
        return best if best is not None else Pass()

    @staticmethod
    def _best_keep(rack: str, bag: int) -> tuple[str, float]:
        """The tiles to keep when exchanging the rest (at least one exchanged,
        no more than the bag holds), and that leave's value."""
        best = ("", float("-inf"))
        tiles = "".join(sorted(rack))
        for size in range(max(0, len(tiles) - bag), len(tiles)):
            for keep in dict.fromkeys(combinations(tiles, size)):
                value = leave_value("".join(keep))
                if value > best[1]:
                    best = ("".join(keep), value)
        return best

    def _endgame(
        self, position: Position, moves: list[Move], began: float, budget_ms: float | None
    ) -> Answer:
        """The bag is empty, so the unseen tiles are the opponent's rack: each of
        the best-scoring moves is judged by its score less the opponent's best
        reply, and by who goes out (the one who does gains the other's tiles,
        the other loses them)."""
        theirs = position.unseen
        moves.sort(key=lambda m: -m.score)
        best = moves[0]
        best_value = float("-inf")
        for i, m in enumerate(moves):
            if budget_ms is None:
                if i >= ENDGAME_CANDIDATES:
                    break
            elif i and (time.perf_counter() - began) * 1000 > budget_ms:
                break
            mine = rack_after(position.rack, m.tiles)
            value: float
            if not mine:
                value = m.score + 2 * tile_points(theirs)
            else:
                replies = legal_moves(
                    play(position.board, m),
                    theirs,
                    self.dawg,
                    bingo_sizes=position.bingo_sizes,
                    bonus=position.bonus_words,
                )
                reply = max(replies, key=lambda r: r.score, default=None)
                if reply is not None and len(reply.tiles) == len(theirs):
                    value = m.score - reply.score - 2 * tile_points(mine)
                else:
                    # The game goes on: what is left on this rack may still be
                    # played, or may be lost; count half of it.
                    value = m.score - (reply.score if reply else 0) - tile_points(mine) / 2
            if value > best_value:
                best, best_value = m, value
        return best


LEVELS: dict[str, type[_Level]] = {
    level.name: level for level in (Beginner, Casual, Greedy, Strong)
}
