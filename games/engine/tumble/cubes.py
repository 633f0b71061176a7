"""The seed's cubes: two identical sets of 13, each cube six faces and a colour.

A roll is written as 13 characters in the cubes' order, the face showing on
each (``_`` for a blank), for example ``AEGNWSTODRXQH``.  Rolls are drawn with a
``random.Random`` passed in and recorded as these outcomes, never as a seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, Literal

#: A cube's colour: red, black (``K``) or green.
Colour = Literal["R", "K", "G"]
COLOUR_NAMES: Final[dict[str, str]] = {"R": "red", "K": "black", "G": "green"}
#: The blank face.
BLANK: Final = "_"


@dataclass(frozen=True, slots=True)
class Cube:
    colour: Colour
    faces: str  # six faces, ``_`` for the blank


#: The 13 cubes of a set, in the seed's order.
CUBES: Final[tuple[Cube, ...]] = (
    Cube("R", "AEIOUY"),
    Cube("R", "AEIOUY"),
    Cube("R", "CDFGLN"),
    Cube("R", "CDFGLN"),
    Cube("R", "EWAPRS"),
    Cube("R", "EWAPRS"),
    Cube("R", "VIOMT_"),
    Cube("K", "AEIOU_"),
    Cube("K", "BDGHJK"),
    Cube("K", "AESNTR"),
    Cube("G", "AEIOXZ"),
    Cube("G", "EISTQR"),
    Cube("G", "BHLMNT"),
)
CUBE_COUNT: Final = len(CUBES)
#: Every face any cube has.
FACES: Final[frozenset[str]] = frozenset("".join(c.faces for c in CUBES))


def roll_cubes(rng: random.Random) -> str:
    """One roll of a set: the face showing on each cube, in the cubes' order."""
    return "".join(rng.choice(cube.faces) for cube in CUBES)


def roll_problem(roll: object) -> str | None:
    """Why ``roll`` is not a roll of a set (``None`` when it is one)."""
    if not isinstance(roll, str):
        return f"a roll is a string of {CUBE_COUNT} faces, not {roll!r}"
    if len(roll) != CUBE_COUNT:
        return f"a roll has one face for each of the {CUBE_COUNT} cubes; {roll!r} has {len(roll)}"
    for i, (face, cube) in enumerate(zip(roll, CUBES, strict=True)):
        if face not in cube.faces:
            shown = "a blank" if face == BLANK else repr(face)
            return (
                f"in the roll {roll!r}, cube {i + 1} ({COLOUR_NAMES[cube.colour]} "
                f"{cube.faces}) cannot show {shown}"
            )
    return None


def roll_one(rng: random.Random) -> str:
    """One cube picked and rolled (for who starts): the face that shows."""
    return rng.choice(rng.choice(CUBES).faces)


def start_rank(face: str) -> int:
    """How near ``A`` a rolled face is (who starts): A is 0, a blank counts after Z."""
    return 26 if face == BLANK else ord(face) - ord("A")
