"""The rules beyond single refusals: placing and drawing, forced capture, the
wild, the pass with no legal move, resigning, timeouts, the end, scores and ties."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from blockers_helpers import EMPTY, position

from games.engine.blockers import (
    BlockersState,
    Options,
    Passed,
    TilePlaced,
    TimedOut,
    deal,
    decide,
    evolve,
    legal_moves,
    start,
)
from games.engine.errors import Refusal


def play(state: BlockersState, seat: int, move: str) -> BlockersState:
    for event in decide(state, seat, move):
        state = evolve(state, event)
    return state


def test_the_deal() -> None:
    started = deal(("a", "b", "c", "d"), Options(), random.Random(5))
    assert all(len(r) == 5 for r in started.racks) and all(len(p) == 23 for p in started.piles)
    for rack, pile in zip(started.racks, started.piles, strict=True):
        assert sorted(rack + pile) == sorted(
            [*"123456789", *"ABCDEFGHI", *(f"S{n}" for n in range(1, 10)), "*"]
        )
    assert 0 <= started.first < 4
    assert started.PRIVATE == ("racks", "piles")
    with pytest.raises(ValueError):
        deal(("a", "b"), Options(), random.Random(5))


def test_a_placement_draws_a_tile_of_the_seats_own_pile() -> None:
    state = position(racks=[("7", "B"), ("1",), ("2",)], piles=[("C", "D"), ("3",), ()])
    events = decide(state, 0, "7 at C7")
    drawn = getattr(events[0], "drawn", None)
    assert drawn in ("C", "D") and events == [TilePlaced(0, "7", "C7", None, drawn)]
    after = evolve(state, events[0])
    assert after.racks[0] == ("B", drawn) and after.piles[0] == (("C", "D")[drawn == "C"],)
    assert after.faces[2 * 9 + 6] == "7" and after.owners[2 * 9 + 6] == 0
    assert after.turn == 1 and after.turns_taken == (1, 0, 0)
    # Seat 2's pile is empty: its turn draws nothing.
    after = play(play(after, 1, "1 at A1"), 2, "2 at A2")
    assert after.racks[2] == () and after.turn == 0


def test_capturing_is_allowed_when_an_empty_square_fits() -> None:
    rows = [".1.......", *EMPTY[1:]]
    state = position(rows, racks=[("A",), ("1",), ("2",)])
    moves = {m.notation(): m.captured for m in legal_moves(state, 0)}
    assert moves["A at A2"] == 1 and moves["A at A1"] is None
    after = play(state, 0, "A at A2")
    assert after.captures[0] == (0, 1, 0) and after.taken[0] == (("*", 1),)


def test_capture_is_forced_when_no_tile_fits_an_empty_square() -> None:
    # Column 7 is full: seat 1 holds A7-E7, seat 2 holds F7-I7.  Only the ends
    # of each line may be taken; nothing can go on an empty square.
    rows = ["......1.."] * 5 + ["......2.."] * 4
    state = position(rows, racks=[("7",), ("1",), ("2",)])
    assert sorted(m.notation() for m in legal_moves(state, 0)) == [
        "7 at A7", "7 at E7", "7 at F7", "7 at I7",
    ]  # fmt: skip
    with pytest.raises(Refusal) as e:
        decide(state, 0, "pass")
    assert e.value.code == "pass_not_allowed"
    assert play(state, 0, "7 at E7").captures[0] == (0, 1, 0)


def test_no_legal_move_at_all_is_a_pass_that_counts_as_a_turn() -> None:
    # Column 7 is all seat 0's own, so its 7 has nowhere to go.
    rows = ["......0.."] * 9
    state = position(rows, racks=[("7",), ("1",), ("2",)], piles=[("C",), (), ()])
    assert legal_moves(state, 0) == []
    with pytest.raises(Refusal) as e:
        decide(state, 0, "7 at A7")
    assert e.value.code == "own_tile"
    assert decide(state, 0, "pass") == [Passed(0)]
    after = play(state, 0, "pass")
    assert after.turns_taken == (1, 0, 0) and after.turn == 1
    assert after.racks[0] == ("7",) and after.piles[0] == ("C",)  # nothing drawn


def test_the_wild_goes_anywhere_and_may_capture_and_be_captured() -> None:
    state = position(racks=[("*",), ("3",), ("2",)])
    assert len(legal_moves(state, 0)) == 81
    state = play(state, 0, "* at I1")
    assert state.faces[72] == "*"
    state = replace(state, racks=(state.racks[0], ("I",), ("2",)))
    after = play(state, 1, "I at I1")  # the wild stands alone: it may be taken
    assert after.owners[72] == 1 and after.taken[1] == (("*", 0),)
    back = replace(after, racks=(("*",), ("3",), ("2",)), turn=0)
    assert play(back, 0, "* at I1").captures[0] == (0, 1, 0)


def test_a_timeout_plays_the_first_move_on_an_empty_square() -> None:
    rows = ["1........", *EMPTY[1:]]
    state = position(rows, racks=[("B", "A", "1"), ("2",), ("3",)], piles=[("C",), (), ()])
    # Canonical order: the number 1 first, then squares in reading order; A1 is
    # a capture, so the first empty square for 1 is B1.
    assert decide(state, 0, "timeout") == [TimedOut(0, "1", "B1", None, "C")]
    after = play(state, 0, "timeout")
    assert after.owners[9] == 0 and after.turn == 1 and after.racks[0] == ("B", "A", "C")


def test_a_timeout_captures_only_when_it_must_and_passes_with_no_move() -> None:
    rows = ["......1.."] * 5 + ["......2.."] * 4
    state = position(rows, racks=[("7",), ("1",), ("2",)])
    assert decide(state, 0, "timeout") == [TimedOut(0, "7", "A7", 1, None)]
    own = position(["......0.."] * 9, racks=[("7",), ("1",), ("2",)])
    assert decide(own, 0, "timeout") == [TimedOut(0, None, None, None, None)]
    assert play(own, 0, "timeout").turns_taken == (1, 0, 0)


def test_resigning_skips_the_seat_and_keeps_its_tiles() -> None:
    rows = ["..2......", *EMPTY[1:]]
    state = position(rows, racks=[("1",), ("2",), ("3",)])
    state = play(state, 2, "resign")  # off turn
    assert state.turn == 0 and not state.in_game(2) and state.owners[2] == 2
    state = play(state, 0, "1 at A1")
    assert state.turn == 1
    state = play(state, 1, "2 at B2")
    assert state.turn == 0  # seat 2 is skipped
    state = play(state, 1, "resign")
    assert state.over and state.end == "resigned" and state.winners() == [0]


def test_resigning_on_turn_passes_the_turn_on() -> None:
    state = position(racks=[("1",), ("2",), ("3",)])
    state = play(state, 0, "resign")
    assert state.turn == 1 and not state.over


def test_the_game_ends_after_24_turns_each_with_four_tiles_left() -> None:
    state = start(deal(("a", "b", "c"), Options(), random.Random(11), first=2))
    order = []
    while not state.over:
        seat = state.turn
        assert seat is not None
        order.append(seat)
        state = play(state, seat, "timeout")
    assert len(order) == 72 and order[:4] == [2, 0, 1, 2] and order[-1] == 1
    assert state.end == "complete" and state.turns_taken == (24, 24, 24)
    assert [len(r) for r in state.racks] == [4, 4, 4] and state.piles == ((), (), ())
    assert all(state.tile_count(s) == 28 for s in range(3))
    with pytest.raises(Refusal) as e:
        decide(state, 2, "timeout")
    assert e.value.code == "game_over"


def test_the_score_is_groups_plus_the_colour_captured_most() -> None:
    rows = [
        "00.1.....",
        ".........",
        "0...11...",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "........2",
    ]
    state = position(rows, captures=[(0, 2, 1), (0, 0, 0), (3, 0, 0)])
    # Seat 0: 2 groups + 2 (blue taken most); seat 1: 2 groups; seat 2: 1 group + 3.
    assert state.groups() == [2, 2, 1]
    assert state.scores() == [4, 2, 4]
    assert replace(state, end="complete").winners() == [1]


def test_an_empty_board_and_no_captures_score_zero() -> None:
    assert position().scores() == [0, 0, 0]


def test_ties_go_to_fewest_total_captures_then_are_shared() -> None:
    rows = ["0.1.2....", *EMPTY[1:]]
    # All score 1 + most captured: seat 0 takes 1 of each colour (most 1, total 2),
    # seat 1 takes 1 (most 1, total 1), seat 2 takes 1 (most 1, total 1).
    state = position(rows, captures=[(0, 1, 1), (1, 0, 0), (0, 1, 0)])
    assert state.scores() == [2, 2, 2]
    assert state.winners() == []  # not over yet
    over = replace(state, end="complete", turn=None)
    assert over.winners() == [1, 2]
    # A resigned seat never wins.
    assert replace(over, resigned=frozenset({1})).winners() == [2]
