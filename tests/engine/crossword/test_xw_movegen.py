"""Move generation for the crossword game: hand-built positions scored by hand,
and agreement with a brute-force generator on many random positions."""

from __future__ import annotations

import random

import pytest
from xw_brute import brute_moves

from games.engine.crossword.dawg import Dawg
from games.engine.crossword.layout import SIZE
from games.engine.crossword.movegen import (
    EMPTY_BOARD,
    SHARING_BINGO,
    Board,
    Move,
    legal_moves,
    placements,
    play,
)
from games.engine.errors import BadRecord, Refusal


def board_with(*words: tuple[str, str]) -> Board:
    """``("8F", "CAT")`` across, ``("H7", "LA")`` down, written onto an empty board."""
    rows = [list(r) for r in EMPTY_BOARD]
    for square, word in words:
        if square[0].isdigit():
            r, c, dr, dc = int(square[:-1]) - 1, ord(square[-1]) - 65, 0, 1
        else:
            r, c, dr, dc = int(square[1:]) - 1, ord(square[0]) - 65, 1, 0
        for i, ch in enumerate(word):
            rows[r + dr * i][c + dc * i] = ch
    return tuple("".join(r) for r in rows)


def scored(moves: list[Move]) -> dict[str, int]:
    out = {m.notation: m.score for m in moves}
    assert len(out) == len(moves), "a move was found twice"
    return out


def test_the_first_move_covers_the_centre_and_doubles() -> None:
    d = Dawg.build(["CAT", "ACT", "AT", "TA"])
    got = scored(legal_moves(EMPTY_BOARD, "CAT", d))
    # Three places for a 3-letter word through 8H, two for a 2-letter one, both
    # directions; (3 + 1 + 1) × 2 and (1 + 1) × 2 on the star, no other premium.
    expected = {}
    for word, places in (("CAT", "FGH"), ("ACT", "FGH"), ("AT", "GH"), ("TA", "GH")):
        for col in places:
            row = 8 - (ord("H") - ord(col))
            expected[f"8{col} {word}"] = expected[f"H{row} {word}"] = 10 if len(word) == 3 else 4
    assert got == expected


def test_hooks_and_a_double_letter_on_the_new_square_only() -> None:
    d = Dawg.build(["CAT", "CATS", "AT", "AS"])
    board = board_with(("8F", "CAT"))
    # CATS: 3 + 1 + 1 + 1 (8I plain, the star already covered).  S under the A
    # at 9G, a double letter: AS = 1 + 1 × 2, written down (its longer word).
    assert scored(legal_moves(board, "S", d)) == {"8F CATS": 6, "G8 AS": 3}


def test_a_blank_scores_nothing_and_is_written_lower_case() -> None:
    d = Dawg.build(["CAT", "CATS", "AT", "AS"])
    board = board_with(("8F", "CAT"))
    got = scored(legal_moves(board, "?", d))
    # CATs: 3 + 1 + 1 + 0.  As and At under the A (a double letter, on nothing),
    # aT over the T: just the board letter's point.
    assert got == {"8F CATs": 5, "G8 As": 1, "G8 At": 1, "H7 aT": 1}
    assert {m.tiles for m in legal_moves(board, "?", d)} == {"?"}


def test_cross_words_and_bonus_words_are_flat() -> None:
    d = Dawg.build(["LA", "LAW", "WE"])
    board = board_with(("H7", "LA"))
    bonus = {"LAW": 5}
    got = scored(legal_moves(board, "WE", d, bonus=bonus))
    # 9H WE: W on 9H (plain) 4 + E on 9I (double letter) 2 = 6, and the cross-word
    # LAW 1 + 1 + 4 = 6 with its 5; H7 LAW alone: 6 + 5.
    assert got["9H WE"] == 6 + 6 + 5
    assert got["H7 LAW"] == 6 + 5
    assert legal_moves(board, "WE", d, bonus={})[0].score < got["9H WE"]


def test_bonus_is_added_after_the_word_premium() -> None:
    d = Dawg.build(["EVE"])
    got = scored(legal_moves(EMPTY_BOARD, "EVE", d, bonus={"EVE": 5}))
    assert got["8F EVE"] == (1 + 4 + 1) * 2 + 5


def test_the_all_tiles_bonus_follows_the_variant() -> None:
    d = Dawg.build(["RELATING"])
    # 8H RELATING: R on the star (double word), T on 8L (double letter), G on 8O
    # (triple word): (1+1+1+1+2+1+1+2) × 2 × 3 = 60.
    standard = scored(legal_moves(EMPTY_BOARD, "RELATINGX", d))
    assert standard["8H RELATING"] == 60
    sharing = scored(legal_moves(EMPTY_BOARD, "RELATINGX", d, bingo_sizes=SHARING_BINGO))
    assert sharing["8H RELATING"] == 110
    seven = scored(legal_moves(board_with(("8H", "R")), "ELATING", d))
    # Seven tiles after a board R at 8H: nothing new on the star; T on 8L doubled, G tripled.
    assert seven["8H RELATING"] == (1 + 1 + 1 + 1 + 2 + 1 + 1 + 2) * 3 + 50


def test_a_single_tile_is_one_move_in_its_longer_word() -> None:
    board = board_with(("8G", "AT"), ("9F", "B"))
    d = Dawg.build(["AT", "ATE", "BE"])
    # E on 8I: ATE across only, 3.  E on 10F (triple letter) under the B: BE
    # down only, 3 + 3.  E on 9G would make BE across and AE down: AE is not listed.
    assert scored(legal_moves(board, "E", d)) == {"8G ATE": 3, "F9 BE": 6}
    d = Dawg.build(["AT", "ATE", "BE", "AE"])
    # Now E on 9G (double letter) makes BE across and AE down, both two letters:
    # one move, written across: BE 3 + 2, AE 1 + 2.
    assert scored(legal_moves(board, "E", d)) == {"8G ATE": 3, "F9 BE": 6, "9F BE": 5 + 3}
    # With the A's word longer (a board T under it), the E goes down: AE? no, 8G
    # holds A; put TAE's letters so: T at 7G above the A makes TAE down (3) vs BE (2).
    board = board_with(("8G", "AT"), ("9F", "B"), ("7G", "T"))
    d = Dawg.build(["AT", "BE", "TAE"])
    got = scored(legal_moves(board, "E", d))
    assert got["G7 TAE"] == (1 + 1 + 2) + (3 + 2)
    assert "9F BE" not in got


def test_board_letters_are_written_as_the_board_holds_them() -> None:
    d = Dawg.build(["CATS"])
    board = board_with(("8F", "CaT"))
    (move,) = legal_moves(board, "S", d)
    assert move.notation == "8F CaTS" and move.score == 3 + 0 + 1 + 1
    assert placements(board, move) == [(7, 8, "S")]
    assert play(board, move)[7] == ".....CaTS......"


@pytest.mark.parametrize(
    ("board", "message"),
    [
        (("." * SIZE,) * 14, "tuple of 15 rows"),
        ((*EMPTY_BOARD[:14], "." * 14), "row 15"),
        ((*EMPTY_BOARD[:3], "..1" + "." * 12, *EMPTY_BOARD[4:]), "4C holds '1'"),
    ],
)
def test_malformed_boards_are_refused(board: Board, message: str) -> None:
    with pytest.raises(BadRecord, match=message):
        legal_moves(board, "A", Dawg.build(["AA"]))


def test_malformed_racks_are_refused() -> None:
    d = Dawg.build(["AA"])
    with pytest.raises(Refusal) as bad:
        legal_moves(EMPTY_BOARD, "A1", d)
    assert bad.value.code == "unknown_tile"
    with pytest.raises(Refusal) as long:
        legal_moves(EMPTY_BOARD, "A" * 10, d)
    assert long.value.code == "too_many_rack_tiles"


SMALL_TEXT = (
    "AA AB AD AE AH AI AM AN AR AS AT AW AX AY BA BE BI BO BY DA DE DO ED EF EH EL EM EN ER "
    "ES EX FA FE GO HA HE HI HM HO ID IF IN IS IT JO KA LA LI LO MA ME MI MO MU MY NA NE NO "
    "NU OD OE OF OH OI OM ON OP OR OS OW OX OY PA PE PI QI RE SH SI SO TA TI TO UH UM UN UP "
    "US UT WE WO XI XU YA YE YO ZA CAT CATS ACT ACTS TAB TABS BAT BATS STAB RAT RATS ART "
    "ARTS STAR TAR TARS EAT EATS SEAT TEA TEAS ATE SAT SET TEN NET NETS SENT TONE NOTE STONE "
    "ONE ONES EON NOSE ROSE ORE ORES SORE RED READ DEAR DARE BREAD BEARD HEART EARTH HATE "
    "HATES LOVE DOVE SAVED LAW RUTH EVE AMEN"
)
SMALL = SMALL_TEXT.split()
BONUS = {"EVE": 5, "LAW": 5, "RUTH": 5, "AMEN": 5, "LOVE": 5, "SAVED": 10, "HEART": 10}


@pytest.mark.slow
def test_agrees_with_brute_force_on_random_positions() -> None:
    d = Dawg.build(SMALL)
    words = set(SMALL)
    rng = random.Random(20260601)
    compared = 0
    total_moves = 0
    while compared < 60:
        board = EMPTY_BOARD
        for _ in range(rng.randrange(0, 12)):
            rack = "".join(rng.choice("AAEEIOURSTLNDHBCMVW") for _ in range(7))
            moves = legal_moves(board, rack, d)
            if moves:
                board = play(board, rng.choice(moves))
        rack = "".join(rng.choice("AAEEIOURSTLNDHBCMVWXZ?") for _ in range(rng.randrange(1, 5)))
        if rack.count("?") > 1:
            rack = rack.replace("?", "E", 1)
        fast = legal_moves(board, rack, d, bingo_sizes={3}, bonus=BONUS)
        found = {(m.notation, "".join(sorted(m.tiles)), m.score) for m in fast}
        assert len(found) == len(fast)
        assert found == brute_moves(board, rack, words, (3,), BONUS), (board, rack)
        compared += 1
        total_moves += len(fast)
    assert total_moves > 300  # the positions were not all dead ends
