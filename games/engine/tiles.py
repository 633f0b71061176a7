"""Tiles, the 100-tile set and spellings.

A tile is written as its face: one letter ``A``..``Z`` except ``Q``, or one of the
seven two-letter faces.  Lengths, limits and score tiers count tiles; the word list
is checked on letters.

>>> letters(("E", "QU", "A", "L", "LY"))
'EQUALLY'
>>> sorted(spellings("OTHER"))
[('O', 'T', 'H', 'E', 'R'), ('O', 'T', 'H', 'ER'), ('O', 'TH', 'E', 'R'), ('O', 'TH', 'ER')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

Tile = str
Tiles = tuple[Tile, ...]

TWO_LETTER_FACES: tuple[str, ...] = ("QU", "CH", "ED", "ER", "LY", "ST", "TH")
SINGLE_FACES: tuple[str, ...] = tuple(c for c in "ABCDEFGHIJKLMNOPRSTUVWXYZ")
FACES: tuple[str, ...] = SINGLE_FACES + TWO_LETTER_FACES
FACE_SET: frozenset[str] = frozenset(FACES)

#: How many of each tile the bag holds (seed 000, the official sheet): 100 in all.
TILE_COUNTS: dict[str, int] = {
    "A": 6, "B": 3, "C": 4, "D": 4, "E": 9, "F": 3, "G": 3, "H": 3, "I": 6, "J": 1,
    "K": 2, "L": 5, "M": 4, "N": 5, "O": 6, "P": 3, "R": 6, "S": 5, "T": 5, "U": 3,
    "V": 1, "W": 2, "X": 1, "Y": 2, "Z": 1,
    "QU": 1, "CH": 1, "ED": 1, "ER": 1, "LY": 1, "ST": 1, "TH": 1,
}  # fmt: skip

MAX_LINE_TILES = 10
LINES = 9
RACK_SIZE = 5
DEALT_PER_LINE = 3

_BY_FIRST_LETTER: dict[str, tuple[str, ...]] = {
    c: tuple(f for f in TWO_LETTER_FACES if f[0] == c) for c in {f[0] for f in TWO_LETTER_FACES}
}


def full_set() -> list[Tile]:
    """The 100 tiles, in face order (A A A A A A B ...)."""
    return [face for face in FACES for _ in range(TILE_COUNTS[face])]


def letters(tiles: Iterable[Tile]) -> str:
    """The letters a sequence of tiles spells."""
    return "".join(tiles)


def two_letter_count(tiles: Iterable[Tile]) -> int:
    return sum(1 for t in tiles if len(t) == 2)


@lru_cache(maxsize=8192)
def spellings(word: str) -> tuple[Tiles, ...]:
    """Every tile sequence that spells ``word`` (upper-case letters).

    Two-letter tiles are optional spellings, except ``QU``: there is no bare ``Q``
    tile, so a ``Q`` must be followed by ``U`` and the pair is the ``QU`` tile.
    A word that cannot be spelled (a ``Q`` without ``U``) has no spellings.
    Spellings come fewest-two-letter-tiles first, then in reading order.
    """
    n = len(word)
    # tails[i]: the spellings of word[i:]
    tails: list[list[Tiles]] = [[] for _ in range(n + 1)]
    tails[n] = [()]
    for i in range(n - 1, -1, -1):
        c = word[i]
        out: list[Tiles] = []
        if c == "Q":
            if word[i + 1 : i + 2] == "U":
                out = [("QU", *rest) for rest in tails[i + 2]]
        else:
            out = [(c, *rest) for rest in tails[i + 1]]
            for face in _BY_FIRST_LETTER.get(c, ()):
                if word[i + 1 : i + 2] == face[1]:
                    out.extend((face, *rest) for rest in tails[i + 2])
        tails[i] = out
    return tuple(sorted(tails[0], key=lambda s: (-len(s), s)))


def remove_tiles(source: Sequence[Tile], taken: Iterable[Tile]) -> list[Tile]:
    """``source`` without one front-most copy of each tile of ``taken``.

    Raises ``ValueError`` naming a tile that ``source`` does not hold.
    """
    out = list(source)
    for t in taken:
        out.remove(t)
    return out


JUMBULAYA_MIN = 7
JUMBULAYA_MAX = 9
