"""Blockers notation: the canonical forms, the forgiving forms, and what is refused."""

from __future__ import annotations

import pytest

from games.engine.blockers import Pass, Place, Resign, Timeout, format_move, parse_move, verb_of
from games.engine.errors import Refusal


@pytest.mark.parametrize(
    ("text", "tile", "square"),
    [
        ("7 at C7", "7", "C7"),
        ("S5 at E4", "S5", "E4"),
        ("* at E5", "*", "E5"),
        ("7 C7", "7", "C7"),
        ("C at C7", "C", "C7"),
        ("i at i9", "I", "I9"),
    ],
)
def test_canonical_forms(text: str, tile: str, square: str) -> None:
    assert parse_move(text) == Place(tile, square)
    assert format_move(parse_move(text)) == f"{tile} at {square}"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("  7   AT   c7  ", "7 at C7"),
        ("7c7", "7 at C7"),
        ("7 at c 7", "7 at C7"),
        ("s5e4", "S5 at E4"),
        ("S5 E4", "S5 at E4"),
        ("sector 5 at e4", "S5 at E4"),
        ("Symbol5 on E4", "S5 at E4"),
        ("wild at e5", "* at E5"),
        ("BLOCKERS! at E5", "* at E5"),
        ("*e5", "* at E5"),
        ("7 @ C7", "7 at C7"),
        ("7 at C7.", "7 at C7"),
        ("Cc7", "C at C7"),
    ],
)
def test_forgiving_forms(text: str, canonical: str) -> None:
    assert format_move(parse_move(text)) == canonical


def test_verbs() -> None:
    assert parse_move("pass") == Pass()
    assert parse_move(" Resign. ") == Resign()
    assert parse_move("TIMEOUT") == Timeout()
    assert [format_move(c) for c in (Pass(), Resign(), Timeout())] == ["pass", "resign", "timeout"]
    assert verb_of("  Resign now") == "resign"
    assert verb_of("") == ""


@pytest.mark.parametrize(
    "text",
    ["", "7", "at C7", "7 at C", "7 at J7", "7 at C0", "0 at C7", "J at J1", "S0 at A1",
     "S10 at A1", "X at A1", "7 at C7 please", "7 to C7", "exchange"],
)  # fmt: skip
def test_unreadable_moves_are_bad_move(text: str) -> None:
    with pytest.raises(Refusal) as e:
        parse_move(text)
    assert e.value.code == "bad_move"
    assert "7 at C7" in e.value.message
