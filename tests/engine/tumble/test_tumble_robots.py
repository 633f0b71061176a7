"""The robots: always a valid crossword, the strong one at least the beginner's."""

from __future__ import annotations

import random

import pytest
from tumble_helpers import two

from games.engine.tumble import check, parse_grid, read_view, roll_cubes, seat_view
from games.engine.tumble.robots import LEVELS, answer
from games.engine.tumble.robots.levels import BEGINNER, STRONG
from games.engine.tumble.robots.match import match


@pytest.mark.parametrize("seed", range(6))
def test_every_level_lays_a_valid_crossword_the_strong_one_scoring_most(
    enable: frozenset[str], seed: int
) -> None:
    roll = roll_cubes(random.Random(seed))
    scores = {}
    for name, lv in LEVELS.items():
        found = lv.crossword(roll, enable, random.Random(seed), budget_ms=300)
        assert found is not None
        scored = check(parse_grid(found.text), roll, enable)
        assert scored.total == found.score
        scores[name] = scored.total
    best_word = STRONG.crossword(roll, enable, random.Random(0), budget_ms=0)
    assert best_word is not None
    assert scores["strong"] >= scores["beginner"]
    assert scores["strong"] >= best_word.score


def test_a_robot_answers_from_the_seat_view(enable: frozenset[str]) -> None:
    view = read_view(seat_view(two(), 1, lexicon="default"))
    move = answer(view, enable, "casual", random.Random(1))
    assert move.startswith("submit ")
    done = read_view(seat_view(two(), 1, lexicon="default") | {"waiting": [0]})
    assert answer(done, enable, "strong") == "wait"


def test_a_roll_spelling_nothing_submits_the_empty_crossword() -> None:
    assert BEGINNER.crossword("AEGNWSTODRXQH", frozenset(), random.Random(1)) is None


def test_a_match_counts_from_the_first_levels_side(enable: frozenset[str]) -> None:
    result = match(LEVELS["casual"], BEGINNER, 2, 3, enable)
    assert result.played == 2 and set(result.a_seat) == {0, 1}
    lo, hi = result.interval
    assert 0 <= lo <= result.win_rate <= hi <= 1
