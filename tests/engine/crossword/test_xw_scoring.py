"""Scoring, worked out by hand from the rule sheet and its readings.

Premium squares used (row number, column letter): 8H the centre star (DW), 8D
and 8L DL, 6J TL, 1A and 1H TW, 1D DL; 8G, 8I, 8J, 7J, 9E, 10E, 6H, 7H, 9H plain.
Letter values: A E I L N O R S T U 1, D G 2, B C M P 3, F H V W Y 4, K 5,
J X 8, Q Z 10, a blank 0.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from xw_helpers import game

from games.engine.crossword.bonus import BONUS_WORDS, FIFTEEN, FIVE, TEN
from games.engine.crossword.commands import decide
from games.engine.crossword.events import Played
from games.engine.crossword.options import PRESETS
from games.engine.crossword.state import GameState

ANY = frozenset(
    [
        "CAT",
        "ZONED",
        "QIS",
        "CATS",
        "HAT",
        "ANSWERED",
        "RETAINS",
        "RETAINED",
        "KINGS",
        "TALL",
        "TAN",
        "MAT",
        "GO",
        "STRAINED",
        "RELATIONS",
        "AT",
        "RETAIN",
    ]
)


def played(state: GameState, text: str, words: frozenset[str] = ANY, seat: int = 0) -> Played:
    (event,) = decide(state, seat, text, words)
    assert isinstance(event, Played)
    return event


def test_the_centre_star_doubles_the_first_word() -> None:
    assert played(game(("CAT",)), "8G CAT").points == (3 + 1 + 1) * 2


def test_a_double_letter_square_doubles_its_letter() -> None:
    # Z on 8D (DL), D on the star: (20 + 1 + 1 + 1 + 2) * 2
    assert played(game(("ZONED",)), "8D ZONED").points == 50


def test_a_triple_letter_square_and_the_cross_word_each_score() -> None:
    # QIS down from 6J: Q on TL = 30, I 1, S 1 -> 32; CATS across: 3+1+1+1 = 6.
    event = played(game(("QIS",), "8G CAT"), "J6 QIS")
    assert event.words == ("QIS", "CATS")
    assert event.points == 32 + 6


def test_a_triple_word_square() -> None:
    # HAT on row 1: H on 1A (TW): (4 + 1 + 1) * 3
    assert played(game(("H",), "8G CAT", "1B AT"), "1A HAT").points == 18


def test_two_triple_word_squares_multiply_nine_times_and_old_premiums_count_plain() -> None:
    # A on 1A and D on 1H (both TW); the W on 1D (DL) was covered before: face value.
    state = game(("AD",), "8G CAT", "1B NSWERE")
    assert played(state, "1A ANSWERED").points == (1 + 1 + 1 + 4 + 1 + 1 + 1 + 2) * 9


def test_premiums_count_only_on_the_turn_they_are_covered() -> None:
    # CATS across after CAT was played on the star: the star no longer doubles.
    assert played(game(("S",), "8G CAT"), "8G CATS").points == 3 + 1 + 1 + 1


def test_a_blank_scores_nothing_but_its_word_premium_still_multiplies() -> None:
    assert played(game(("?AT",)), "8G cAT").points == (0 + 1 + 1) * 2
    # a blank on the star itself: C 3 + a 0 + T 1, doubled
    assert played(game(("C?T",)), "8G CaT").points == (3 + 0 + 1) * 2


def test_a_blank_on_a_letter_premium_gets_nothing_from_it() -> None:
    assert played(game(("?ONED",)), "8D zONED").points == (0 + 1 + 1 + 1 + 2) * 2


def test_seven_tiles_earn_fifty_once() -> None:
    # R on 8D (DL) = 2, the I on the star: (2+1+1+1+1+1+1) * 2 + 50
    assert played(game(("RETAINS",)), "8D RETAINS").points == 16 + 50


def test_six_tiles_earn_no_fifty() -> None:
    # R on 8D (DL) = 2, the I on the star: (2+1+1+1+1+1) * 2
    assert played(game(("RETAIN",)), "8D RETAIN").points == 14


def test_sharing_the_word_pays_fifty_for_eight_and_for_nine_tiles() -> None:
    sharing = PRESETS["sharing"]
    # STRAINED from 8C: T on 8D (DL) = 2, N on the star: (1+2+1+1+1+1+1+2) * 2 + 50
    state = game(("STRAINEDX",), options=sharing)
    assert played(state, "8C STRAINED").points == 20 + 50
    # RELATIONS from 8A: R on 8A (TW), A on 8D (DL), O on the star: 10 * 2 * 3 + 50
    state = game(("RELATIONS",), options=sharing)
    assert played(state, "8A RELATIONS").points == 60 + 50


@pytest.mark.parametrize(
    ("rack", "move", "points"),
    [
        ("KING", "8H KING", (5 + 1 + 1 + 2) * 2 + 5),  # the 5-point table
        # the 10-point table; the last D lies on 8L (DL)
        ("DAVID", "8H DAVID", (2 + 1 + 4 + 1 + 2 * 2) * 2 + 10),
        # the 15-point table; 7 tiles also earn the 50: K on 8E .. M on 8K, G on the star
        ("KINGDOM", "8E KINGDOM", (5 + 1 + 1 + 2 + 2 + 1 + 3) * 2 + 15 + 50),
        # not exactly a bonus word; S on 8L (DL)
        ("KINGS", "8H KINGS", (5 + 1 + 1 + 2 + 1 * 2) * 2),
        ("?UTH", "8H rUTH", (0 + 1 + 1 + 4) * 2 + 5),  # spelled with a blank
    ],
)
def test_bonus_words(rack: str, move: str, points: int) -> None:
    assert played(game((rack,)), move).points == points


def test_kingdom_earns_fifteen_not_fifteen_and_five() -> None:
    event = played(game(("KINGDOM",)), "8E KINGDOM")
    assert event.points - (15 * 2 + 50) == 15


def test_a_bonus_word_formed_as_a_cross_word_counts_even_when_the_list_lacks_it() -> None:
    # GO down from 9E: G 2 + O 1 = 3; KING across row 9: 5+1+1+2 = 9; +5 for KING.
    state = game(("GO",), "8H AT", "9B KIN")
    event = played(state, "E9 GO", frozenset({"GO"}))
    assert event.words == ("GO", "KING")
    assert event.points == 3 + 9 + 5


def test_a_bonus_word_not_in_the_list_is_accepted() -> None:
    event = played(game(("MARY",)), "8H MARY", frozenset())
    assert event.points == (3 + 1 + 1 + 4) * 2 + 5


def test_a_bonus_word_already_on_the_board_and_untouched_earns_nothing() -> None:
    assert played(game(("S",), "8G CAT", "2B KING"), "8G CATS").points == 6


def test_the_tables_hold_the_sheets_45_words() -> None:
    assert (len(FIVE), len(TEN), len(FIFTEEN), len(BONUS_WORDS)) == (15, 19, 11, 45)
    assert FIVE[-1] == "MARK" and TEN[0] == "RACHEL"
    assert {BONUS_WORDS[w] for w in ("RUTH", "CHURCH", "REJOICE")} == {5, 10, 15}


def test_noahs_ark_adds_ten_for_a_word_with_a_double_letter() -> None:
    state = game(("TALL",))
    assert played(state, "8H TALL").points == 8
    ark = replace(state, options=replace(state.options, noahs_ark=True))
    assert played(ark, "8H TALL").points == 8 + 10
    assert played(replace(ark, racks=("TA",)), "8H TA", frozenset({"TA"})).points == 4


def test_david_and_goliath_adds_fifteen_through_the_middle_letter_of_a_longer_word() -> None:
    # LOVE down through the V of SAVED (8F-8J): 1+1+4+1 = 7, LOVE +5, D&G +15.
    state = game(("LOE",), "8F SAVED")
    assert played(state, "H6 LOVE").points == 7 + 5
    goliath = replace(state, options=replace(state.options, david_goliath=True))
    assert played(goliath, "H6 LOVE").points == 7 + 5 + 15
    # MAT down through the A (not the middle letter): M on 7G (DL) 6, A 1, T on 9G (DL) 2.
    assert played(replace(goliath, racks=("MT",)), "G7 MAT").points == 9
