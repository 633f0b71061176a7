"""The leave: what the tiles left on a robot's rack are worth to it.

A small hand-tuned table, in points, by face: two-letter tiles score a bonus
point wherever they lie and the common ones (ED, ER, ST, TH) fit many words;
S, E and the common consonants extend lines; the rare letters are hard to place.
A duplicate is worth less than the first copy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

#: Points a tile is worth on the rack (faces not listed: 0).
LEAVE: dict[str, float] = {
    "S": 0.8, "E": 0.5, "ED": 0.8, "ER": 0.8, "ST": 0.6, "TH": 0.4, "LY": 0.5, "CH": 0.2,
    "R": 0.3, "A": 0.3, "I": 0.2, "N": 0.2, "T": 0.2, "L": 0.1, "D": 0.1, "O": 0.1,
    "QU": -0.5, "J": -0.8, "X": -0.4, "Z": -0.6, "V": -0.6, "K": -0.3, "W": -0.3, "Y": -0.1,
}  # fmt: skip
#: Each further copy of a face costs this much.
DUPLICATE = 0.4


def leave_value(rack: Iterable[str], scale: float = 1.0) -> float:
    """What ``rack`` is worth to keep, scaled by ``scale``.

    >>> leave_value(["S", "E"]) > leave_value(["E", "E"]) > leave_value(["J", "V"])
    True
    """
    total = 0.0
    for face, n in Counter(rack).items():
        total += LEAVE.get(face, 0.0) * n - DUPLICATE * (n - 1)
    return total * scale
