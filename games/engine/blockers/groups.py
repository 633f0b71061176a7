"""Groups and the split test, on a board given as each square's owner (-1: empty).

A group is a set of one seat's tiles connected orthogonally (reading 5).  A
capture must not split the captured tile's group (reading 4): the group with
that tile removed must still be one connected group, or nothing.  Counting the
tile's neighbours is not enough (a ring or a 2×2 block has tiles with two
neighbours that may still be taken), so the test walks the group.

>>> board = [-1] * 81
>>> for i in (0, 1, 2):  # A1 A2 A3: a line of three
...     board[i] = 0
>>> splits(board, 1), splits(board, 0), group_count(board, 0)
(True, False, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import NEIGHBOURS, SQUARES

Owners = Sequence[int]


def splits(owners: Owners, index: int) -> bool:
    """Whether removing the tile on ``index`` leaves its group in more than one piece."""
    seat = owners[index]
    same = [n for n in NEIGHBOURS[index] if owners[n] == seat]
    if len(same) < 2:
        return False  # a lone tile or an end: what is left stays one group
    targets = set(same[1:])
    seen = {index, same[0]}
    stack = [same[0]]
    while stack:
        square = stack.pop()
        for n in NEIGHBOURS[square]:
            if n not in seen and owners[n] == seat:
                if n in targets:
                    targets.discard(n)
                    if not targets:
                        return False
                seen.add(n)
                stack.append(n)
    return True


def labels(owners: Owners, seat: int) -> tuple[list[int], int]:
    """Each square's group number for ``seat`` (-1 for a square not its own), and
    how many groups ``seat`` has: a robot weighs many moves on one labelling."""
    out = [-1] * SQUARES
    count = 0
    for start in range(SQUARES):
        if owners[start] != seat or out[start] >= 0:
            continue
        out[start] = count
        stack = [start]
        while stack:
            square = stack.pop()
            for n in NEIGHBOURS[square]:
                if out[n] < 0 and owners[n] == seat:
                    out[n] = count
                    stack.append(n)
        count += 1
    return out, count


def group_count(owners: Owners, seat: int) -> int:
    """How many groups ``seat`` has on the board (0 with no tiles there)."""
    return labels(owners, seat)[1]


def group_counts(owners: Owners, seats: int) -> list[int]:
    """Every seat's group count, in one pass over the board."""
    seen = [False] * SQUARES
    counts = [0] * seats
    for start in range(SQUARES):
        seat = owners[start]
        if seat < 0 or seen[start]:
            continue
        counts[seat] += 1
        seen[start] = True
        stack = [start]
        while stack:
            square = stack.pop()
            for n in NEIGHBOURS[square]:
                if not seen[n] and owners[n] == seat:
                    seen[n] = True
                    stack.append(n)
    return counts
