"""A brute-force move generator for the crossword game, the reference the fast
one is checked against.

It shares nothing with :mod:`games.engine.crossword.movegen` but the board's
premium tables: it tries every span of every line, every way of filling the
span's empty squares with rack tiles (every letter for a blank), and checks and
scores what it made word by word, the way the rule sheet counts a turn.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import permutations

from games.engine.crossword.layout import (
    CENTRE,
    COLUMNS,
    LETTER_MULTIPLIER,
    SIZE,
    VALUES,
    WORD_MULTIPLIER,
)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _value(ch: str) -> int:
    return 0 if ch.islower() else VALUES[ch]


def _fillings(rack: str, count: int) -> set[tuple[str, ...]]:
    """Every sequence of ``count`` tiles from ``rack``, a blank as each lower-case letter."""
    out: set[tuple[str, ...]] = set()
    for combo in set(permutations(rack, count)):
        partial: list[tuple[str, ...]] = [()]
        for t in combo:
            choices = LETTERS.lower() if t == "?" else t
            partial = [(*p, c) for p in partial for c in choices]
        out.update(partial)
    return out


def _run(
    grid: dict[tuple[int, int], str], r: int, c: int, dr: int, dc: int
) -> list[tuple[int, int]]:
    """The squares of the run of tiles through (r, c) along (dr, dc)."""
    while (r - dr, c - dc) in grid:
        r, c = r - dr, c - dc
    out = []
    while (r, c) in grid:
        out.append((r, c))
        r, c = r + dr, c + dc
    return out


def _score(
    grid: dict[tuple[int, int], str], squares: list[tuple[int, int]], new: set[tuple[int, int]]
) -> int:
    total = 0
    mult = 1
    for sq in squares:
        lm = LETTER_MULTIPLIER[sq[0]][sq[1]] if sq in new else 1
        total += _value(grid[sq]) * lm
        if sq in new:
            mult *= WORD_MULTIPLIER[sq[0]][sq[1]]
    return total * mult


def brute_moves(
    board: tuple[str, ...],
    rack: str,
    words: Collection[str],
    bingo_sizes: Collection[int] = (7,),
    bonus: Mapping[str, int] | None = None,
) -> set[tuple[str, str, int]]:
    """Every legal move as ``(notation, sorted tiles, score)``."""
    bonus = bonus or {}
    longest = max(map(len, words))
    tiles_on = {(r, c): ch for r in range(SIZE) for c in range(SIZE) if (ch := board[r][c]) != "."}
    found: dict[
        frozenset[tuple[tuple[int, int], str]], list[tuple[bool, int, int, str, str, int]]
    ] = {}
    for across in (True, False):
        dr, dc = (0, 1) if across else (1, 0)
        for line in range(SIZE):
            for s in range(SIZE):
                for e in range(s + 1, min(SIZE, s + longest)):
                    span = [(line, i) if across else (i, line) for i in range(s, e + 1)]
                    before = (span[0][0] - dr, span[0][1] - dc)
                    after = (span[-1][0] + dr, span[-1][1] + dc)
                    if before in tiles_on or after in tiles_on:
                        continue
                    empties = [sq for sq in span if sq not in tiles_on]
                    if not 1 <= len(empties) <= len(rack):
                        continue
                    for fill in _fillings(rack, len(empties)):
                        _consider(
                            tiles_on, span, empties, fill, across, words, bingo_sizes, bonus, found
                        )
    out: set[tuple[str, str, int]] = set()
    for options in found.values():
        # A single tile: once, in the direction of its longer word (across on a tie).
        options.sort(key=lambda o: (-len(o[3]), not o[0]))
        across, r, c, word, tiles, score = options[0]
        square = f"{r + 1}{COLUMNS[c]}" if across else f"{COLUMNS[c]}{r + 1}"
        out.add((f"{square} {word}", tiles, score))
    return out


def _consider(
    tiles_on: dict[tuple[int, int], str],
    span: list[tuple[int, int]],
    empties: list[tuple[int, int]],
    fill: tuple[str, ...],
    across: bool,
    words: Collection[str],
    bingo_sizes: Collection[int],
    bonus: Mapping[str, int],
    found: dict[frozenset[tuple[tuple[int, int], str]], list[tuple[bool, int, int, str, str, int]]],
) -> None:
    grid = dict(tiles_on)
    grid.update(zip(empties, fill, strict=True))
    word = "".join(grid[sq] for sq in span)
    if word.upper() not in words:
        return
    new = set(empties)
    if tiles_on:
        touches = any(sq in tiles_on for sq in span) or any(
            (r + dr, c + dc) in tiles_on
            for r, c in empties
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        if not touches:
            return
    elif CENTRE not in span:
        return
    score = _score(grid, span, new) + bonus.get(word.upper(), 0)
    pr, pc = (1, 0) if across else (0, 1)
    for r, c in empties:
        cross = _run(grid, r, c, pr, pc)
        if len(cross) < 2:
            continue
        cross_word = "".join(grid[sq] for sq in cross).upper()
        if cross_word not in words:
            return
        score += _score(grid, cross, {(r, c)}) + bonus.get(cross_word, 0)
    if len(empties) in bingo_sizes:
        score += 50
    used = "".join(sorted("?" if ch.islower() else ch for ch in fill))
    key = frozenset((sq, ch) for sq, ch in zip(empties, fill, strict=True))
    found.setdefault(key, []).append((across, *span[0], word, used, score))
