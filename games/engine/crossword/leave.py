"""The leave: what the tiles a move leaves on the rack are worth, in points.

The value of a leave is read as "how many more points than average the best
move of the next turn scores, when these tiles are kept and the rest of the rack
is drawn from the bag".  It is a sum of a few terms:

* one value per tile kept (the blank and S make many words and hooks; Q, V, W
  and U make few);
* a cost per duplicate (each copy of a tile beyond the first: a rack of
  repeats spells fewer words);
* a cost per vowel beyond one more than the consonants, and per consonant
  beyond two more than the vowels (an unbalanced rack draws into few words);
* a cost for a Q kept without a U.

The weights are not guessed: :mod:`.robots.fit_leave` measured them by self-play
on the ENABLE list (players picking at random among their ten best-scoring
moves, so that every kind of leave occurs), recording each leave and the best
score available on that seat's next turn, and fitting the terms above to it by
least squares (with a small ridge, so a rarely kept tile stays near 0).
``python -m games.engine.crossword.robots.fit_leave`` reruns it and prints the
table below.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

#: Vowels, for the balance terms (Y and the blank count as neither).
VOWELS = frozenset("AEIOU")
TILE_FEATURES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ?"
#: The leave's terms, in the order the fit uses them.
FEATURES: tuple[str, ...] = (
    *TILE_FEATURES,
    "duplicate",
    "vowel_heavy",
    "consonant_heavy",
    "q_without_u",
)

#: Points per unit of each term, measured by
#: ``python -m games.engine.crossword.robots.fit_leave --games 2000`` (46,370 leaves;
#: the next turn's best score averaged 33.7).  A tile's weight is against
#: drawing a fresh one from the bag instead, which may be a blank or an S: so
#: most letters are a point or so below zero.  X and Z come out above it, since
#: they score well on the premium squares of the very next turn.  A Q alone
#: costs 4.9 (3.0 - 7.9); kept with a U, the pair is worth 0.
WEIGHTS: dict[str, float] = {
    "A": -0.7, "B": -1.4, "C": -0.6, "D": -0.3, "E": -0.3, "F": -1.2, "G": -2.0, "H": 0.6,
    "I": -1.5, "J": 0.1, "K": -0.9, "L": -1.5, "M": -0.2, "N": -1.0, "O": -1.5, "P": -0.8,
    "Q": 3.0, "R": -0.9, "S": 3.7, "T": -1.0, "U": -3.0, "V": -3.3, "W": -2.3, "X": 3.4,
    "Y": 0.6, "Z": 2.4, "?": 14.0, "duplicate": -3.6, "vowel_heavy": -1.2,
    "consonant_heavy": -1.8, "q_without_u": -7.9,
}  # fmt: skip


def terms(leave: str) -> Counter[str]:
    """How many units of each term ``leave`` has."""
    counts = Counter(leave)
    out: Counter[str] = Counter(counts)
    vowels = sum(n for t, n in counts.items() if t in VOWELS)
    consonants = sum(n for t, n in counts.items() if t not in VOWELS and t != "?")
    out["duplicate"] = sum(n - 1 for n in counts.values() if n > 1)
    out["vowel_heavy"] = max(0, vowels - consonants - 1)
    out["consonant_heavy"] = max(0, consonants - vowels - 2)
    out["q_without_u"] = int("Q" in counts and "U" not in counts)
    return +out


@lru_cache(maxsize=1 << 16)
def _value(sorted_leave: str) -> float:
    return sum(WEIGHTS.get(term, 0.0) * n for term, n in terms(sorted_leave).items())


def leave_value(leave: str) -> float:
    """What keeping ``leave`` (tiles, ``?`` for a blank) is worth, in points."""
    return _value("".join(sorted(leave)))
