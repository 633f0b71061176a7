"""The classic board and tile set the Bible edition plays on (the seed relies on
the classic game for them): 15×15 squares with their premiums, the centre star,
the 100-tile English set with two blanks, and each letter's value.

Squares are ``(row, col)`` from ``(0, 0)`` at the top left; in the notation rows
are the numbers 1–15 and columns the letters A–O (``8H`` is the centre).
"""

from __future__ import annotations

from typing import Final, Literal

SIZE: Final = 15
CENTRE: Final = (7, 7)
RACK_SIZE: Final = 7
#: The bonus for playing exactly seven tiles ("Promised Land").
ALL_TILES_BONUS: Final = 50
#: The blank, in racks, exchanges and the bag.
BLANK: Final = "?"

Premium = Literal["", "DL", "TL", "DW", "TW"]

# One quarter of the board and its centre lines, mirrored: T triple word,
# D double word, t triple letter, d double letter.
_ROWS: Final = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
_CODES: Final[dict[str, Premium]] = {".": "", "d": "DL", "t": "TL", "D": "DW", "T": "TW"}

#: ``PREMIUMS[row][col]``: the square's premium, ``""`` for none (the centre is a DW).
PREMIUMS: Final[tuple[tuple[Premium, ...], ...]] = tuple(
    tuple(_CODES[c] for c in row) for row in _ROWS
)
#: ``LETTER_MULTIPLIER[row][col]`` and ``WORD_MULTIPLIER[row][col]``.
LETTER_MULTIPLIER: Final = tuple(
    tuple({"DL": 2, "TL": 3}.get(p, 1) for p in row) for row in PREMIUMS
)
WORD_MULTIPLIER: Final = tuple(tuple({"DW": 2, "TW": 3}.get(p, 1) for p in row) for row in PREMIUMS)

#: Each letter's value; a blank is worth nothing.
VALUES: Final[dict[str, int]] = {
    **dict.fromkeys("AEILNORSTU", 1),
    **dict.fromkeys("DG", 2),
    **dict.fromkeys("BCMP", 3),
    **dict.fromkeys("FHVWY", 4),
    "K": 5,
    **dict.fromkeys("JX", 8),
    **dict.fromkeys("QZ", 10),
    BLANK: 0,
}

#: How many of each tile the set holds (100 in all).
DISTRIBUTION: Final[dict[str, int]] = {
    "A": 9, "B": 2, "C": 2, "D": 4, "E": 12, "F": 2, "G": 3, "H": 2, "I": 9,
    "J": 1, "K": 1, "L": 4, "M": 2, "N": 6, "O": 8, "P": 2, "Q": 1, "R": 6,
    "S": 4, "T": 6, "U": 4, "V": 2, "W": 2, "X": 1, "Y": 2, "Z": 1, BLANK: 2,
}  # fmt: skip

COLUMNS: Final = "ABCDEFGHIJKLMNO"


def square_name(row: int, col: int) -> str:
    """``(7, 7)`` → ``"8H"``: the row's number, then the column's letter."""
    return f"{row + 1}{COLUMNS[col]}"
