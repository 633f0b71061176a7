"""Checking and scoring a crossword made from a roll (spec readings 1–5 and 9).

:func:`check` runs the checks in the spec's refusal order (bad grid, face not
rolled, cube used twice, not a word, a lone letter, disconnected, colours not
rolled) and scores what passes.

**The colours.**  A letter's colour is the colour of the rolled cube it is laid
with.  Without a colour grid the cubes are laid the way that scores best.  Only
colours matter (two cubes of one colour showing one face are interchangeable),
so the choice is a colour for each lettered square, within each face's
*capacity*: how many rolled cubes of each colour show it.  :func:`best_colours`
solves this exactly by depth-first branch and bound: squares with one possible
colour are fixed first, then the others are tried (most-shared squares first);
each word keeps the set of colours it could still be all of, and a branch is cut
when the points decided plus every open word counted as one colour cannot beat
the best found.  With at most 13 squares, three colours and the capacities, the
search visits a few hundred nodes at most on real rolls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import Refusal
from .cubes import BLANK, COLOUR_NAMES, CUBE_COUNT, CUBES, Colour
from .grid import EMPTY, Cell, Crossword, Run, pieces, runs

ALL_CUBES_BONUS: Final = 10
COLOURS: Final[tuple[Colour, ...]] = ("R", "K", "G")


@dataclass(frozen=True, slots=True)
class ScoredWord:
    run: Run
    one_colour: bool
    points: int


@dataclass(frozen=True, slots=True)
class Scored:
    """A checked crossword's score: its words (across, then down), the colour
    each square was laid with (``colours`` as a grid of the crossword's
    shape; a blank's square is marked with its cube's colour), and the sums."""

    crossword: Crossword
    words: tuple[ScoredWord, ...]
    used: int
    plus: int
    minus: int
    bonus: int

    @property
    def total(self) -> int:
        return self.plus - self.minus + self.bonus


def face_of(ch: str) -> str:
    """The cube face a square's character needs (a lower-case letter: a blank)."""
    return BLANK if ch.islower() else ch


def _where(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def _capacity(roll: str) -> dict[str, dict[Colour, int]]:
    cap: dict[str, dict[Colour, int]] = {}
    for face, cube in zip(roll, CUBES, strict=True):
        per = cap.setdefault(face, {})
        per[cube.colour] = per.get(cube.colour, 0) + 1
    return cap


def _check_faces(cells: dict[Cell, str], roll: str) -> None:
    rolled = Counter(roll)
    for cell, ch in cells.items():
        face = face_of(ch)
        if not rolled[face]:
            if face == BLANK:
                why = f"{ch} at {_where(cell)} is in lower case, a blank, but no blank shows"
            else:
                why = f"{ch} at {_where(cell)} is not showing on any of your cubes"
            raise Refusal("face_not_rolled", f"{why} (your roll: {roll}).")
    used = Counter(face_of(ch) for ch in cells.values())
    for ch in cells.values():
        face = face_of(ch)
        if used[face] > rolled[face]:
            name = "a blank" if face == BLANK else face
            raise Refusal(
                "cube_used_twice",
                f"Your crossword uses {name} {used[face]} times, but only {rolled[face]} of "
                f"your cubes show{'s' if rolled[face] == 1 else ''} it (your roll: {roll}); "
                "each cube can be laid once.",
            )


def _check_words(
    cells: dict[Cell, str], found: Sequence[Run], words: Container[str], younger: bool
) -> None:
    for run in found:
        if run.text not in words:
            raise Refusal(
                "not_a_word",
                f"{run.text} ({run.where()}) is not in the word list: every run of two or more "
                "letters across or down must be a word.",
            )
    in_words = {cell for run in found for cell in run.cells}
    for cell, ch in cells.items():
        if cell not in in_words:
            raise Refusal(
                "lone_letter",
                f"{ch} at {_where(cell)} is in no word: every cube laid must be part of a word.",
            )
    if not younger:
        count = pieces(set(cells))
        if count > 1:
            raise Refusal(
                "disconnected",
                f"The crossword is in {count} separate pieces: all words must be connected in "
                "one crossword.",
            )


def _fixed_colours(
    crossword: Crossword, cells: dict[Cell, str], cap: dict[str, dict[Colour, int]], roll: str
) -> dict[Cell, Colour]:
    """The colours the colour grid names, checked against the roll."""
    assert crossword.colours is not None
    fixed: dict[Cell, Colour] = {}
    asked: Counter[tuple[str, Colour]] = Counter()
    for cell in cells:
        mark = crossword.colours[cell[0]][cell[1]]
        if mark in COLOURS:
            colour: Colour = mark
            fixed[cell] = colour
            asked[(face_of(cells[cell]), colour)] += 1
    for (face, colour), n in asked.items():
        have = cap[face].get(colour, 0)
        if n > have:
            name = "blank" if face == BLANK else face
            raise Refusal(
                "colours_not_rolled",
                f"The colour grid lays {n} {COLOUR_NAMES[colour]} {name}"
                f"{'' if n == 1 else 's'}, but {have} of your {COLOUR_NAMES[colour]} cubes "
                f"show{'s' if have == 1 else ''} {name} (your roll: {roll}).",
            )
    return fixed


def best_colours(
    cells: dict[Cell, str],
    found: Sequence[Run],
    cap: dict[str, dict[Colour, int]],
    fixed: dict[Cell, Colour] | None = None,
) -> dict[Cell, Colour]:
    """The colour of each square that scores the most (see the module's notes).
    The capacities must allow every square a cube (the checks before see to it)."""
    fixed = fixed or {}
    left = {face: dict(per) for face, per in cap.items()}
    for cell, colour in fixed.items():
        left[face_of(cells[cell])][colour] -= 1
    # Only lettered squares have a colour that counts; blanks are laid last.
    lettered = [cell for cell, ch in cells.items() if not ch.islower() and cell not in fixed]
    word_cells = [[cell for cell in run.cells if not cells[cell].islower()] for run in found]
    of_cell: dict[Cell, list[int]] = {cell: [] for cell in cells}
    for w, wc in enumerate(word_cells):
        for cell in wc:
            of_cell[cell].append(w)
    lettered.sort(key=lambda cell: (-len(of_cell[cell]), cell))
    sizes = [len(wc) for wc in word_cells]
    possible: list[set[Colour]] = [set(COLOURS) for _ in word_cells]
    for cell, colour in fixed.items():
        for w in of_cell[cell]:
            possible[w] &= {colour}
    chosen: dict[Cell, Colour] = dict(fixed)
    best: list[tuple[int, dict[Cell, Colour]]] = [(-1, {})]

    def bound() -> int:
        return sum(n * (2 if possible[w] else 1) for w, n in enumerate(sizes))

    def go(i: int) -> None:
        if bound() <= best[0][0]:
            return
        if i == len(lettered):
            best[0] = (bound(), dict(chosen))
            return
        cell = lettered[i]
        face = cells[cell]
        options = [c for c in COLOURS if left[face].get(c, 0) > 0]
        # Try first the colour most of the square's open words could still be.
        options.sort(key=lambda c: -sum(c in possible[w] for w in of_cell[cell]))
        for colour in options:
            left[face][colour] -= 1
            saved = [possible[w] for w in of_cell[cell]]
            for w in of_cell[cell]:
                possible[w] = possible[w] & {colour}
            chosen[cell] = colour
            go(i + 1)
            del chosen[cell]
            for w, was in zip(of_cell[cell], saved, strict=True):
                possible[w] = was
            left[face][colour] += 1

    go(0)
    result = best[0][1]
    for cell, ch in cells.items():  # blanks: any blank cube left
        if ch.islower() and cell not in result:
            colour = next(c for c in COLOURS if left[BLANK].get(c, 0) > 0)
            left[BLANK][colour] -= 1
            result[cell] = colour
    return result


def score_words(
    cells: dict[Cell, str], found: Sequence[Run], colours: dict[Cell, Colour]
) -> list[ScoredWord]:
    """Each word's points: 2 a letter in a one-colour word, 1 in a mixed word,
    0 for a blank (which has no colour)."""
    out = []
    for run in found:
        lettered = [cell for cell in run.cells if not cells[cell].islower()]
        one = len({colours[cell] for cell in lettered}) <= 1
        out.append(ScoredWord(run, one, len(lettered) * (2 if one else 1)))
    return out


def check(crossword: Crossword, roll: str, words: Container[str], younger: bool = False) -> Scored:
    """Check ``crossword`` against ``roll`` and the word list, in the spec's
    refusal order, and score it (the colour grid completed the best way)."""
    cells = crossword.cells
    _check_faces(cells, roll)
    found = runs(crossword.rows)
    _check_words(cells, found, words, younger)
    cap = _capacity(roll)
    fixed = _fixed_colours(crossword, cells, cap, roll) if crossword.colours is not None else {}
    colours = best_colours(cells, found, cap, fixed)
    scored = score_words(cells, found, colours)
    grid = tuple(
        "".join(colours.get((r, c), EMPTY) for c in range(len(row)))
        for r, row in enumerate(crossword.rows)
    )
    used = len(cells)
    return Scored(
        crossword=Crossword(crossword.rows, grid if cells else None),
        words=tuple(scored),
        used=used,
        plus=sum(w.points for w in scored),
        minus=CUBE_COUNT - used,
        bonus=ALL_CUBES_BONUS if used == CUBE_COUNT else 0,
    )
