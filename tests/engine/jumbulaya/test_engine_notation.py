"""Move notation: parse and format (record spec, "Move notation")."""

from __future__ import annotations

import pytest

from games.engine.jumbulaya import Refusal, format_move, format_word, parse_move
from games.engine.jumbulaya.notation import (
    CallJumbulaya,
    Exchange,
    Pass,
    PlayWord,
    Resign,
    Timeout,
    WordSpec,
    explicit_word,
)


def refused(text: str) -> Refusal:
    with pytest.raises(Refusal) as info:
        parse_move(text)
    return info.value


def test_plain_word_move_is_letters_without_tiles() -> None:
    assert parse_move("3 FACTS") == PlayWord(2, WordSpec("FACTS"))


def test_case_insensitive_and_any_whitespace() -> None:
    assert parse_move("  3\tfacts \n") == PlayWord(2, WordSpec("FACTS"))
    assert parse_move("PASS") == Pass()
    assert parse_move("Exchange q X") == Exchange(("QU", "X"))


def test_leading_zeros_in_line_number() -> None:
    assert parse_move("007 cat") == PlayWord(6, WordSpec("CAT"))
    assert parse_move("09 cat").line == 8


@pytest.mark.parametrize("text", ["0 CAT", "10 CAT", "00 CAT", "99 CAT"])
def test_bad_line(text: str) -> None:
    r = refused(text)
    assert r.code == "bad_line"
    assert "1 to 9" in r.message


def test_huge_line_number_is_bad_line_not_a_crash() -> None:
    assert refused("1" * 5000 + " CAT").code == "bad_line"
    assert parse_move("0" * 5000 + "3 CAT") == PlayWord(2, WordSpec("CAT"))


def test_brackets_name_two_letter_tiles() -> None:
    assert parse_move("3 E[QU]AL[LY]").word.tiles == ("E", "QU", "A", "L", "LY")


def test_q_outside_brackets_takes_its_u() -> None:
    assert parse_move("3 EQUAL[LY]").word.tiles == ("E", "QU", "A", "L", "LY")


def test_hyphens_one_tile_per_part() -> None:
    assert parse_move("3 E-QU-A-L-LY").word.tiles == ("E", "QU", "A", "L", "LY")
    assert parse_move("3 B-A-T-C-H").word.tiles == ("B", "A", "T", "C", "H")
    assert parse_move("3 B-A-T-[CH]").word.tiles == ("B", "A", "T", "CH")


def test_lone_q_part_means_qu() -> None:
    assert parse_move("3 E-Q-A-L-LY").word.tiles == ("E", "QU", "A", "L", "LY")
    assert parse_move("3 E[Q]AL[LY]").word.tiles == ("E", "QU", "A", "L", "LY")
    assert parse_move("exchange Q").tiles == ("QU",)


def test_plain_q_without_u_is_unknown_tile() -> None:
    r = refused("3 QAT")
    assert r.code == "unknown_tile"
    assert "Q" in r.message


@pytest.mark.parametrize("text", ["3 [SH]OT", "3 S-H-X-SH", "jumbulaya [XX]ABCDEF", "exchange SH"])
def test_unknown_faces(text: str) -> None:
    r = refused(text)
    assert r.code == "unknown_tile"
    assert "SH" in r.message or "XX" in r.message


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "3",
        "3 CAT DOG",
        "3 C[]T",
        "3 C[AT",
        "3 CA]T",
        "3 C[[A]]T",
        "3 C--AT",
        "3 -CAT",
        "3 CAT-",
        "3 C-[A-T]",
        "3 C4T",
        "3 CAT!",
        "pass now",
        "resign please",
        "timeout 3",
        "exchange",
        "exchange A1",
        "exchange all A",
        "3 \ufb01sh",
        "3 stra\u00dfe",
        "\u0663 CAT",
        "exchange A all",
        "jumbulaya",
        "jumbulaya TWO WORDS",
        "build 3 CAT",
        "-1 CAT",
        "3.0 CAT",
    ],
)
def test_bad_shapes_are_bad_move(text: str) -> None:
    r = refused(text)
    assert r.code == "bad_move"
    assert r.message


def test_bad_move_before_bad_line_before_unknown_tile() -> None:
    assert refused("0 C[]T").code == "bad_move"
    assert refused("0 [SH]OT").code == "bad_line"
    assert refused("3 [SH]OT").code == "unknown_tile"


def test_simple_verbs() -> None:
    assert parse_move("pass") == Pass()
    assert parse_move("resign") == Resign()
    assert parse_move("timeout") == Timeout()
    assert parse_move("exchange all") == Exchange(None)
    assert parse_move("exchange [TH] e") == Exchange(("TH", "E"))


def test_jumbulaya_call_plain_and_explicit() -> None:
    assert parse_move("jumbulaya sprints") == CallJumbulaya(WordSpec("SPRINTS"))
    call = parse_move("JUMBULAYA [ST]RIPE[ED]")
    assert isinstance(call, CallJumbulaya)
    assert call.word.tiles == ("ST", "R", "I", "P", "E", "ED")


def test_explicit_word_forms() -> None:
    assert explicit_word(("O", "TH", "E", "R")) == "O[TH]ER"
    assert explicit_word(("B", "A", "T", "C", "H")) == "B-A-T-C-H"
    assert explicit_word(("QU",)) == "[QU]"


def test_format_word_is_plain_only_when_unambiguous() -> None:
    assert format_word(("C", "A", "T")) == "CAT"
    assert format_word(("E", "QU", "A", "L")) == "EQUAL"  # QU is the only spelling
    assert format_word(("O", "T", "H", "E", "R")) == "O-T-H-E-R"
    assert format_word(("O", "TH", "ER")) == "O[TH][ER]"


@pytest.mark.parametrize(
    "text",
    [
        "3 FACTS",
        "3 E[QU]AL[LY]",
        "3 B-A-T-C-H",
        "9 O[TH]ER",
        "pass",
        "resign",
        "timeout",
        "exchange QU X",
        "exchange all",
        "jumbulaya SPRINTS",
        "jumbulaya [ST]RIPE[ED]",
    ],
)
def test_format_then_parse_round_trip(text: str) -> None:
    command = parse_move(text)
    assert parse_move(format_move(command)) == command
