"""The cubes exactly as the seed lists them, rolls and who starts."""

from __future__ import annotations

import random
from collections import Counter

from games.engine.tumble.cubes import CUBES, roll_cubes, roll_one, roll_problem, start_rank


def test_the_thirteen_cubes_in_the_seeds_order() -> None:
    assert [(c.colour, c.faces) for c in CUBES] == [
        ("R", "AEIOUY"),
        ("R", "AEIOUY"),
        ("R", "CDFGLN"),
        ("R", "CDFGLN"),
        ("R", "EWAPRS"),
        ("R", "EWAPRS"),
        ("R", "VIOMT_"),
        ("K", "AEIOU_"),
        ("K", "BDGHJK"),
        ("K", "AESNTR"),
        ("G", "AEIOXZ"),
        ("G", "EISTQR"),
        ("G", "BHLMNT"),
    ]
    assert Counter(c.colour for c in CUBES) == {"R": 7, "K": 3, "G": 3}
    assert all(len(c.faces) == len(set(c.faces)) == 6 for c in CUBES)


def test_a_roll_shows_one_face_of_each_cube() -> None:
    rng = random.Random(5)
    for _ in range(200):
        roll = roll_cubes(rng)
        assert roll_problem(roll) is None
        assert all(face in cube.faces for face, cube in zip(roll, CUBES, strict=True))


def test_roll_problems_say_what_is_wrong() -> None:
    assert "13 cubes" in (roll_problem("AEG") or "")
    assert "cube 3" in (roll_problem("AAAAEEVAAAAAA") or "")
    assert "blank" in (roll_problem("_EGNWSTODRXQH") or "")
    assert roll_problem(7) is not None


def test_nearest_a_starts_and_a_blank_counts_after_z() -> None:
    assert start_rank("A") < start_rank("B") < start_rank("Z") < start_rank("_")
    faces = {roll_one(random.Random(i)) for i in range(300)}
    assert "_" in faces and "A" in faces
