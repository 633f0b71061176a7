"""Every legal move of a seat: placements on empty squares and captures.

A rack tile may go on any square of its column, row or sector (the wild on
any): onto an empty square, or capturing an opponent's tile when the capture
does not split that tile's group (reading 4).  Capturing is always allowed
(reading 3); it is forced only in the sense that with no empty square for any
rack tile the captures are all that is left.  With no legal move at all the
seat passes (reading 7), so :func:`legal_moves` is empty exactly when ``pass``
is legal.

Moves come in the canonical order: tiles as :data:`~.board.TILE_SET` orders
them, then squares in reading order.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import SQUARE_NAMES, TILE_SQUARES, sort_tiles
from .groups import splits
from .state import BlockersState


@dataclass(frozen=True, slots=True)
class Move:
    """A legal placement: ``tile`` on square index ``square``, taking the tile of
    seat ``captured`` (``None``: the square is empty)."""

    tile: str
    square: int
    captured: int | None

    def notation(self) -> str:
        return f"{self.tile} at {SQUARE_NAMES[self.square]}"


def legal_moves(state: BlockersState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now (none when the game is over, the seat is
    out of it or it is not its turn)."""
    if state.over or state.turn != seat:
        return []
    owners = state.owners
    takeable: dict[int, bool] = {}
    out: list[Move] = []
    for tile in dict.fromkeys(sort_tiles(state.racks[seat])):
        for square in TILE_SQUARES[tile]:
            owner = owners[square]
            if owner < 0:
                out.append(Move(tile, square, None))
            elif owner != seat:
                ok = takeable.get(square)
                if ok is None:
                    ok = takeable[square] = not splits(owners, square)
                if ok:
                    out.append(Move(tile, square, owner))
    return out


def first_move(state: BlockersState, seat: int) -> Move | None:
    """The move a timeout makes: the first legal placement on an empty square in
    the canonical order, else the first legal capture, else ``None`` (a pass)."""
    moves = legal_moves(state, seat)
    for move in moves:
        if move.captured is None:
            return move
    return moves[0] if moves else None
