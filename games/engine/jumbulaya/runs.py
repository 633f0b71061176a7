"""JUMBULAYA: words of 7–9 tiles that run down the board, one tile per line,
from line 1 down, skipping at most two lines; any tile of a line will do,
whatever its position.

:func:`runs_down` verifies one spelling; :func:`search` finds every such word on
a board by walking the lexicon's trie down the nine lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..lexicon import FACE_INDEX, Lexicon
from ..tiles import FACES, JUMBULAYA_MAX, JUMBULAYA_MIN, LINES, Tiles
from .options import Rules
from .state import jumbulaya_points


def runs_down(board: Sequence[Tiles], tiles: Tiles) -> tuple[int, ...] | None:
    """The lines (0-based) a spelling can take its tiles from, top to bottom, or
    ``None``.  Taking each tile from the first line below the previous one that
    holds it finds a way whenever one exists.

    >>> board = [("S",), ("P",), ("A",), ("R",), ("I",), ("N",), ("T",), ("S",), ("X",)]
    >>> runs_down(board, ("S", "P", "R", "I", "N", "T", "S"))
    (0, 1, 3, 4, 5, 6, 7)
    """
    if not JUMBULAYA_MIN <= len(tiles) <= JUMBULAYA_MAX:
        return None
    used = []
    i = 0
    for t in tiles:
        while i < len(board) and t not in board[i]:
            i += 1
        if i == len(board):
            return None
        used.append(i)
        i += 1
    return tuple(used)


@dataclass(frozen=True, slots=True)
class Found:
    """A JUMBULAYA on the board: its spelling, one way down, and its points."""

    tiles: Tiles
    lines: tuple[int, ...]
    points: int

    @property
    def word(self) -> str:
        return "".join(self.tiles)


def best_call(
    board: Sequence[Tiles], candidates: Sequence[Tiles], lexicon: Lexicon, rules: Rules
) -> Found | None:
    """The best-scoring of ``candidates`` (the spellings a call may stand for)
    that is a listed word and runs down the board."""
    best: Found | None = None
    for tiles in candidates:
        if not JUMBULAYA_MIN <= len(tiles) <= JUMBULAYA_MAX or not lexicon.contains(tiles):
            continue
        way = runs_down(board, tiles)
        if way is None:
            continue
        found = Found(tiles, way, jumbulaya_points(tiles, rules))
        if best is None or found.points > best.points:
            best = found
    return best


def search(board: Sequence[Tiles], lexicon: Lexicon, rules: Rules) -> list[Found]:
    """Every spelling of a listed word that runs down ``board``, best first.

    A depth-first walk of the trie: at line ``i`` the walk either takes a tile
    of that line whose face continues some word, or skips the line (at most two
    skips in all).  A trie node reached before line ``i`` is explored once, since
    the node fixes the prefix and so the number of lines skipped so far.
    """
    assert len(board) == LINES
    masks = []
    for line in board:
        m = 0
        for t in line:
            m |= 1 << FACE_INDEX[t]
        masks.append(m)
    trie_mask = lexicon.trie.mask
    trie_first = lexicon.trie.first
    seen: set[int] = set()
    found: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    path: list[int] = []
    lines_used: list[int] = []
    max_skips = LINES - JUMBULAYA_MIN

    def walk(node: int, i: int) -> None:
        state = node * 16 + i
        if state in seen:
            return
        seen.add(state)
        first = trie_first[node]
        if first & 1 and len(path) >= JUMBULAYA_MIN:
            found.append((tuple(path), tuple(lines_used)))
        if i == LINES:
            return
        node_mask = trie_mask[node]
        cand = node_mask & masks[i]
        base = first >> 1
        while cand:
            low = cand & -cand
            cand ^= low
            face = low.bit_length() - 1
            path.append(face)
            lines_used.append(i)
            walk(base + (node_mask & (low - 1)).bit_count(), i + 1)
            path.pop()
            lines_used.pop()
        if i + 1 - len(path) <= max_skips:
            walk(node, i + 1)

    walk(0, 0)
    out = {}
    for faces, used in found:
        tiles = tuple(FACES[f] for f in faces)
        if tiles not in out:
            out[tiles] = Found(tiles, used, jumbulaya_points(tiles, rules))
    return sorted(out.values(), key=lambda f: (-f.points, f.tiles))
