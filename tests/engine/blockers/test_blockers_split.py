"""The split test of reading 4, on the shapes the spec lists: what may be taken
and what may not, checked through ``decide`` as a player would meet it."""

from __future__ import annotations

import pytest
from blockers_helpers import position

from games.engine.blockers import decide, splits
from games.engine.blockers.board import SQUARE_INDEX
from games.engine.errors import Refusal


def board(*squares: str) -> list[str]:
    """Rows with seat 1's tiles on ``squares``."""
    cells = [["."] * 9 for _ in range(9)]
    for sq in squares:
        cells["ABCDEFGHI".index(sq[0])][int(sq[1]) - 1] = "1"
    return ["".join(r) for r in cells]


def can_take(squares: tuple[str, ...], target: str) -> bool:
    state = position(board(*squares), racks=[("*",), ("1",), ("1",)])
    try:
        events = decide(state, 0, f"* at {target}")
    except Refusal as e:
        assert e.code == "splits_group"
        return False
    assert events[0].captured == 1  # type: ignore[attr-defined]
    return True


LINE = ("E4", "E5", "E6")
L_SHAPE = ("D4", "E4", "E5")
T_SHAPE = ("D4", "D5", "D6", "E5")
RING = ("D4", "D5", "D6", "E4", "E6", "F4", "F5", "F6")
BLOCK = ("D4", "D5", "E4", "E5")


def test_a_lone_tile_can_be_taken() -> None:
    assert can_take(("E5",), "E5")


def test_either_tile_of_a_pair_can_be_taken() -> None:
    assert can_take(("E5", "E6"), "E5")
    assert can_take(("E5", "E6"), "E6")


@pytest.mark.parametrize("target", RING)
def test_any_tile_of_a_ring_can_be_taken(target: str) -> None:
    assert can_take(RING, target)


@pytest.mark.parametrize("target", BLOCK)
def test_any_tile_of_a_2x2_block_can_be_taken(target: str) -> None:
    assert can_take(BLOCK, target)


def test_the_middle_of_a_line_cannot_be_taken_but_its_ends_can() -> None:
    assert not can_take(LINE, "E5")
    assert can_take(LINE, "E4") and can_take(LINE, "E6")


def test_the_corner_of_an_l_cannot_be_taken_but_its_ends_can() -> None:
    assert not can_take(L_SHAPE, "E4")
    assert can_take(L_SHAPE, "D4") and can_take(L_SHAPE, "E5")


def test_the_centre_of_a_t_cannot_be_taken_but_its_arms_can() -> None:
    assert not can_take(T_SHAPE, "D5")
    assert all(can_take(T_SHAPE, sq) for sq in ("D4", "D6", "E5"))


def test_diagonal_tiles_do_not_connect() -> None:
    # D4 and E5 touch only at a corner: each is a lone tile, and E4 between... is empty.
    assert can_take(("D4", "E5"), "D4")
    # D5 joins D4 and... nothing diagonal: D4-D5 pair plus E6 (diagonal to D5) stays apart.
    assert can_take(("D4", "D5", "E6"), "D5")


def test_neighbour_counting_is_not_enough() -> None:
    # D5 has two neighbours in both shapes; only in the ring do they meet elsewhere.
    ring = position(board(*RING)).owners
    line = position(board("D4", "D5", "D6")).owners
    assert not splits(ring, SQUARE_INDEX["D5"])
    assert splits(line, SQUARE_INDEX["D5"])


def test_only_the_captured_colour_counts() -> None:
    # Seat 2's tile between two of seat 1's does not join them: E5 splits nothing of seat 2's.
    rows = board("E4", "E6")
    rows[4] = rows[4][:4] + "2" + rows[4][5:]
    state = position(rows, racks=[("*",), ("1",), ("1",)])
    assert decide(state, 0, "* at E5")[0].captured == 2  # type: ignore[attr-defined]
