"""The seat view: own roll and sealed submission, never another's before the close."""

from __future__ import annotations

import json

import pytest
from tumble_helpers import EX3, EX3_ROLL, EX4, EX4_ROLL, SEED_WORDS, fixed, two

from games.engine.tumble import BadView, decide, evolve, read_view, seat_view


def test_a_seat_sees_its_own_sealed_submission_and_not_the_others() -> None:
    state = two()
    for e in decide(state, 0, f"submit {EX3}", SEED_WORDS, fixed()):
        state = evolve(state, e)
    mine = seat_view(state, 0, lexicon="default")
    theirs = seat_view(state, 1, lexicon="default")
    assert mine["own"]["points"] == 21 and "FAME" in mine["own"]["crossword"]
    assert theirs["own"] is None
    assert "FAME" not in json.dumps(theirs) and "FAME" not in json.dumps(
        seat_view(state, None, lexicon="default")
    )
    assert theirs["waiting"] == [1]  # that seat 0 has submitted is public
    assert theirs["rolls"] == [EX3_ROLL, EX4_ROLL]  # both rolls are public


def test_closed_rounds_are_revealed_to_everyone() -> None:
    state = two()
    for seat, grid in ((0, EX3), (1, EX4)):
        for e in decide(state, seat, f"submit {grid}", SEED_WORDS, fixed(EX4_ROLL, EX3_ROLL)):
            state = evolve(state, e)
    doc = seat_view(state, 1, lexicon="default")
    assert doc["rounds"][0]["points"] == [21, 36]
    assert "BIN" in doc["rounds"][0]["crosswords"][1] and "IN" in doc["rounds"][0]["crosswords"][0]
    assert doc["totals"] == [21, 36] and doc["round"] == 2 and doc["own"] is None


def test_read_view_reads_what_seat_view_writes_and_refuses_bad_documents() -> None:
    view = read_view(seat_view(two(), 1, lexicon="default"))
    assert (view.seat, view.roll, view.to_play) == (1, EX4_ROLL, True)
    doc = seat_view(two(), 1, lexicon="default")
    for key, value in (("format", "x"), ("rolls", ["AAA"]), ("seat", None), ("totals", [1])):
        with pytest.raises(BadView):
            read_view(doc | {key: value})
