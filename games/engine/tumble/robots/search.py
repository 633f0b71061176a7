"""The robots' crossword search: words from the faces, grown into a crossword.

The first words are every word the roll spells, scored exactly on their own
(a word is one colour when one colour's cubes show all its lettered faces).
A crossword grows by laying a word across or down through one of its letters:
the word's other letters must be faces still unused, the squares before and
after it empty, and every run it makes across the other way a listed word.
Beam search keeps the ``width`` best crosswords of each size (scored exactly,
the colours laid the best way), from each taking the ``per_node`` children
that look best by a cheap estimate (letters placed and words made), until no
crossword grows or the time budget is spent; the best crossword seen wins.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Container
from dataclasses import dataclass

from ..cubes import BLANK, CUBE_COUNT, CUBES, Colour
from ..grid import Cell, grid_from_cells, runs
from ..score import ALL_CUBES_BONUS, COLOURS, best_colours, score_words
from .words import WordIndex

Cells = dict[Cell, str]


@dataclass(frozen=True, slots=True)
class Found:
    """A crossword the search found, and its exact score."""

    cells: tuple[tuple[Cell, str], ...]
    score: int

    @property
    def text(self) -> str:
        return grid_from_cells(dict(self.cells)).text()


def _capacity(roll: str) -> dict[str, dict[Colour, int]]:
    cap: dict[str, dict[Colour, int]] = {}
    for face, cube in zip(roll, CUBES, strict=True):
        per = cap.setdefault(face, {})
        per[cube.colour] = per.get(cube.colour, 0) + 1
    return cap


def exact_score(cells: Cells, cap: dict[str, dict[Colour, int]]) -> int:
    """What a valid crossword scores, its colours laid the best way."""
    rows = grid_from_cells(cells).rows
    shifted = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
    found = runs(rows)
    colours = best_colours(shifted, found, cap)
    plus = sum(w.points for w in score_words(shifted, found, colours))
    used = len(cells)
    return plus - (CUBE_COUNT - used) + (ALL_CUBES_BONUS if used == CUBE_COUNT else 0)


def word_score(word: str, blank: str | None, cap: dict[str, dict[Colour, int]]) -> int:
    """A crossword of this one word: exact (its blank, if any, on ``blank``'s
    first occurrence)."""
    letters = Counter(word)
    if blank is not None:
        letters[blank] -= 1
    n = sum(letters.values())
    one = any(
        all(cap.get(ch, {}).get(c, 0) >= k for ch, k in letters.items() if k) for c in COLOURS
    )
    used = len(word)
    plus = n * (2 if one else 1)
    return plus - (CUBE_COUNT - used) + (ALL_CUBES_BONUS if used == CUBE_COUNT else 0)


def _single(word: str, blank: str | None) -> Cells:
    out: Cells = {}
    marked = blank is None
    for i, ch in enumerate(word):
        if not marked and ch == blank:
            out[(0, i)] = ch.lower()
            marked = True
        else:
            out[(0, i)] = ch
    return out


class Search:
    """One roll's search state: the faces, the index and the word list."""

    def __init__(self, roll: str, index: WordIndex, words: Container[str]) -> None:
        self.roll = roll
        self.index = index
        self.words = words
        self.cap = _capacity(roll)
        self.faces = Counter(roll)

    def first_words(self) -> list[Found]:
        """Every one-word crossword, best first."""
        found = []
        for word, blank in self.index.spellable(self.roll):
            cells = _single(word, blank)
            found.append(Found(tuple(cells.items()), word_score(word, blank, self.cap)))
        found.sort(key=lambda f: -f.score)
        return found

    def _remaining(self, cells: Cells) -> Counter[str]:
        left = Counter(self.faces)
        for ch in cells.values():
            left[BLANK if ch.islower() else ch] -= 1
        return left

    def _perpendicular(self, cells: Cells, cell: Cell, ch: str, across: bool) -> str | None:
        """The run the other way through a new square (``""`` if none); ``None``
        when it is not a word."""
        r, c = cell
        dr, dc = (1, 0) if across else (0, 1)
        before = []
        rr, cc = r - dr, c - dc
        while (rr, cc) in cells:
            before.append(cells[(rr, cc)])
            rr, cc = rr - dr, cc - dc
        after = []
        rr, cc = r + dr, c + dc
        while (rr, cc) in cells:
            after.append(cells[(rr, cc)])
            rr, cc = rr + dr, cc + dc
        if not before and not after:
            return ""
        run = ("".join(reversed(before)) + ch + "".join(after)).upper()
        return run if run in self.words else None

    def children(self, cells: Cells) -> list[tuple[int, Cells]]:
        """Every crossword one word larger, with its cheap estimate."""
        left = self._remaining(cells)
        faces = "".join(left.elements())
        out: list[tuple[int, Cells]] = []
        seen: set[tuple[str, Cell, bool]] = set()
        for (r, c), here in cells.items():
            letter = here.upper()
            for word, blank in self.index.spellable(faces, letter):
                for i, ch in enumerate(word):
                    if ch != letter:
                        continue
                    for across in (True, False):
                        dr, dc = (0, 1) if across else (1, 0)
                        start = (r - dr * i, c - dc * i)
                        if (word, start, across) in seen:
                            continue
                        seen.add((word, start, across))
                        child = self._lay(cells, left, word, blank, start, across)
                        if child is not None:
                            out.append(child)
        return out

    def _lay(
        self,
        cells: Cells,
        left: Counter[str],
        word: str,
        blank: str | None,
        start: Cell,
        across: bool,
    ) -> tuple[int, Cells] | None:
        dr, dc = (0, 1) if across else (1, 0)
        r0, c0 = start
        if (r0 - dr, c0 - dc) in cells or (r0 + dr * len(word), c0 + dc * len(word)) in cells:
            return None
        new: list[tuple[Cell, str]] = []
        need: Counter[str] = Counter()
        blank_used = blank is None
        for k, ch in enumerate(word):
            cell = (r0 + dr * k, c0 + dc * k)
            held = cells.get(cell)
            if held is not None:
                if held.upper() != ch:
                    return None
                continue
            if not blank_used and ch == blank:
                new.append((cell, ch.lower()))
                need[BLANK] += 1
                blank_used = True
            else:
                new.append((cell, ch))
                need[ch] += 1
        if not new or not blank_used:
            return None
        if any(left[face] < k for face, k in need.items()):
            return None
        grown = dict(cells)
        grown.update(new)
        estimate = len(word) + len(new)
        for cell, ch in new:
            run = self._perpendicular(grown, cell, ch, across)
            if run is None:
                return None
            estimate += len(run)
        return estimate, grown

    def run(
        self, width: int, per_node: int, deadline: float | None, first: int | None = None
    ) -> Found | None:
        """The best crossword found (``None``: the roll spells no word)."""
        starts = self.first_words()
        if not starts:
            return None
        best = starts[0]
        beam = [dict(f.cells) for f in starts[: first or width]]
        while beam:
            grown: dict[tuple[str, ...], tuple[int, Cells]] = {}
            for cells in beam:
                if deadline is not None and time.perf_counter() > deadline:
                    return best
                kids = self.children(cells)
                kids.sort(key=lambda k: -k[0])
                for _, child in kids[:per_node]:
                    key = grid_from_cells(child).rows
                    if key not in grown:
                        grown[key] = (exact_score(child, self.cap), child)
            ranked = sorted(grown.values(), key=lambda g: -g[0])[:width]
            if ranked and ranked[0][0] > best.score:
                best = Found(tuple(ranked[0][1].items()), ranked[0][0])
            beam = [cells for _, cells in ranked]
        return best
