"""Exchanges, passes, JUMBULAYA calls, resignations, the end of the game and
the scores (record spec, rules 2-5)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import assert_full_set, claim_all, make_state, play

from games.engine.jumbulaya import (
    PRESETS,
    Exchanged,
    GameState,
    JumbulayaFailed,
    JumbulayaVerified,
    Lexicon,
    Passed,
    Refusal,
    Resigned,
    decide,
    draw_front,
    lexicon_from_words,
    line_points,
)

JWORDS = ["SPRINTS", "SPRINT", "STRAIGHT", "ABCDEFGHIJ", "ACT", "CAT", "TAC", "FACT"]

# SPRINTS runs down lines 1, 2, 3, 5, 6, 7, 9; line 4 holds 7 tiles
SPRINTS_BOARD = [
    "S A B",
    "P O C",
    "R E D",
    "A B C D E F G",
    "I M N",
    "N O P",
    "T U V",
    "W X Y",
    "S L K",
]
# STRAIGHT runs down as S-T-R-A-I-G-H-T (lines 1-8) and as ST-R-A-I-G-H-T
STRAIGHT_BOARD = ["S ST", "T R", "R A", "A I", "I G", "G H", "H T", "T", "B C D E F K L"]


@pytest.fixture(scope="module")
def jlex() -> Lexicon:
    return lexicon_from_words(JWORDS)


def refusal(st: GameState, seat: int, move: str, lex: Lexicon) -> Refusal:
    with pytest.raises(Refusal) as info:
        decide(st, seat, move, lex, draw_front)
    return info.value


def open_board(
    board: list[str] = SPRINTS_BOARD,
    rules: str | object = "official",
    seats: int = 2,
    owners: list[int] | None = None,
) -> GameState:
    racks = [["E", "E", "O", "U", "A"][: 5 - i] for i in range(seats)]
    st = make_state(lines=board, racks=racks, rules=rules)  # type: ignore[arg-type]
    return claim_all(st, owners or [i % seats for i in range(9)])


# --- exchange and pass ---------------------------------------------------------


def test_exchange_draws_first_then_returns_to_the_back(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F S E R TH", "O"], bag_front="X Y Z")
    st, (event,) = play(st, 0, "exchange TH s", small_lex)
    assert event == Exchanged(0, ("TH", "S"), ("X", "Y"))
    assert sorted(st.racks[0]) == sorted(["F", "E", "R", "X", "Y"])
    assert st.bag[0] == "Z"
    assert st.bag[-2:] == ("TH", "S")
    assert st.turn == 1
    assert st.idle == 1
    assert_full_set(st)


def test_exchange_all_returns_in_rack_order(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F S E R TH", "O"], bag_front="X Y Z V W")
    st, (event,) = play(st, 0, "exchange all", small_lex)
    assert event == Exchanged(0, ("F", "S", "E", "R", "TH"), ("X", "Y", "Z", "V", "W"))
    assert st.bag[-5:] == ("F", "S", "E", "R", "TH")
    assert_full_set(st)


def test_exchange_missing_tiles(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F S E R TH", "O"])
    r = refusal(st, 0, "exchange Z", small_lex)
    assert r.code == "missing_tiles"
    assert "Z" in r.message
    assert refusal(st, 0, "exchange S S", small_lex).code == "missing_tiles"


def test_exchange_bag_too_small(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F S E R TH", "O"])
    st = replace(st, bag=("X",))
    r = refusal(st, 0, "exchange F S", small_lex)
    assert r.code == "bag_too_small"
    assert "1" in r.message
    # missing_tiles is checked first
    assert refusal(st, 0, "exchange Z Y", small_lex).code == "missing_tiles"
    st, (event,) = play(st, 0, "exchange F", small_lex)
    assert event == Exchanged(0, ("F",), ("X",))


def test_exchange_all_with_empty_rack_is_a_turn_without_word(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=[[], "O"])
    st, (event,) = play(st, 0, "exchange all", small_lex)
    assert event == Exchanged(0, (), ())
    assert (st.turn, st.idle) == (1, 1)


def test_pass_and_timeout_are_turns_without_a_word(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F", "O", "B"])
    st, (event,) = play(st, 0, "pass", small_lex)
    assert event == Passed(0)
    st, _ = play(st, 1, "timeout", small_lex)
    assert (st.turn, st.idle) == (2, 2)
    st, _ = play(st, 2, "1 CAT", small_lex)
    assert (st.turn, st.idle) == (0, 0)


# --- JUMBULAYA -----------------------------------------------------------------


def test_jumbulaya_closed_until_all_lines_claimed_and_one_long(jlex: Lexicon) -> None:
    not_claimed = make_state(lines=SPRINTS_BOARD, racks=["E", "O"])
    r = refusal(not_claimed, 0, "jumbulaya SPRINTS", jlex)
    assert r.code == "jumbulaya_closed"
    assert "7 or more" in r.message
    short = [ln.replace(" E F G", "") for ln in SPRINTS_BOARD]
    assert refusal(open_board(short), 0, "jumbulaya SPRINTS", jlex).code == "jumbulaya_closed"


def test_jumbulaya_closed_comes_before_barred(jlex: Lexicon) -> None:
    st = make_state(lines=SPRINTS_BOARD, racks=["E", "O"])
    st = replace(st, barred=frozenset({0}))
    assert refusal(st, 0, "jumbulaya SPRINTS", jlex).code == "jumbulaya_closed"
    assert refusal(open_board() and replace(open_board(), barred=frozenset({0})), 0,
                   "jumbulaya SPRINTS", jlex).code == "jumbulaya_barred"  # fmt: skip


def test_verified_call_off_turn_ends_the_game(jlex: Lexicon) -> None:
    st = open_board()
    assert st.turn == 0
    before = st.scores()
    st, (event,) = play(st, 1, "jumbulaya sprints", jlex)
    assert event == JumbulayaVerified(1, tuple("SPRINTS"), (0, 1, 2, 4, 5, 6, 8), 10)
    assert (st.end, st.turn, st.over) == ("jumbulaya", None, True)
    assert st.scores() == [before[0], before[1] + 10]
    assert st.winners() == [1]
    assert refusal(st, 0, "pass", jlex).code == "game_over"


def test_best_scoring_spelling_counts(jlex: Lexicon) -> None:
    (event,) = decide(open_board(STRAIGHT_BOARD), 0, "jumbulaya STRAIGHT", jlex, draw_front)
    assert isinstance(event, JumbulayaVerified)
    assert event.tiles == tuple("STRAIGHT") and event.points == 12


@pytest.mark.parametrize(("preset", "points"), [("official", 11), ("boardspace", 10)])
def test_jumbulaya_bonus_for_two_letter_tiles(jlex: Lexicon, preset: str, points: int) -> None:
    board = ["ST B", *STRAIGHT_BOARD[1:]]  # no single S on line 1
    (event,) = decide(open_board(board, preset), 0, "jumbulaya STRAIGHT", jlex, draw_front)
    assert isinstance(event, JumbulayaVerified)
    assert event.tiles == ("ST", "R", "A", "I", "G", "H", "T")
    assert event.points == points


def test_explicit_call_names_one_spelling(jlex: Lexicon) -> None:
    st = open_board(STRAIGHT_BOARD)
    (event,) = decide(st, 0, "jumbulaya [ST]RAIGHT", jlex, draw_front)
    assert isinstance(event, JumbulayaVerified) and event.points == 11


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("CAT", "7, 8 or 9 tiles"),
        ("ABCDEFGHIJ", "7, 8 or 9 tiles"),
        ("SPRINTSX", "not in the word list"),
        ("STRAIGHT", "cannot be spelled down the board"),
    ],
)
def test_failed_call_reasons(jlex: Lexicon, word: str, reason: str) -> None:
    (event,) = decide(open_board(), 0, f"jumbulaya {word}", jlex, draw_front)
    assert isinstance(event, JumbulayaFailed)
    assert event.word == word
    assert reason in event.reason


def test_failed_call_on_turn_costs_that_turn(jlex: Lexicon) -> None:
    st, _ = play(open_board(), 0, "jumbulaya STRAIGHT", jlex)
    assert (st.turn, st.idle, st.over) == (1, 1, False)
    assert st.skips == (0, 0)
    assert st.barred == frozenset({0})


def test_failed_call_off_turn_costs_the_next_turn(jlex: Lexicon) -> None:
    st = open_board(seats=3)
    st, _ = play(st, 1, "jumbulaya STRAIGHT", jlex)
    assert (st.turn, st.skips) == (0, (0, 1, 0))
    st, _ = play(st, 0, "pass", jlex)
    assert st.turn == 2  # seat 1 lost its turn
    assert st.skips == (0, 0, 0)
    assert st.idle == 2  # the pass and the lost turn
    st, _ = play(st, 2, "pass", jlex)
    assert st.turn == 0


def test_two_failed_calls_cost_two_turns(jlex: Lexicon) -> None:
    st = open_board(rules="boardspace", seats=3)
    st = replace(st, rules=replace(st.rules, stall_rounds=0))
    st, _ = play(st, 1, "jumbulaya STRAIGHT", jlex)
    st, _ = play(st, 1, "jumbulaya CAT", jlex)  # no cooldown in boardspace
    assert st.skips == (0, 2, 0)
    st, _ = play(st, 0, "pass", jlex)
    st, _ = play(st, 2, "pass", jlex)
    assert st.turn == 0  # seat 1 skipped again
    st, _ = play(st, 0, "pass", jlex)
    assert st.turn == 2
    st, _ = play(st, 2, "pass", jlex)
    assert st.turn == 0


def test_cooldown_bar_and_its_release_by_another_player(jlex: Lexicon) -> None:
    st, _ = play(open_board(), 0, "jumbulaya STRAIGHT", jlex)
    r = refusal(st, 0, "jumbulaya SPRINTS", jlex)
    assert r.code == "jumbulaya_barred"
    assert "another player" in r.message
    st, _ = play(st, 1, "pass", jlex)
    assert st.barred == frozenset()
    st, (event,) = play(st, 0, "jumbulaya SPRINTS", jlex)
    assert isinstance(event, JumbulayaVerified)


def test_cooldown_not_released_by_own_turn(jlex: Lexicon) -> None:
    st = open_board()
    st, _ = play(st, 0, "jumbulaya STRAIGHT", jlex)  # seat 0 fails on turn
    st, _ = play(st, 1, "jumbulaya STRAIGHT", jlex)  # seat 1 fails on turn
    assert st.turn == 0 and st.barred == frozenset({0, 1})
    st, _ = play(st, 0, "pass", jlex)  # releases seat 1, not seat 0 itself
    assert st.barred == frozenset({0})
    assert refusal(st, 0, "jumbulaya SPRINTS", jlex).code == "jumbulaya_barred"
    st, (event,) = play(st, 1, "jumbulaya SPRINTS", jlex)
    assert isinstance(event, JumbulayaVerified)


def test_skipped_turns_failed_calls_and_resignations_do_not_release(jlex: Lexicon) -> None:
    st = open_board(seats=3)
    st, _ = play(st, 1, "jumbulaya STRAIGHT", jlex)  # seat 1 fails off turn
    st, _ = play(st, 0, "jumbulaya STRAIGHT", jlex)  # seat 0 fails on turn
    assert st.turn == 2 and st.skips == (0, 0, 0)  # seat 1's turn was skipped
    assert st.barred == frozenset({0, 1})
    st, _ = play(st, 2, "jumbulaya STRAIGHT", jlex)  # a failed call is not a turn
    assert st.barred == frozenset({0, 1, 2})
    assert refusal(st, 0, "jumbulaya SPRINTS", jlex).code == "jumbulaya_barred"


def test_resignation_does_not_release_but_a_timeout_does(jlex: Lexicon) -> None:
    st = open_board(seats=3)
    st, _ = play(st, 0, "jumbulaya STRAIGHT", jlex)
    st, _ = play(st, 2, "resign", jlex)
    assert refusal(st, 0, "jumbulaya SPRINTS", jlex).code == "jumbulaya_barred"
    st, _ = play(st, 1, "timeout", jlex)
    assert st.barred == frozenset()


def test_no_cooldown_allows_calling_again(jlex: Lexicon) -> None:
    st, _ = play(open_board(rules="boardspace"), 0, "jumbulaya STRAIGHT", jlex)
    assert st.barred == frozenset()
    st, (event,) = play(st, 0, "jumbulaya SPRINTS", jlex)
    assert isinstance(event, JumbulayaVerified)


# --- the end -------------------------------------------------------------------


def test_ten_tiles_ends_the_game_and_still_draws(jlex: Lexicon) -> None:
    st = make_state(lines=["A B C D E F G H"], racks=["I J K L M", "O"], bag_front="X Y")
    st, (event,) = play(st, 0, "1 ABCDEFGHIJ", jlex)
    assert event.drawn == ("X", "Y")  # type: ignore[attr-defined]
    assert (st.end, st.turn) == ("ten_tiles", None)
    assert st.scores()[0] == 20
    assert st.winners() == [0]


def test_all_lines(small_lex: Lexicon) -> None:
    st = claim_all(make_state(lines=["A C T", "D O G", "E L M"], racks=["F E", "O"]), [1] + [0] * 8)
    st, _ = play(st, 0, "1 CAT", small_lex)
    assert (st.end, st.turn) == ("all_lines", None)


def test_building_on_own_line_with_eight_owned_is_not_all_lines(small_lex: Lexicon) -> None:
    st = claim_all(make_state(lines=["A C T", "D O G"], racks=["F E", "O"]), [1] + [0] * 8)
    st, _ = play(st, 0, "2 GOD", small_lex)
    assert st.end is None and st.turn == 1


def test_ten_tiles_wins_over_all_lines(jlex: Lexicon) -> None:
    st = make_state(lines=["A B C D E F G H"], racks=["I J K L M", "O"])
    st = claim_all(st, [1] + [0] * 8)
    st, _ = play(st, 0, "1 ABCDEFGHIJ", jlex)
    assert st.end == "ten_tiles"


def test_stalled_after_rounds_times_players(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F", "O"], rules="boardspace")
    for seat in (0, 1, 0):
        st, _ = play(st, seat, "pass", small_lex)
        assert not st.over
    st, _ = play(st, 1, "pass", small_lex)
    assert (st.end, st.turn) == ("stalled", None)


def test_a_word_resets_the_stall_count(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F", "O"], rules="boardspace")
    st, _ = play(st, 0, "pass", small_lex)
    st, _ = play(st, 1, "exchange all", small_lex)
    st, _ = play(st, 0, "timeout", small_lex)
    st, _ = play(st, 1, "1 CAT", small_lex)
    assert st.idle == 0
    for seat in (0, 1, 0):
        st, _ = play(st, seat, "pass", small_lex)
    assert not st.over


def test_official_never_stalls(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F", "O"])
    for i in range(40):
        st, _ = play(st, i % 2, "pass", small_lex)
    assert not st.over and st.idle == 40


def test_lost_turns_count_towards_stalling(jlex: Lexicon) -> None:
    st = open_board(rules=replace(PRESETS["official"], stall_rounds=1))
    st, _ = play(st, 1, "jumbulaya STRAIGHT", jlex)  # seat 1 will lose a turn
    st, _ = play(st, 0, "pass", jlex)  # pass, then seat 1's lost turn: 2 = 1 x 2
    assert (st.end, st.turn) == ("stalled", None)


def test_resigned_wins_over_stalled(small_lex: Lexicon) -> None:
    rules = replace(PRESETS["official"], stall_rounds=1)
    st = make_state(lines=["A C T"], racks=["F", "O"], rules=rules)
    st, _ = play(st, 0, "pass", small_lex)
    st, (event,) = play(st, 1, "resign", small_lex)
    assert event == Resigned(1)
    assert st.end == "resigned"
    assert st.winners() == [0]


def test_resignation_rechecks_stalling(small_lex: Lexicon) -> None:
    rules = replace(PRESETS["official"], stall_rounds=1)
    st = make_state(lines=["A C T"], racks=["F", "O", "B"], rules=rules)
    st, _ = play(st, 0, "pass", small_lex)
    st, _ = play(st, 1, "pass", small_lex)
    assert not st.over and st.idle == 2
    st, _ = play(st, 0, "resign", small_lex)  # off turn: 2 passes = 1 x 2 players left
    assert st.end == "stalled"
    assert 0 not in st.winners()


def test_resignation_is_not_a_turn(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F", "O", "B"], rules="boardspace")
    st, _ = play(st, 0, "pass", small_lex)
    st, _ = play(st, 2, "resign", small_lex)
    assert st.idle == 1
    assert st.turn == 1  # off turn: the turn stays where it was


def test_resign_on_turn_passes_the_turn_on(small_lex: Lexicon) -> None:
    st = make_state(lines=["A C T"], racks=["F", "O", "B"])
    st, _ = play(st, 0, "resign", small_lex)
    assert st.turn == 1 and not st.over
    st, _ = play(st, 1, "pass", small_lex)
    st, _ = play(st, 2, "pass", small_lex)
    assert st.turn == 1  # seat 0 is skipped in the rotation
    assert refusal(st, 0, "pass", small_lex).code == "not_in_game"


def test_resigned_seat_keeps_scoring_and_never_wins(small_lex: Lexicon) -> None:
    st = make_state(lines=["F A C T S", "C A T"], racks=["B", "O", "D"])
    st, _ = play(st, 0, "1 FACTS", small_lex)
    st, _ = play(st, 1, "2 CAT", small_lex)
    st, _ = play(st, 0, "resign", small_lex)
    assert st.scores() == [5, 3, 0]
    assert st.racks[0]  # keeps its rack
    st, _ = play(st, 2, "resign", small_lex)
    assert st.end == "resigned"
    assert st.scores() == [5, 3, 0]
    assert st.winners() == [1]


# --- scores --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "points"), [(0, 0), (1, 0), (2, 0), (3, 3), (4, 4), (5, 5), (6, 6), (7, 10), (8, 12),
                      (9, 15), (10, 20)]
)  # fmt: skip
def test_line_tiers(n: int, points: int) -> None:
    assert line_points(("A",) * n) == points


def test_two_letter_tiles_add_a_point_each() -> None:
    assert line_points(("E", "QU", "A", "L", "LY")) == 7
    assert line_points(("TH", "ER", "ST", "CH", "ED", "LY", "QU")) == 17


def test_unclaimed_lines_score_nothing_and_ties_list_all_winners() -> None:
    st = make_state(lines=["A C T", "D O G", "E L M"], racks=["B", "O"])
    assert st.scores() == [0, 0]
    assert st.winners() == []  # not over
    st = claim_all(st, [0, 1, 0, 1, 0, 1, 0, 1, 0])
    assert st.scores() == [6, 3]
    tied = replace(claim_all(st, [0, 1, 1, 0, 0, 0, 0, 0, 0]), end="stalled", turn=None)
    assert tied.scores() == [3, 6]
    tied = replace(claim_all(st, [0, 1, None, 0, 0, 0, 0, 0, 0]), end="stalled", turn=None)  # type: ignore[list-item]
    assert tied.scores() == [3, 3]
    assert tied.winners() == [0, 1]


def test_a_bag_of_one_tile_is_said_in_the_singular(small_lex: Lexicon) -> None:
    st = replace(make_state(lines=["A C T"], racks=["F S E R TH", "O"]), bag=("X",))
    message = refusal(st, 0, "exchange F S", small_lex).message
    assert message.startswith("Only 1 tile is left in the bag, so you cannot exchange 2.")
