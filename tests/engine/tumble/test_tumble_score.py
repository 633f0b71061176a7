"""Checking and scoring a crossword: the seed's worked examples, every refusal
in the spec's order, the colours laid the best way, the younger child's variant.

The seed's examples were laid out by hand from its words (HERO down through
FAME's E; FIN down from F; AT down from A; IT, IN and BIN across) and given
rolls under which the seed's colours are the best ones (spec: the black I
alone makes IT one colour).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tumble_helpers import (
    EX1,
    EX1_ROLL,
    EX2,
    EX2_ROLL,
    EX3,
    EX3_ROLL,
    EX4,
    EX4_ROLL,
    SEED_WORDS,
)

from games.engine.errors import Refusal
from games.engine.tumble.cubes import CUBES
from games.engine.tumble.grid import parse_grid, runs
from games.engine.tumble.score import COLOURS, best_colours, check, score_words


def points(grid: str, roll: str) -> dict[str, int]:
    return {w.run.text: w.points for w in check(parse_grid(grid), roll, SEED_WORDS).words}


def test_example_one_fame_one_colour_8_hero_mixed_4() -> None:
    assert points(EX1, EX1_ROLL) == {"FAME": 8, "HERO": 4}
    scored = check(parse_grid(EX1), EX1_ROLL, SEED_WORDS)
    assert (scored.plus, scored.minus, scored.bonus, scored.total) == (12, 6, 0, 6)


def test_example_two_a_blank_scores_nothing_and_has_no_colour() -> None:
    # FAMe: F, A, M red and the blank (cube 8, black) has no colour: 3 × 2.
    assert points(EX2, EX2_ROLL) == {"FAME": 6, "HERO": 3}


def test_example_three_two_cubes_left_over_total_21() -> None:
    scored = check(parse_grid(EX3), EX3_ROLL, SEED_WORDS)
    assert {w.run.text: w.points for w in scored.words} == {
        "FAME": 8,
        "IT": 4,
        "IN": 2,
        "FIN": 3,
        "AT": 2,
        "HERO": 4,
    }
    assert (scored.plus, scored.minus, scored.total) == (23, 2, 21)


def test_example_three_only_the_black_i_makes_it_one_colour() -> None:
    scored = check(parse_grid(EX3), EX3_ROLL, SEED_WORDS)
    assert scored.crossword.colours is not None
    # the border column is dropped: IT is at columns 2–3 of the third row
    assert scored.crossword.rows[2][1:3] == "IT"
    assert scored.crossword.colours[2][1:3] == "KK"  # I on cube 8, T on cube 10
    forced = check(parse_grid(EX3 + " colours: ....?/.????/.R?.?/??..?"), EX3_ROLL, SEED_WORDS)
    assert {w.run.text: w.points for w in forced.words}["IT"] == 2
    assert forced.total == 19


def test_example_four_all_thirteen_cubes_premium_total_36() -> None:
    scored = check(parse_grid(EX4), EX4_ROLL, SEED_WORDS)
    assert [w.points for w in scored.words] == [2, 8, 4, 3, 4, 3, 2]
    assert (scored.used, scored.minus, scored.bonus, scored.total) == (13, 0, 10, 36)


def test_the_empty_crossword_scores_minus_13() -> None:
    assert check(parse_grid(""), EX1_ROLL, SEED_WORDS).total == -13


def test_a_run_made_by_accident_must_be_a_word_and_scores() -> None:
    words = SEED_WORDS | {"TA"}
    # T under A of FAME and beside I: IT across, AT down … and TA nowhere: fine.
    assert check(parse_grid(EX3), EX3_ROLL, words).total == 21


def refusal(grid: str, roll: str = EX3_ROLL, younger: bool = False) -> Refusal:
    with pytest.raises(Refusal) as err:
        check(parse_grid(grid), roll, SEED_WORDS, younger)
    return err.value


def test_face_not_rolled() -> None:
    r = refusal("FAME/.Z")
    assert r.code == "face_not_rolled" and "Z at row 2, column 2" in r.message
    r = refusal("FAMe")  # no blank in this roll
    assert r.code == "face_not_rolled" and "blank" in r.message


def test_cube_used_twice() -> None:
    r = refusal("FAME/...E")  # one E showing
    assert r.code == "cube_used_twice"
    assert "E 2 times" in r.message


def test_not_a_word_across_before_down() -> None:
    r = refusal("..H/FAM/..R")  # FAM across, HMR down: the across run is named
    assert r.code == "not_a_word" and r.message.startswith("FAM ")
    assert refusal("FAME/I").message.startswith("FI (down")  # FAME across is a word


def test_a_lone_letter() -> None:
    r = refusal("FAME/..../.T..")
    assert r.code == "lone_letter" and "row 3, column 2" in r.message


def test_disconnected_and_the_younger_childs_variant() -> None:
    assert refusal("FAME./...../IT...").code == "disconnected"
    scored = check(parse_grid("FAME./...../IT..."), EX3_ROLL, SEED_WORDS, younger=True)
    assert [w.run.text for w in scored.words] == ["FAME", "IT"]
    assert scored.total == 8 + 4 - 7


def test_colours_not_rolled() -> None:
    r = refusal("IT colours: GG")
    assert r.code == "colours_not_rolled" and "green I" in r.message


@pytest.mark.parametrize(
    ("grid", "code"),
    [
        ("ZZ/ZZ", "face_not_rolled"),  # also cubes used twice, not words
        ("FAMEE/FAMEE", "cube_used_twice"),  # also not a word
        ("FAMX/....", "face_not_rolled"),
        ("FEM/..../IT", "not_a_word"),  # also disconnected
        ("FAME/..../.T..", "lone_letter"),  # before disconnected
        ("FAME./...../IT... colours: GGGG./...../RR...", "disconnected"),
    ],
)
def test_the_first_failing_check_in_the_spec_order_is_reported(grid: str, code: str) -> None:
    assert refusal(grid).code == code


def _brute_force(grid: str, roll: str) -> int:
    """The best total over every way of laying the rolled cubes on the letters."""
    crossword = parse_grid(grid)
    cells = crossword.cells
    found = runs(crossword.rows)
    order = list(cells)
    choices = [
        [i for i, face in enumerate(roll) if face == ("_" if cells[c].islower() else cells[c])]
        for c in order
    ]
    best = -99
    for cubes in itertools.product(*choices):
        if len(set(cubes)) == len(cubes):  # each cube laid once
            colours = {cell: CUBES[i].colour for cell, i in zip(order, cubes, strict=True)}
            best = max(best, sum(w.points for w in score_words(cells, found, colours)))
    return best


@pytest.mark.parametrize(
    ("grid", "roll"), [(EX1, EX1_ROLL), (EX3, EX3_ROLL), (EX4, EX4_ROLL), ("IT/N.", EX3_ROLL)]
)
def test_the_best_colours_match_every_way_of_laying_the_cubes(grid: str, roll: str) -> None:
    assert check(parse_grid(grid), roll, SEED_WORDS).plus == _brute_force(grid, roll)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("RKG"), min_size=1, max_size=6), st.data())
def test_best_colours_is_exact_on_small_puzzles(capacity: list[str], data: st.DataObject) -> None:
    """Random letters in a row and a column sharing one square, with a random
    capacity: branch and bound equals trying every colouring."""
    across = data.draw(st.integers(2, 4))
    down = data.draw(st.integers(2, 4))
    cells = {(0, c): "A" for c in range(across)} | {(r, 0): "A" for r in range(1, down)}
    if len(cells) > len(capacity):
        return
    rows = tuple("".join(cells.get((r, c), ".") for c in range(across)) for r in range(down))
    found = runs(rows)
    cap: dict[str, dict[str, int]] = {"A": {}}
    for colour in capacity:
        cap["A"][colour] = cap["A"].get(colour, 0) + 1
    chosen = best_colours(cells, found, cap)  # type: ignore[arg-type]
    got = sum(w.points for w in score_words(cells, found, chosen))
    best = 0
    for colouring in itertools.product(COLOURS, repeat=len(cells)):
        counts = {c: colouring.count(c) for c in COLOURS}
        if all(counts[c] <= cap["A"].get(c, 0) for c in COLOURS):
            colours = dict(zip(cells, colouring, strict=True))
            best = max(best, sum(w.points for w in score_words(cells, found, colours)))
    assert got == best
