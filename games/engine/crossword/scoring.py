"""Scoring a play, per the rule sheet and its readings.

Each word formed on the turn (the main word and every cross-word of two
letters or more) scores the sum of its letters, a newly covered letter premium
multiplying that letter, then the product of the newly covered word premiums;
squares covered on earlier turns count at face value and a blank counts 0
(its word premium still multiplies).  Then, flat: each formed word that is
exactly a bonus word adds its table's points, 50 for seven tiles or more, and
the extras when the game has them (Noah's Ark: +10 a formed word with two
equal letters side by side; David and Goliath: +15 a play whose main word is
shorter than a word it crosses, at that word's middle letter).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from .board import EMPTY, LM, VALUE_OF, WM
from .bonus import BONUS_WORDS
from .layout import ALL_TILES_BONUS, SIZE
from .options import Options

NOAHS_ARK: Final = 10
DAVID_GOLIATH: Final = 15
#: The tiles a move must lay for the 50 points.
ALL_TILES: Final = 7


@dataclass(frozen=True, slots=True)
class Word:
    """A word formed on a turn: its letters as on the board (lower case a
    blank), its first and last squares, and its score with premiums."""

    text: str
    first: int
    last: int
    score: int


def _bounds(square: int, step: int) -> tuple[int, int]:
    """The first and last squares of ``square``'s row (step 1) or column."""
    if step == 1:
        lo = square - square % SIZE
        return lo, lo + SIZE - 1
    lo = square % SIZE
    return lo, lo + SIZE * (SIZE - 1)


def word_through(board: str, new: dict[int, str], square: int, step: int) -> Word | None:
    """The word through ``square`` along ``step`` once ``new`` is laid, or
    ``None`` when the square stands alone on that line."""
    lo, hi = _bounds(square, step)
    first = square
    while first - step >= lo and (first - step in new or board[first - step] != EMPTY):
        first -= step
    last = square
    while last + step <= hi and (last + step in new or board[last + step] != EMPTY):
        last += step
    if first == last:
        return None
    letters: list[str] = []
    total = 0
    multiplier = 1
    for q in range(first, last + 1, step):
        c = new.get(q)
        if c is None:
            c = board[q]
            total += VALUE_OF[c]
        else:
            total += VALUE_OF[c] * LM[q]
            multiplier *= WM[q]
        letters.append(c)
    return Word("".join(letters), first, last, total * multiplier)


def has_pair(word: str) -> bool:
    """Two equal letters side by side (a blank counts as its letter)."""
    upper = word.upper()
    return any(a == b for a, b in pairwise(upper))


def _crosses_middle(board: str, main: Word, step: int) -> bool:
    """Whether the main word crosses, at its middle letter, a longer word
    already on the board (David and Goliath)."""
    across = 1 if step == SIZE else SIZE
    length = (main.last - main.first) // step + 1
    for q in range(main.first, main.last + 1, step):
        if board[q] == EMPTY:
            continue
        crossed = word_through(board, {}, q, across)
        if crossed is None:
            continue
        size = (crossed.last - crossed.first) // across + 1
        if size > length and size % 2 == 1 and q == crossed.first + (size // 2) * across:
            return True
    return False


def bonus_points(words: list[Word], tiles: int, board: str, step: int, options: Options) -> int:
    """The flat points on top of the words' scores."""
    extra = ALL_TILES_BONUS if tiles >= ALL_TILES else 0
    for word in words:
        extra += BONUS_WORDS.get(word.text.upper(), 0)
        if options.noahs_ark and has_pair(word.text):
            extra += NOAHS_ARK
    if options.david_goliath and _crosses_middle(board, words[0], step):
        extra += DAVID_GOLIATH
    return extra
