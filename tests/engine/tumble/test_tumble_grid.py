"""Reading a crossword as typed: every form, and the grids that cannot be read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.errors import Refusal
from games.engine.tumble.grid import Crossword, grid_from_cells, parse_grid, pieces, runs


def test_one_line_rows_separated_by_slashes() -> None:
    assert parse_grid("...H/FAME/...R/...O").rows == ("...H", "FAME", "...R", "...O")


def test_one_line_spaces_around_slashes_are_ignored() -> None:
    assert parse_grid("...H / FAME / ...R").rows == ("...H", "FAME", "...R")


def test_multi_line_with_spaces_for_empty_squares_and_ragged_rows() -> None:
    assert parse_grid("   H\nFAME\n   R\n   O").rows == ("...H", "FAME", "...R", "...O")
    assert parse_grid("FAME\n.T").rows == ("FAME", ".T..")


def test_empty_border_rows_and_columns_are_dropped() -> None:
    assert parse_grid("\n......\n..FAME\n...T..\n......").rows == ("FAME", ".T..")


def test_lower_case_is_a_blank_kept_as_typed() -> None:
    assert parse_grid("FAMe").rows == ("FAMe",)


def test_the_empty_crossword() -> None:
    for text in ("", ".", "...\n...", "  "):
        assert parse_grid(text).rows == ()
    assert Crossword(()).text() == "."


def test_a_colour_grid_in_both_forms_black_as_k_or_b() -> None:
    one = parse_grid("...H/FAME colours: ...B/RRRR")
    many = parse_grid("...H\nFAME\ncolours:\n   k\nrrrr")
    assert one == many
    assert one.colours == ("...K", "RRRR")
    assert one.text() == "...H/FAME colours: ...K/RRRR"


def test_a_colour_grid_may_leave_letters_to_the_service() -> None:
    assert parse_grid("IT colours: K?").colours == ("K?",)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("FA3E", "'3'"),
        ("FAME colours: RRXR", "'X'"),
        ("FAME colours: RRR", "shape"),
        ("FAME colours: RRRR/R", "shape"),
        ("FAME colours: RR.R", "has a letter but no colour"),
        ("FAME colours: R colours: R", "only once"),
        ("A" * 2001, "2001 characters"),
    ],
)
def test_bad_grids_are_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(Refusal) as err:
        parse_grid(text)
    assert err.value.code == "bad_grid"
    assert says in err.value.message


def test_runs_across_in_reading_order_then_down() -> None:
    found = runs(parse_grid(".....HE/..FAME/..IT.R/BIN..O").rows)
    assert [(r.direction, r.text) for r in found] == [
        ("across", "HE"),
        ("across", "FAME"),
        ("across", "IT"),
        ("across", "BIN"),
        ("down", "HERO"),
        ("down", "FIN"),
        ("down", "AT"),
    ]


def test_runs_read_blanks_as_their_letters() -> None:
    assert [r.text for r in runs(("FAMe",))] == ["FAME"]


def test_pieces_counts_orthogonal_connections_only() -> None:
    assert pieces({(0, 0), (0, 1), (1, 1)}) == 1
    assert pieces({(0, 0), (1, 1)}) == 2


@given(
    st.dictionaries(
        st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
        st.sampled_from("ABCxyz"),
        max_size=13,
    )
)
def test_any_crossword_reads_back_from_its_text(cells: dict[tuple[int, int], str]) -> None:
    grid = grid_from_cells(cells)
    assert parse_grid(grid.text()) == grid
    assert parse_grid("\n".join(grid.lines())) == grid
    assert sorted(grid.cells.values()) == sorted(cells.values())
