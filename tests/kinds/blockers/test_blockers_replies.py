"""How a Blockers move is read from a reply: short and forgiving, never a guess."""

from __future__ import annotations

import pytest

from games.kinds.blockers.replies import read_move, read_reply


@pytest.mark.parametrize(
    ("line", "move"),
    [
        ("7 at C7", "7 at C7"),
        ("7 C7", "7 at C7"),
        ("7c7", "7 at C7"),
        ("play 7 to c7.", "7 at C7"),
        ("C7 7", "7 at C7"),  # the square first
        ("c7: c", "C at C7"),
        ("* at E5", "* at E5"),
        ("wild E5", "* at E5"),
        ("E5 *", "* at E5"),
        ("s5 at e4", "S5 at E4"),
        ("sector 5 E4", "S5 at E4"),
        ("Pass", "pass"),
        ("resign #12", "resign"),
        ("hint", "hint"),
    ],
)
def test_forms_read_as_the_notation(line: str, move: str) -> None:
    assert read_move(line) == move


@pytest.mark.parametrize("line", ["C7", "7", "7 at J7", "7 at C0", "10 at C1", "thanks!", "a1 b2"])
def test_what_is_not_a_move_is_not_guessed(line: str) -> None:
    assert read_move(line) is None


def test_a_reply_s_first_move_line_and_the_position_it_answers() -> None:
    reading = read_reply("Hi all,\n7 at C7 #14\nthanks\n\nOn Tue, Jo wrote:\n> 8 at D8")
    assert (reading.move, reading.answering, reading.problem) == ("7 at C7", 14, None)
    quoted_only = read_reply("> 7 at C7")
    assert quoted_only.move is None and quoted_only.problem is not None
    assert "“7 at C7”" in quoted_only.problem


def test_a_resignation_counts_only_alone_on_the_first_line() -> None:
    assert not read_reply("resign").unconfirmed_resign
    assert read_reply("Sorry,\nresign").unconfirmed_resign
