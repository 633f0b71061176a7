"""A crossword as typed: rows of text, read into a :class:`Crossword`.

An upper-case letter is a lettered face, a lower-case letter a blank standing
for that letter, ``.`` or a space an empty square.  Rows come one a line, or on
one line separated by ``/`` (there ``.`` is the empty square and spaces around
the slashes are ignored).  Ragged rows are padded; empty rows and columns at
the borders are dropped.  An optional colour grid follows ``colours:`` in the
same forms: ``R`` red, ``K`` or ``B`` black, ``G`` green, ``?`` any, one mark
on every letter's square.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from ..errors import Refusal

#: The longest grid text read (a crossword of 13 cubes fits in far less).
MAX_TEXT: Final = 2000
EMPTY: Final = "."
COLOUR_MARKS: Final = {"R": "R", "K": "K", "B": "K", "G": "G", "?": "?"}
_SPLIT = re.compile(r"colou?rs:", re.IGNORECASE)

Cell = tuple[int, int]
Direction = Literal["across", "down"]


@dataclass(frozen=True, slots=True)
class Run:
    """A run of two or more letters across or down; ``text`` in upper case."""

    direction: Direction
    cells: tuple[Cell, ...]
    text: str

    def where(self) -> str:
        r, c = self.cells[0]
        return f"{self.direction}, from row {r + 1}, column {c + 1}"


@dataclass(frozen=True, slots=True)
class Crossword:
    """A read crossword: ``rows`` of equal width (``.`` empty, upper case a face,
    lower case a blank), and the colour grid of the same shape if one was given
    (``.`` empty, ``R``/``K``/``G`` a colour, ``?`` any)."""

    rows: tuple[str, ...]
    colours: tuple[str, ...] | None = None

    @property
    def cells(self) -> dict[Cell, str]:
        """Every lettered square, in reading order."""
        return {
            (r, c): ch for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch != EMPTY
        }

    def text(self) -> str:
        """The one-line form (``.`` for empty squares), which :func:`parse_grid`
        reads back; ``.`` for an empty crossword."""
        out = "/".join(self.rows) or EMPTY
        if self.colours is not None:
            out += " colours: " + "/".join(self.colours)
        return out

    def lines(self) -> list[str]:
        """The multi-line form, for emails."""
        out = list(self.rows) or [EMPTY]
        if self.colours is not None:
            out += ["colours:", *self.colours]
        return out


def _bad(why: str) -> Refusal:
    return Refusal("bad_grid", f"Could not read the crossword: {why}.")


def _rows(text: str, allowed: str, what: str) -> list[str]:
    """The rows of one grid, padded to one width, ``.`` for every empty square."""
    if "\n" in text:
        raw = [line.rstrip() for line in text.splitlines()]
    else:
        raw = [part.strip() for part in text.split("/")]
    rows = []
    for i, row in enumerate(raw):
        for ch in row:
            if ch not in allowed:
                raise _bad(f"row {i + 1} of the {what} has {ch!r}; {_ALLOWED_WORDS[what]}")
        rows.append(row.replace(" ", EMPTY))
    width = max((len(r) for r in rows), default=0)
    return [r.ljust(width, EMPTY) for r in rows]


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz. "
_MARKS = "RKBGrkbg?. "
_ALLOWED_WORDS = {
    "crossword": "write letters, '.' for an empty square (lower case for a blank)",
    "colour grid": "write R (red), K or B (black), G (green) or ? on each letter's square",
}


def _trim(rows: list[str]) -> tuple[str, ...]:
    """Drop empty rows and columns at the borders."""
    kept = [r for r in rows]
    while kept and set(kept[0]) <= {EMPTY}:
        kept.pop(0)
    while kept and set(kept[-1]) <= {EMPTY}:
        kept.pop()
    if not kept:
        return ()
    used = [c for c in range(len(kept[0])) if any(r[c] != EMPTY for r in kept)]
    return tuple(r[used[0] : used[-1] + 1] for r in kept)


def parse_grid(text: str) -> Crossword:
    """Read a typed crossword (see the module's notes); ``bad_grid`` if it cannot be."""
    if len(text) > MAX_TEXT:
        raise _bad(f"it is {len(text)} characters long; at most {MAX_TEXT} are read")
    parts = _SPLIT.split(text)
    if len(parts) > 2:
        raise _bad("'colours:' may appear only once")
    rows = _trim(_rows(parts[0].strip("\n"), _LETTERS, "crossword"))
    if len(parts) == 1:
        return Crossword(rows)
    marks = _trim(_rows(parts[1].strip("\n"), _MARKS, "colour grid"))
    colours = tuple("".join(COLOUR_MARKS.get(ch.upper(), EMPTY) for ch in row) for row in marks)
    if (len(colours), len(colours[0]) if colours else 0) != (
        len(rows),
        len(rows[0]) if rows else 0,
    ):
        raise _bad("the colour grid must have the crossword's shape, one mark on each letter")
    for r, (row, mark_row) in enumerate(zip(rows, colours, strict=True)):
        for c, (ch, mark) in enumerate(zip(row, mark_row, strict=True)):
            if (ch == EMPTY) != (mark == EMPTY):
                what = (
                    "has a letter but no colour" if mark == EMPTY else "has a colour but no letter"
                )
                raise _bad(f"row {r + 1}, column {c + 1} {what}")
    return Crossword(rows, colours)


def runs(rows: tuple[str, ...]) -> list[Run]:
    """Every run of two or more letters: across in reading order, then down
    in the reading order of their first squares."""
    found: list[Run] = []
    height = len(rows)
    width = len(rows[0]) if rows else 0
    for r in range(height):
        c = 0
        while c < width:
            if rows[r][c] == EMPTY:
                c += 1
                continue
            start = c
            while c < width and rows[r][c] != EMPTY:
                c += 1
            if c - start >= 2:
                cells = tuple((r, k) for k in range(start, c))
                found.append(Run("across", cells, rows[r][start:c].upper()))
    down: list[Run] = []
    for c in range(width):
        r = 0
        while r < height:
            if rows[r][c] == EMPTY:
                r += 1
                continue
            start = r
            while r < height and rows[r][c] != EMPTY:
                r += 1
            if r - start >= 2:
                cells = tuple((k, c) for k in range(start, r))
                down.append(
                    Run("down", cells, "".join(rows[k][c] for k in range(start, r)).upper())
                )
    down.sort(key=lambda run: run.cells[0])
    return found + down


def pieces(cells: set[Cell]) -> int:
    """How many orthogonally connected pieces ``cells`` make."""
    left = set(cells)
    count = 0
    while left:
        count += 1
        stack = [left.pop()]
        while stack:
            r, c = stack.pop()
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if n in left:
                    left.remove(n)
                    stack.append(n)
    return count


def grid_from_cells(cells: dict[Cell, str]) -> Crossword:
    """The crossword holding ``cells`` (any coordinates), trimmed to its box."""
    if not cells:
        return Crossword(())
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    r1 = max(r for r, _ in cells)
    c1 = max(c for _, c in cells)
    rows = []
    for r in range(r0, r1 + 1):
        rows.append("".join(cells.get((r, c), EMPTY) for c in range(c0, c1 + 1)))
    return Crossword(tuple(rows))
