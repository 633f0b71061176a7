"""The Blockers board and tiles: squares, sectors, which squares a tile may go on.

Squares are numbered 0–80 in reading order: ``A1`` is 0, ``A9`` is 8, ``I9`` is 80
(row letter ``A``–``I`` top to bottom, column number ``1``–``9`` left to right).
Sectors are the nine 3×3 blocks in reading order, ``S1`` (rows A–C × columns 1–3)
to ``S9``; ``S5`` is the centre.

>>> square_index("C7"), square_name(24), sector_of(square_index("E5"))
(24, 'C7', 5)
>>> [square_name(i) for i in TILE_SQUARES["S1"][:4]]
['A1', 'A2', 'A3', 'B1']
>>> fits("7", square_index("C7")), fits("C", square_index("C7")), fits("S3", square_index("C7"))
(True, True, True)
>>> fits("6", square_index("C7")), len(TILE_SQUARES[WILD])
(False, 81)
"""

from __future__ import annotations

SIZE = 9
SQUARES = SIZE * SIZE
ROWS = "ABCDEFGHI"
COLUMNS = "123456789"

#: The wild tile (the BLOCKERS! tile): it goes on any square.
WILD = "*"
NUMBERS: tuple[str, ...] = tuple(COLUMNS)
LETTERS: tuple[str, ...] = tuple(ROWS)
SYMBOLS: tuple[str, ...] = tuple(f"S{n}" for n in range(1, 10))
#: One colour's 28 tiles, in a fixed order (numbers, letters, symbols, the wild).
TILE_SET: tuple[str, ...] = (*NUMBERS, *LETTERS, *SYMBOLS, WILD)
TILE_FACES = frozenset(TILE_SET)
#: A tile's place in :data:`TILE_SET`, the canonical order of racks and moves.
TILE_ORDER: dict[str, int] = {t: i for i, t in enumerate(TILE_SET)}

#: Squares a seat's rack starts with, and turns each seat takes (reading 8).
RACK_SIZE = 5
TURNS_EACH = len(TILE_SET) - RACK_SIZE + 1


def square_name(index: int) -> str:
    return f"{ROWS[index // SIZE]}{COLUMNS[index % SIZE]}"


def square_index(name: str) -> int:
    """The index of a square written canonically (``C7``); ``KeyError`` if none."""
    return SQUARE_INDEX[name]


SQUARE_NAMES: tuple[str, ...] = tuple(square_name(i) for i in range(SQUARES))
SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}


def sector_of(index: int) -> int:
    """The sector (1–9) a square lies in."""
    return (index // SIZE) // 3 * 3 + (index % SIZE) // 3 + 1


def _squares_for(tile: str) -> tuple[int, ...]:
    if tile == WILD:
        return tuple(range(SQUARES))
    if tile in NUMBERS:
        column = COLUMNS.index(tile)
        return tuple(r * SIZE + column for r in range(SIZE))
    if tile in LETTERS:
        row = ROWS.index(tile)
        return tuple(row * SIZE + c for c in range(SIZE))
    sector = int(tile[1:])
    return tuple(i for i in range(SQUARES) if sector_of(i) == sector)


#: The squares each tile may go on, in reading order.
TILE_SQUARES: dict[str, tuple[int, ...]] = {t: _squares_for(t) for t in TILE_SET}
_FITS: dict[str, frozenset[int]] = {t: frozenset(s) for t, s in TILE_SQUARES.items()}


def fits(tile: str, index: int) -> bool:
    """Whether ``tile`` may go on square ``index`` (its column, row or sector)."""
    return index in _FITS[tile]


def _neighbours(index: int) -> tuple[int, ...]:
    row, column = divmod(index, SIZE)
    out = []
    if row > 0:
        out.append(index - SIZE)
    if column > 0:
        out.append(index - 1)
    if column < SIZE - 1:
        out.append(index + 1)
    if row < SIZE - 1:
        out.append(index + SIZE)
    return tuple(out)


#: Each square's orthogonal neighbours (diagonals never connect).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(SQUARES))


def sort_tiles(tiles: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Tiles in the canonical order of :data:`TILE_SET`."""
    return tuple(sorted(tiles, key=TILE_ORDER.__getitem__))
