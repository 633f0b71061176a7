"""What a crossword robot is given and what it answers.

A robot decides from a :class:`Position`: plain data a seat may see (the board,
its own rack, how many tiles the bag holds, the tiles it cannot see, the
scores, the variant's rack size, bingo sizes and bonus words).  It never holds
another seat's rack or the bag's order.  Its answer is a
:class:`~..movegen.Move`, an :class:`Exchange` or a :class:`Pass`; each has the
``notation`` the spec writes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from ..layout import BLANK, DISTRIBUTION, RACK_SIZE
from ..movegen import STANDARD_BINGO, Board, Move, check_board, check_rack

#: Exchanges need at least this many tiles in the bag (reading 6).
EXCHANGE_MIN_BAG = 7


class Exchange(NamedTuple):
    """Exchange ``tiles`` (``?`` names a blank)."""

    tiles: str

    @property
    def notation(self) -> str:
        return f"exchange {self.tiles}"


class Pass(NamedTuple):
    @property
    def notation(self) -> str:
        return "pass"


Answer = Move | Exchange | Pass


def full_set() -> Counter[str]:
    """The 100 tiles, by face."""
    return Counter(DISTRIBUTION)


def unseen_tiles(board: Board, rack: str) -> str:
    """The tiles a seat cannot see: the full set less the board (a lower-case
    letter is a blank) and its own rack, sorted."""
    left = full_set()
    for row in board:
        for ch in row:
            if ch != ".":
                left[BLANK if ch.islower() else ch] -= 1
    left.subtract(rack)
    if any(n < 0 for n in left.values()):
        raise ValueError("the board and the rack hold more tiles than the set has")
    return "".join(sorted(left.elements()))


@dataclass(frozen=True, slots=True)
class Position:
    """A seat's view of the game, as plain data."""

    board: Board
    rack: str
    bag: int  # tiles left in the bag
    unseen: str  # the full set less the board and this rack: the bag and the other racks
    scores: tuple[int, ...]
    seat: int
    rack_size: int = RACK_SIZE
    bingo_sizes: frozenset[int] = STANDARD_BINGO
    bonus: tuple[tuple[str, int], ...] = ()  # (word, points), the rules' bonus words

    def __post_init__(self) -> None:
        check_board(self.board)
        check_rack(self.rack)
        if not 0 <= self.seat < len(self.scores):
            raise ValueError(f"seat {self.seat} is not one of {len(self.scores)} seats")
        if not 0 <= self.bag <= len(self.unseen):
            raise ValueError("the bag holds more tiles than are unseen")

    @classmethod
    def of(
        cls,
        board: Board,
        rack: str,
        bag: int,
        scores: tuple[int, ...],
        seat: int,
        *,
        rack_size: int = RACK_SIZE,
        bingo_sizes: frozenset[int] = STANDARD_BINGO,
        bonus: Mapping[str, int] | None = None,
    ) -> Position:
        """A position whose unseen tiles are worked out from the board and rack."""
        return cls(
            board,
            rack,
            bag,
            unseen_tiles(board, rack),
            scores,
            seat,
            rack_size,
            bingo_sizes,
            tuple(sorted((bonus or {}).items())),
        )

    @property
    def exchange_allowed(self) -> bool:
        return self.bag >= EXCHANGE_MIN_BAG

    @property
    def bonus_words(self) -> Mapping[str, int]:
        return dict(self.bonus)


class Robot(Protocol):
    """A robot level, bound to its word list."""

    name: str

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        """This seat's answer (``budget_ms``: time to think, None for the level's own)."""
        ...
