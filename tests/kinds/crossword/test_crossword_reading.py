"""Reading a crossword move out of an email reply, and a seat view document
for the robots: forgiving where a move is plain, refusing with reasons where
it is not."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.crossword import view
from games.engine.crossword.deal import deal
from games.engine.crossword.fold import start
from games.engine.crossword.options import PRESETS
from games.kinds.crossword.replies import read_reply
from games.kinds.crossword.view_reading import read_view


@pytest.mark.parametrize(
    ("text", "move", "answering"),
    [
        ("8H FACTS", "8H FACTS", None),
        ("h8 facts", "H8 FACTS", None),
        ("  8h   Facts  #17", "8H Facts", 17),  # mixed case: the lower-case letters are blanks
        ("Please play 8 h FACTS, thanks!", "8H FACTS", None),
        ("8H (l)ove", "8H (L)OVE", None),
        ("exchange abc", "exchange ABC", None),
        ("Exchange q ? z #4", "exchange Q?Z", 4),
        ("PASS.", "pass", None),
        ("challenge #9", "challenge", 9),
        ("hint", "hint", None),
        ("Hello!\n\n8H FACTS\n", "8H FACTS", None),
    ],
)
def test_a_reply_s_move_is_read(text: str, move: str, answering: int | None) -> None:
    reading = read_reply(text)
    assert (reading.move, reading.answering, reading.problem) == (move, answering, None)


def test_a_reply_without_a_move_says_the_forms() -> None:
    reading = read_reply("Can I play 8H FACTS?\nI think so.\n> 8H JESUS")
    assert reading.move is None and reading.problem is not None
    assert reading.problem.startswith("“Can I play 8H FACTS?” is not a move.")
    assert "“8H FACTS”, “H8 FACTS”" in reading.problem and "#17" in reading.problem


def test_resign_alone_on_the_first_line_is_taken_and_elsewhere_waits() -> None:
    assert not read_reply("resign").unconfirmed_resign
    assert read_reply("Thanks for the game\nresign").unconfirmed_resign


def _doc() -> dict[str, Any]:
    started = deal(("Ann", "Bob"), PRESETS["standard"], "default", random.Random(3))
    return view.seat_view([started], start(started), 0, lexicon="default")


def test_a_seat_view_is_read_into_the_robots_position() -> None:
    doc = _doc()
    seen = read_view(doc)
    position = seen.position()
    assert position.rack == doc["rack"] and position.bag == 86 and len(position.unseen) == 93
    assert seen.lexicon == "default" and seen.next == doc["next"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "jumbulaya-view/1"}, "'format' must be 'crossword-view/1'"),
        ({"seat": 5}, "'seat' must be a seat from 0 to 1 or null"),
        ({"board": ["." * 15] * 14}, "'board' must list the 15 rows"),
        ({"board": ["." * 14 + "1"] + ["." * 15] * 14}, "board row 1 must be 15 characters"),
        ({"rack": "AB3"}, "'rack' must be a string of tiles"),
        ({"bag": 200}, "'bag' holds more tiles than are unseen"),
        ({"scores": [0]}, "'scores' must hold one score per player"),
        ({"lexicon": 7}, "'lexicon' must be a word list's name"),
        ({"options": {"rack_size": 8}}, "'options.rack_size' must be 7 or 9"),
    ],
)
def test_a_bad_seat_view_is_refused_with_what_is_wrong(
    change: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        read_view(_doc() | change)
