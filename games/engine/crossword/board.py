"""The board as one flat string, and the tables the hot paths index.

A board is a string of 225 characters, row by row from the top left: ``.`` an
empty square, ``A``–``Z`` a natural tile, ``a``–``z`` a blank standing for that
letter.  Square ``i`` is row ``i // 15``, column ``i % 15``.  Strings are
immutable and index fast, so validating a move allocates next to nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .layout import BLANK, CENTRE, LETTER_MULTIPLIER, SIZE, VALUES, WORD_MULTIPLIER, square_name
from .notation import Play

EMPTY: Final = "."
SQUARES: Final = SIZE * SIZE
EMPTY_BOARD: Final = EMPTY * SQUARES
CENTRE_SQUARE: Final = CENTRE[0] * SIZE + CENTRE[1]

#: Flat tables by square index.
LM: Final = tuple(m for row in LETTER_MULTIPLIER for m in row)
WM: Final = tuple(m for row in WORD_MULTIPLIER for m in row)

#: What a letter on the board (or in a word written in the notation) is worth:
#: an upper-case letter its value, a lower-case one (a blank) nothing.
VALUE_OF: Final[dict[str, int]] = {
    **{c: v for c, v in VALUES.items() if c != BLANK},
    **{c.lower(): 0 for c in VALUES if c != BLANK},
}


def index(row: int, col: int) -> int:
    return row * SIZE + col


def name_of(square: int) -> str:
    """``112`` → ``"8H"``."""
    return square_name(*divmod(square, SIZE))


def place(board: str, squares: Iterable[int], letters: str) -> str:
    """``board`` with ``letters`` laid on ``squares`` (a new string)."""
    cells = list(board)
    for square, letter in zip(squares, letters, strict=True):
        cells[square] = letter
    return "".join(cells)


def lift(board: str, squares: Iterable[int]) -> str:
    """``board`` with ``squares`` emptied again (a withdrawn play)."""
    cells = list(board)
    for square in squares:
        cells[square] = EMPTY
    return "".join(cells)


def rows(board: str) -> list[str]:
    """The board as 15 row strings, top first."""
    return [board[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]


def tiles_on(board: str) -> str:
    """The tiles on the board as rack tiles (a blank as ``?``)."""
    return "".join(c if c.isupper() else BLANK for c in board if c != EMPTY)


def rack_value(rack: str) -> int:
    """The sum of a rack's letter values (a blank is worth nothing)."""
    return sum(VALUES[t] for t in rack)


def written_play(board: str, squares: tuple[int, ...], across: bool) -> Play:
    """How a play laid on ``squares`` of ``board`` (the board after it) is
    written: its whole main word, the letters it did not lay in parentheses."""
    step = 1 if across else SIZE
    first, last = min(squares), max(squares)
    lo = first - first % SIZE if across else first % SIZE
    hi = lo + SIZE - 1 if across else lo + SIZE * (SIZE - 1)
    while first - step >= lo and board[first - step] != EMPTY:
        first -= step
    while last + step <= hi and board[last + step] != EMPTY:
        last += step
    laid = set(squares)
    word = []
    marked = 0
    for i, q in enumerate(range(first, last + 1, step)):
        word.append(board[q])
        if q not in laid:
            marked |= 1 << i
    row, col = divmod(first, SIZE)
    return Play(row, col, across, "".join(word), marked)
