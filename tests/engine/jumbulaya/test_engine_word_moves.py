"""Word moves through ``decide``: every check of rule 1, in order, plus the
refusal precedence, ambiguity, trades and draws."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import assert_full_set, make_state, play

from games.engine.jumbulaya import (
    PRESETS,
    Lexicon,
    Refusal,
    WordBuilt,
    decide,
    draw_front,
    lexicon_from_words,
)

# line 1: A C T, line 2: O T H E, line 3: F A C T S;  racks: seat 0, seat 1
LINES = ["A C T", "O T H E", "F A C T S", "R ED"]
RACKS = ["F S E R TH", "A B I N O"]


def state(**kw: object):  # type: ignore[no-untyped-def]
    kw.setdefault("lines", LINES)
    kw.setdefault("racks", RACKS)
    kw.setdefault("bag_front", "E L N")
    return make_state(**kw)  # type: ignore[arg-type]


def refusal(st, seat: int, move: str, lex: Lexicon) -> Refusal:  # type: ignore[no-untyped-def]
    with pytest.raises(Refusal) as info:
        decide(st, seat, move, lex, draw_front)
    return info.value


def test_spec_example_first_turn(small_lex: Lexicon) -> None:
    st, events = play(state(), 0, "1 FACTS", small_lex)
    assert events == [WordBuilt(0, 0, ("F", "A", "C", "T", "S"), ("E", "L"))]
    line = st.lines[0]
    assert (line.tiles, line.word, line.owner) == (("F", "A", "C", "T", "S"), "FACTS", 0)
    assert sorted(st.racks[0]) == sorted(["E", "R", "TH", "E", "L"])
    assert st.turn == 1
    assert st.scores() == [5, 0]
    assert_full_set(st)


def test_missing_tiles(small_lex: Lexicon) -> None:
    r = refusal(state(), 0, "1 FACTZ", small_lex)
    assert r.code == "missing_tiles"
    assert "Z" in r.message and "line 1" in r.message


def test_too_many_rack_tiles(small_lex: Lexicon) -> None:
    st = state(lines=["A T"], racks=["F C S E R", "B"])
    r = refusal(st, 0, "1 FACTS", small_lex)
    assert r.code == "too_many_rack_tiles"
    assert "at most 2" in r.message
    assert "3 tiles" in r.message


def test_rack_limit_override_allows_more(small_lex: Lexicon) -> None:
    st = state(
        lines=["A T"], racks=["F C S E R", "B"], rules=replace(PRESETS["official"], rack_limit=3)
    )
    st, _ = play(st, 0, "1 FACTS", small_lex)
    assert st.lines[0].word == "FACTS"


def test_line_shrinks(small_lex: Lexicon) -> None:
    r = refusal(state(), 0, "3 FACT", small_lex)
    assert r.code == "line_shrinks"
    assert "never gets shorter" in r.message


def test_too_long() -> None:
    lex = lexicon_from_words(["ABCDEFGHIJK"])
    st = make_state(lines=["A B C D E F G H I"], racks=["J K", "L"])
    r = refusal(st, 0, "1 ABCDEFGHIJK", lex)
    assert r.code == "too_long"
    assert "at most 10" in r.message


def test_not_a_word(small_lex: Lexicon) -> None:
    r = refusal(state(), 0, "1 TCA", small_lex)
    assert r.code == "not_a_word"
    assert "TCA" in r.message


def test_first_word_on_a_line_is_new_even_as_dealt(small_lex: Lexicon) -> None:
    st, _ = play(state(), 0, "1 ACT", small_lex)
    assert st.lines[0].word == "ACT" and st.lines[0].owner == 0


def test_not_new_current_word(small_lex: Lexicon) -> None:
    st, _ = play(state(), 0, "1 CAT", small_lex)
    r = refusal(st, 1, "1 CAT", small_lex)
    assert r.code == "not_new"
    assert "CAT" in r.message
    st, _ = play(st, 1, "1 ACT", small_lex)
    assert st.lines[0].owner == 1


def test_respelling_the_same_letters_is_not_new(small_lex: Lexicon) -> None:
    # line 4 holds R, ED: RED; replacing ED by E and D is not a new word
    st = state(racks=["E D S A B", "O"])
    st, _ = play(st, 0, "4 R[ED]", small_lex)
    assert st.lines[3].tiles == ("R", "ED")
    st = replace(st, turn=0)
    r = refusal(st, 0, "4 R-E-D", small_lex)
    assert r.code == "not_new"


def test_history_rule_refuses_any_earlier_word(small_lex: Lexicon) -> None:
    for preset, allowed in (("boardspace", False), ("official", True)):
        st = state(rules=preset)
        st, _ = play(st, 0, "1 CAT", small_lex)
        st, _ = play(st, 1, "1 ACT", small_lex)
        if allowed:
            st, _ = play(st, 0, "1 CAT", small_lex)
            assert st.lines[0].word == "CAT"
        else:
            r = refusal(st, 0, "1 CAT", small_lex)
            assert r.code == "not_new"
            assert "already held CAT" in r.message


def test_ambiguous_lists_accepted_forms(small_lex: Lexicon) -> None:
    # OTHER on O T H E: add R (5 tiles) or add ER and trade E (4 tiles)
    st = state(racks=["R ER A B I", "O"])
    r = refusal(st, 0, "2 OTHER", small_lex)
    assert r.code == "ambiguous"
    assert set(r.accepted) == {"2 O-T-H-E-R", "2 OTH[ER]"}
    for form in r.accepted:
        assert form in r.message
        (event,) = decide(st, 0, form, small_lex, draw_front)
        assert isinstance(event, WordBuilt)
        assert "".join(event.tiles) == "OTHER"


def test_plain_word_with_one_legal_spelling_is_accepted(small_lex: Lexicon) -> None:
    st = state(racks=["R A B I N", "O"])
    st, (event,) = play(st, 0, "2 OTHER", small_lex)
    assert isinstance(event, WordBuilt)
    assert event.tiles == ("O", "T", "H", "E", "R")


def test_no_legal_spelling_gives_the_furthest_refusal(small_lex: Lexicon) -> None:
    # O-T-H-E-R is not new; O-TH-E-R shrinks the line; O-T-H-ER / O-TH-ER lack ER
    st = state(lines=["A C T", "O T H E R"], racks=["TH A B I N", "O"])
    st = replace(st, lines=(st.lines[0], replace(st.lines[1], word="OTHER"), *st.lines[2:]))
    r = refusal(st, 0, "2 OTHER", small_lex)
    assert r.code == "not_new"


def test_line_tiles_are_used_before_rack_tiles(small_lex: Lexicon) -> None:
    # the line holds A, C, T and the rack another A, C, T: only F enters the line
    st = make_state(lines=["A C T"], racks=["F A C T B", "O"], bag_front="E L N")
    st, (event,) = play(st, 0, "1 FACT", small_lex)
    assert isinstance(event, WordBuilt)
    assert event.drawn == ("E",)
    assert sorted(st.racks[0]) == sorted(["A", "C", "T", "B", "E"])


def test_trade_sends_line_tiles_to_the_rack(small_lex: Lexicon) -> None:
    # line C A T S; FACT takes F from the rack and sends S to it: no draw
    st = make_state(lines=["C A T S"], racks=["F B D G I", "O"], bag_front="E L N")
    st, (event,) = play(st, 0, "1 FACT", small_lex)
    assert isinstance(event, WordBuilt)
    assert event.drawn == ()
    assert sorted(st.racks[0]) == sorted(["B", "D", "G", "I", "S"])
    assert st.bag[:3] == ("E", "L", "N")
    assert_full_set(st)


def test_draws_refill_to_five_and_are_recorded(small_lex: Lexicon) -> None:
    st = make_state(lines=["A T"], racks=["F C B D G", "O"], bag_front="E L N")
    st, (event,) = play(st, 0, "1 FACT", small_lex)
    assert isinstance(event, WordBuilt)
    assert event.drawn == ("E", "L")
    assert len(st.racks[0]) == 5
    assert st.bag[:1] == ("N",)


def test_draws_stop_when_the_bag_is_empty(small_lex: Lexicon) -> None:
    st = make_state(lines=["A T"], racks=["F C B D G", "O"], bag_front="E")
    st = replace(st, bag=("E",))
    st, (event,) = play(st, 0, "1 FACT", small_lex)
    assert isinstance(event, WordBuilt)
    assert event.drawn == ("E",)
    assert st.bag == ()
    assert len(st.racks[0]) == 4


def test_a_player_may_claim_a_line_they_own(small_lex: Lexicon) -> None:
    st, _ = play(state(), 0, "1 CAT", small_lex)
    st = replace(st, turn=0)
    st, _ = play(st, 0, "1 ACT", small_lex)
    assert st.lines[0].owner == 0


# --- refusal precedence -------------------------------------------------------


def test_game_over_comes_first(small_lex: Lexicon) -> None:
    st = replace(state(), end="stalled", turn=None, resigned=frozenset({1}))
    assert refusal(st, 1, "x y z", small_lex).code == "game_over"
    assert refusal(st, 0, "resign", small_lex).code == "game_over"


def test_not_in_game_before_not_your_turn(small_lex: Lexicon) -> None:
    st = make_state(lines=LINES, racks=["A", "B", "C"])
    st, _ = play(st, 2, "resign", small_lex)
    r = refusal(st, 2, "pass", small_lex)
    assert r.code == "not_in_game"
    assert refusal(st, 2, "jumbulaya SPRINTS", small_lex).code == "not_in_game"


def test_not_your_turn_before_bad_move(small_lex: Lexicon) -> None:
    r = refusal(state(), 1, "3 C[]T", small_lex)
    assert r.code == "not_your_turn"
    assert "p0" in r.message


def test_off_turn_verbs_are_read_before_the_turn_check(small_lex: Lexicon) -> None:
    assert refusal(state(), 1, "jumbulaya", small_lex).code == "bad_move"
    assert refusal(state(), 1, "jumbulaya [SH]ABCDEF", small_lex).code == "unknown_tile"


def test_bad_move_bad_line_unknown_tile_then_own_checks(small_lex: Lexicon) -> None:
    st = state()
    assert refusal(st, 0, "0 [X", small_lex).code == "bad_move"
    assert refusal(st, 0, "10 [SH]", small_lex).code == "bad_line"
    assert refusal(st, 0, "1 [SH]ACTS", small_lex).code == "unknown_tile"
    # unknown_tile comes before jumbulaya_closed
    assert refusal(st, 0, "jumbulaya Q-[SH]-A-B-C-D-E", small_lex).code == "unknown_tile"


def test_word_checks_run_in_order(small_lex: Lexicon) -> None:
    # a move that breaks every check reports the first: missing tiles
    st = make_state(lines=["A B C D E F G H I"], racks=["J K L", "O"])
    assert refusal(st, 0, "1 ZZ", small_lex).code == "missing_tiles"
    # enough tiles but too many from the rack, too short and not a word
    st = make_state(lines=["A B C D E F G H I"], racks=["J K L M N", "O"])
    assert refusal(st, 0, "1 JKL", small_lex).code == "too_many_rack_tiles"
    # shrinks and not a word
    assert refusal(st, 0, "1 AJ", small_lex).code == "line_shrinks"
    # too long and not a word
    assert refusal(st, 0, "1 ABCDEFGHIJK", small_lex).code == "too_long"


def test_a_refused_move_changes_nothing(small_lex: Lexicon) -> None:
    st = state()
    before = (st.lines, st.racks, st.bag, st.turn)
    refusal(st, 0, "1 FACTZ", small_lex)
    assert (st.lines, st.racks, st.bag, st.turn) == before


def test_a_refusal_counts_one_tile_in_the_singular(small_lex: Lexicon) -> None:
    """Issue 29, point 8: "[R] has 1 tiles"."""
    r = refusal(state(), 0, "3 [R]", small_lex)
    assert r.code == "line_shrinks"
    assert "[R] has 1 tile but line 3 holds 5" in r.message
