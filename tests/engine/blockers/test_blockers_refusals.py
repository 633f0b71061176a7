"""Every refusal code, and the spec's order when a move breaks several rules:
notation, game over, not your turn, pass not allowed, not in rack, wrong square,
own tile, splits a group (``not_in_game``, a seat that resigned, comes after
game over).  A refused move changes nothing."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from blockers_helpers import position

from games.engine.blockers import BlockersState, decide
from games.engine.errors import Refusal

# Seat 0 owns A1 and the line E4-E6 is seat 1's (E5 is its middle).
ROWS = [
    "0........",
    ".........",
    ".........",
    ".........",
    "...111...",
    ".........",
    ".........",
    ".........",
    ".........",
]


def refusal(state: BlockersState, seat: int, move: str) -> str:
    before = copy.deepcopy(state)
    with pytest.raises(Refusal) as e:
        decide(state, seat, move)
    assert state == before
    assert e.value.message
    return e.value.code


@pytest.fixture
def state() -> BlockersState:
    return position(ROWS, racks=[("5", "A", "*"), ("1", "2"), ("3",)])


def test_notation_comes_first(state: BlockersState) -> None:
    over = replace(state, end="complete", turn=None)
    assert refusal(over, 1, "5 at Z9") == "bad_move"


def test_game_over_before_the_seat(state: BlockersState) -> None:
    over = replace(state, end="complete", turn=None)
    assert refusal(over, 1, "9 at A1") == "game_over"
    assert refusal(over, 0, "resign") == "game_over"


def test_not_in_game_before_the_turn(state: BlockersState) -> None:
    gone = replace(state, resigned=frozenset({1}))
    assert refusal(gone, 1, "9 at A1") == "not_in_game"
    assert refusal(gone, 1, "resign") == "not_in_game"


def test_not_your_turn_before_the_move_itself(state: BlockersState) -> None:
    assert refusal(state, 1, "9 at A1") == "not_your_turn"
    assert refusal(state, 1, "pass") == "not_your_turn"
    assert refusal(state, 1, "timeout") == "not_your_turn"


def test_pass_not_allowed_with_a_legal_move(state: BlockersState) -> None:
    assert refusal(state, 0, "pass") == "pass_not_allowed"


def test_not_in_rack_before_wrong_square(state: BlockersState) -> None:
    # 9 is not in the rack, and column 9 has no A1 either.
    assert refusal(state, 0, "9 at A1") == "not_in_rack"


def test_wrong_square_before_own_tile(state: BlockersState) -> None:
    # 5 goes in column 5; A1 is column 1 (and holds seat 0's own tile).
    assert refusal(state, 0, "5 at A1") == "wrong_square"


def test_own_tile(state: BlockersState) -> None:
    assert refusal(state, 0, "A at A1") == "own_tile"
    assert refusal(state, 0, "* at A1") == "own_tile"


def test_splits_group(state: BlockersState) -> None:
    assert refusal(state, 0, "5 at E5") == "splits_group"


def test_legal_moves_beside_the_refused_ones(state: BlockersState) -> None:
    assert decide(state, 0, "A at A2")[0].captured is None  # type: ignore[attr-defined]
    assert decide(state, 0, "* at E4")[0].captured == 1  # type: ignore[attr-defined]
    assert decide(state, 0, "5 at A5")[0].captured is None  # type: ignore[attr-defined]


def test_resign_may_come_off_turn(state: BlockersState) -> None:
    assert [e.type for e in decide(state, 2, "resign")] == ["resigned"]
