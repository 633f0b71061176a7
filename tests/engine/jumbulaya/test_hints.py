"""Hints: the best word moves for a rack, read from the seat view only."""

from __future__ import annotations

import itertools

from engine_helpers import make_started

from games.engine.jumbulaya import lexicon_from_words, start
from games.engine.jumbulaya.hints import hints
from games.engine.jumbulaya.view import read_view, seat_view

WORDS = ["CAT", "CATS", "FACT", "FACTS", "ACT", "ACTS", "SPRINTS", "QUIT", "QUITS"]
LEX = lexicon_from_words(WORDS)
LINES = ["C A T", "QU I T"]


def view_of(racks: list[str], seat: int = 0):  # type: ignore[no-untyped-def]
    started = make_started(LINES, racks, bag_front="E E")
    state = start(started)
    return read_view(seat_view([started], state, seat, lexicon="default"))


def test_the_best_moves_come_first_with_their_points() -> None:
    found = hints(view_of(["F S", "B D"]), LEX)
    best = found[0]
    assert (best.word, best.line, best.points, best.gain) == ("FACTS", 1, 5, 5)
    assert all(a.gain >= b.gain for a, b in itertools.pairwise(found))
    assert len(found) <= 5


def test_hints_never_name_a_jumbulaya_and_use_only_the_seats_own_tiles() -> None:
    view = view_of(["F S", "B D"])
    for h in hints(view, LEX, n=50):
        assert not h.notation.lower().startswith("jumbulaya")
        assert 1 <= h.line <= 2


def test_the_hidden_tiles_change_nothing() -> None:
    """Two positions alike for seat 0 but for another rack and the bag: the
    same view, so the same hints (the function is given nothing else)."""
    one = view_of(["F S", "B D"])
    other = view_of(["F S", "S H"])
    assert one.rack == other.rack and one.lines == other.lines
    assert hints(one, LEX, n=50) == hints(other, LEX, n=50)


def test_no_hints_for_a_rack_without_a_word() -> None:
    assert hints(view_of(["B D", "F S"]), lexicon_from_words(["SPRINTS", "FACTS"])) == []
