"""The notation: reading, writing, and what cannot be read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.crossword.notation import (
    Challenge,
    Exchange,
    Pass,
    Play,
    Resign,
    Timeout,
    format_move,
    parse_move,
    verb_of,
)
from games.engine.errors import Refusal


def test_a_number_then_a_letter_plays_across_a_letter_then_a_number_down() -> None:
    assert parse_move("8H WORD") == Play(7, 7, True, "WORD")
    assert parse_move("h8 WORD") == Play(7, 7, False, "WORD")
    assert parse_move("15o ox") == Play(14, 14, True, "ox")


def test_lower_case_letters_are_blanks_and_parentheses_mark_board_letters() -> None:
    play = parse_move("8H (L)oVE")
    assert isinstance(play, Play)
    assert (play.word, play.marked) == ("LoVE", 0b1)
    assert parse_move("a1 CA(T)(S)") == Play(0, 0, False, "CATS", 0b1100)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("8h  (L)(O)ve", "8H (LO)ve"),
        ("H8 (L)O(V)E", "H8 (L)O(V)E"),
        ("PASS", "pass"),
        ("exchange q ? e", "exchange Q?E"),
        ("Challenge", "challenge"),
        ("resign", "resign"),
        ("timeout", "timeout"),
    ],
)
def test_format_writes_the_canonical_form(text: str, canonical: str) -> None:
    assert format_move(parse_move(text)) == canonical
    assert format_move(parse_move(canonical)) == canonical


def test_the_other_moves() -> None:
    assert [parse_move(m) for m in ("pass", "challenge", "resign", "timeout")] == [
        Pass(),
        Challenge(),
        Resign(),
        Timeout(),
    ]
    assert parse_move("exchange ABC") == Exchange("ABC")
    assert verb_of("8H WORD") == verb_of("H8 WORD") == "play"
    assert verb_of("  Challenge ") == "challenge"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_move"),
        ("8H", "bad_move"),
        ("8H TWO WORDS", "bad_move"),
        ("8H W0RD", "bad_move"),
        ("8H WO(RD", "bad_move"),
        ("8H WO)RD", "bad_move"),
        ("8H WO()RD", "bad_move"),
        ("8H W((O))RD", "bad_move"),
        ("8H ()", "bad_move"),
        ("8H WÖRD", "bad_move"),
        ("pass now", "bad_move"),
        ("exchange", "bad_move"),
        ("exchange A-B", "bad_move"),
        ("play WORD", "bad_move"),
        ("16H WORD", "bad_square"),
        ("0H WORD", "bad_square"),
        ("8P WORD", "bad_square"),
        ("P8 WORD", "bad_square"),
        ("123H WORD", "bad_square"),
    ],
)
def test_what_cannot_be_read_is_refused(text: str, code: str) -> None:
    with pytest.raises(Refusal) as caught:
        parse_move(text)
    assert caught.value.code == code
    assert caught.value.message


_words = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefz", min_size=1, max_size=15)


@settings(max_examples=200, derandomize=True)
@given(
    row=st.integers(0, 14),
    col=st.integers(0, 14),
    across=st.booleans(),
    word=_words,
    marks=st.integers(0, 2**15 - 1),
)
def test_format_then_parse_gives_the_same_play(
    row: int, col: int, across: bool, word: str, marks: int
) -> None:
    play = Play(row, col, across, word, marks & ((1 << len(word)) - 1))
    text = format_move(play)
    assert parse_move(text) == play
    assert format_move(parse_move(text)) == text


@pytest.mark.slow
@settings(max_examples=300, derandomize=True)
@given(st.text(max_size=30))
def test_any_text_is_read_or_refused_with_a_code(text: str) -> None:
    try:
        command = parse_move(text)
    except Refusal as refusal:
        assert refusal.code in ("bad_move", "bad_square")
    else:
        assert format_move(parse_move(format_move(command))) == format_move(command)
