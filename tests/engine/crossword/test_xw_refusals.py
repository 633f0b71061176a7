"""Every refusal code of a crossword move, each with its message; a refused
move changes nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest
from xw_helpers import game, move

from games.engine.crossword.commands import decide
from games.engine.crossword.options import PRESETS
from games.engine.crossword.state import GameState, state_to_json
from games.engine.errors import Refusal

WORDS = frozenset({"CAT", "CATS", "SAT", "AT", "TA"})
ASYNC = replace(PRESETS["standard"], challenge="async")


def mid() -> GameState:
    return game(("SATIREQ", "EEEIOUA"), "8G CAT", bag="ABCDEFGHIJKLMNOPQRST")


def empty() -> GameState:
    return game(("SATIREQ", "EEEIOUA"), bag="ABCDEFGHIJKLMNOPQRST")


def refused(state: GameState, seat: int, text: str, code: str) -> str:
    before = state_to_json(state)
    with pytest.raises(Refusal) as caught:
        decide(state, seat, text, WORDS)
    assert caught.value.code == code, caught.value.message
    assert state_to_json(state) == before
    return caught.value.message


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("8H C@T", "bad_move"),
        ("8Q CAT", "bad_square"),
        ("16A CAT", "bad_square"),
        ("8M SATIRE", "off_board"),
        ("9G (A)T", "not_on_board"),
        ("8G COT", "letter_differs"),
        ("8H AT", "word_extends"),
        ("8G CA", "word_extends"),
        ("8G CAT", "no_new_tile"),
        ("2B SAT", "not_connected"),
        ("J8 S", "wrong_direction"),
        ("8G CATX", "missing_tiles"),
        ("8G CATE", "not_a_word"),
        ("exchange ZZ", "missing_tiles"),
        ("challenge", "no_challenges"),
    ],
)
def test_refusals_on_a_board(text: str, code: str) -> None:
    refused(mid(), 0, text, code)


def test_the_first_play_must_cover_the_centre_with_two_tiles() -> None:
    refused(empty(), 0, "7G SAT", "not_through_centre")
    refused(empty(), 0, "H9 SAT", "not_through_centre")
    refused(empty(), 0, "8H S", "too_few_tiles")


def test_the_board_letters_may_be_written_plainly_or_in_parentheses() -> None:
    for text in ("8G CATS", "8G (CAT)S", "8G C(A)TS", "8G (c)ATS"):
        (event,) = decide(mid(), 0, text, WORDS)
        assert event.squares == (7 * 15 + 9,)  # type: ignore[attr-defined]


def test_messages_say_what_was_read() -> None:
    assert "8H holds A, not O" in refused(mid(), 0, "8G COT", "letter_differs")
    assert "CATE" in refused(mid(), 0, "8G CATE", "not_a_word")
    assert "CATS" in refused(mid(), 0, "J8 S", "wrong_direction")


def test_turn_and_seat_checks() -> None:
    refused(mid(), 1, "8G CATS", "not_your_turn")
    refused(mid(), 2, "pass", "not_in_game")
    resigned = move(game(("A", "B", "C")), 1, "resign", WORDS)
    refused(resigned, 1, "pass", "not_in_game")
    over = move(game(("A", "B")), 1, "resign", WORDS)
    assert over.over
    refused(over, 0, "pass", "game_over")


def test_exchange_limits() -> None:
    six = game(("SATIREQ", "E"), "8G CAT", bag="ABCDEF")
    assert "holds 6" in refused(six, 0, "exchange Q", "bag_too_small")
    seven = game(("SATIREQ", "E"), "8G CAT", bag="ABCDEFG")
    (event,) = decide(seven, 0, "exchange SATIREQ", WORDS)
    assert sorted(event.drawn) == list("ABCDEFG")  # type: ignore[attr-defined]
    sharing = game(("SATIREQXY", "E"), bag="ABCDEFGH", options=PRESETS["sharing"])
    refused(sharing, 0, "exchange SATIREQXY", "bag_too_small")
    decide(sharing, 0, "exchange SATIREQX", WORDS)


def test_challenge_refusals_in_async_mode() -> None:
    state = game(("SATIREQ", "EEEIOUA"), bag="ABCDEFGHIJKLMNOPQRST", options=ASYNC)
    refused(state, 1, "challenge", "nothing_to_challenge")
    after = move(state, 0, "8G SAT", WORDS)
    refused(after, 0, "challenge", "own_play")
    after = move(after, 1, "pass", WORDS)
    refused(after, 0, "challenge", "nothing_to_challenge")


def test_counts_of_one_are_said_in_the_singular() -> None:
    """Issue 29, point 8: no "1 tiles", no "1 letters"."""
    assert "there is room for 1 letter across" in refused(mid(), 0, "8O AT", "off_board")
    one = game(("SATIREQ", "E"), "8G CAT", bag="A")
    assert refused(one, 0, "exchange Q", "bag_too_small").startswith("The bag holds 1 tile:")
