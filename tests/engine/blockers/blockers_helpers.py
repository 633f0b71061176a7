"""Hand-built Blockers positions for the tests.

A board is drawn as nine rows of nine characters, row A first: ``.`` is an empty
square and a digit is a tile of that seat.  The faces of drawn tiles are the
wild (it fits every square, and faces play no part in groups or captures).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from games.engine.blockers import BlockersState, Options, deal, start
from games.engine.blockers.board import SQUARES, TILE_SET

EMPTY = ["." * 9] * 9


def position(
    rows: Sequence[str] = EMPTY,
    racks: Sequence[Sequence[str]] = (("1", "2", "3", "4", "5"),) * 3,
    turn: int = 0,
    turns_taken: Sequence[int] | None = None,
    captures: Sequence[Sequence[int]] | None = None,
    piles: Sequence[Sequence[str]] | None = None,
) -> BlockersState:
    """A state with the board ``rows``, the ``racks`` (one per seat), ``turn`` to move."""
    assert len(rows) == 9 and all(len(r) == 9 for r in rows)
    cells = "".join(rows)
    owners = tuple(-1 if c == "." else int(c) for c in cells)
    faces = tuple("" if c == "." else "*" for c in cells)
    n = len(racks)
    caps = tuple(tuple(c) for c in captures) if captures else ((0,) * n,) * n
    taken = tuple(
        tuple(("*", colour) for colour, k in enumerate(row) for _ in range(k)) for row in caps
    )
    state = start(deal([f"p{i}" for i in range(n)], Options(), random.Random(0), first=turn))
    assert len(owners) == SQUARES
    return replace(
        state,
        owners=owners,
        faces=faces,
        racks=tuple(tuple(r) for r in racks),
        piles=tuple(tuple(p) for p in piles) if piles else ((),) * n,
        captures=caps,
        taken=taken,
        turns_taken=tuple(turns_taken) if turns_taken else (0,) * n,
    )


def full_pile(front: Sequence[str]) -> list[str]:
    """A colour's 28 tiles with ``front`` first, the rest in the set's order."""
    rest = list(TILE_SET)
    for t in front:
        rest.remove(t)
    return [*front, *rest]
