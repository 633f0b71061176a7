"""Commands: ``decide(state, seat, move, draw) -> events``, or a :class:`Refusal`.

A pure function of its arguments (the draw function is the only source of
chance): a turn's draw is picked at the moment of drawing from the whole of
the seat's own pile (:func:`draw_random`) and recorded in its event, so a log
replays without chance and a pile's order tells nothing.

When a move breaks several rules, the refusal is the first in the spec's order
(reading 10): notation (``bad_move``), ``game_over``, ``not_in_game`` (a seat
that resigned), ``not_your_turn``, ``pass_not_allowed``, ``not_in_rack``,
``wrong_square``, ``own_tile``, ``splits_group``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

from ..common.turns import check_in_game, check_turn
from ..errors import Refusal
from .board import SQUARE_INDEX, SQUARE_NAMES, TILE_SQUARES, WILD, sector_of
from .events import Event, Passed, Resigned, TilePlaced, TimedOut
from .groups import splits
from .movegen import first_move, legal_moves
from .notation import Command, Pass, Place, Resign, Timeout, parse_move
from .state import BlockersState


def _seat_checks(state: BlockersState, seat: int, off_turn: bool) -> None:
    check_in_game(state, seat)
    if not off_turn:
        check_turn(state, seat, "a resignation")


#: ``draw(pile)`` picks the tile a turn draws from a seat's pile (never empty).
Drawer = Callable[[tuple[str, ...]], str]


def drawer(rng: random.Random) -> Drawer:
    """Draws picked by ``rng``: a seeded one for matches, tests and benchmarks."""
    return rng.choice


_RANDOM = secrets.SystemRandom()


def draw_random(pile: tuple[str, ...]) -> str:
    """A tile picked at random from the whole pile, at the moment of drawing,
    with the operating system's generator: no seed exists that could replay or
    predict it."""
    return _RANDOM.choice(pile)


def draw_front(pile: tuple[str, ...]) -> str:
    """The front of the pile (how a record's turns that list no draw draw)."""
    return pile[0]


def _draw(state: BlockersState, seat: int, draw: Drawer) -> str | None:
    pile = state.piles[seat]
    return draw(pile) if pile else None


def _where(tile: str) -> str:
    if tile[0] == "S":
        return f"sector {tile} (the 3×3 block marked {tile})"
    if tile.isdigit():
        return f"column {tile}"
    return f"row {tile}"


def check_place(state: BlockersState, seat: int, command: Place) -> int | None:
    """The seat whose tile ``command`` captures (``None``: an empty square), or
    the refusal of its own checks, in the spec's order."""
    tile, name = command.tile, command.square
    if tile not in state.racks[seat]:
        rack = " ".join(state.racks[seat]) or "nothing"
        raise Refusal("not_in_rack", f"Your rack holds {rack}: there is no {tile} in it.")
    square = SQUARE_INDEX[name]
    if square not in TILE_SQUARES[tile]:
        assert tile != WILD
        raise Refusal(
            "wrong_square",
            f"{tile} goes in {_where(tile)}; {name} is in row {name[0]}, column {name[1]} "
            f"and sector S{sector_of(square)}.",
        )
    owner = state.owners[square]
    if owner < 0:
        return None
    if owner == seat:
        raise Refusal("own_tile", f"{name} holds your own tile: you can capture only others'.")
    if splits(state.owners, square):
        raise Refusal(
            "splits_group",
            f"Taking {state.players[owner]}'s {state.faces[square]} at {name} would split "
            "their group in two: a capture must leave the group in one piece.",
        )
    return owner


def decide(
    state: BlockersState, seat: int, move: str | Command, draw: Drawer = draw_random
) -> list[Event]:
    """The events that record ``seat`` making ``move`` (notation or a parsed
    command), or a :class:`Refusal` saying why the rules do not allow it;
    ``draw`` picks the tile a placement draws."""
    command = parse_move(move) if isinstance(move, str) else move
    _seat_checks(state, seat, off_turn=isinstance(command, Resign))
    match command:
        case Resign():
            return [Resigned(seat)]
        case Pass():
            moves = legal_moves(state, seat)
            if moves:
                raise Refusal(
                    "pass_not_allowed",
                    f"You cannot pass: you have a legal move (such as {moves[0].notation()}). "
                    "A player passes only when no rack tile can go anywhere.",
                )
            return [Passed(seat)]
        case Timeout():
            found = first_move(state, seat)
            if found is None:
                return [TimedOut(seat, None, None, None, None)]
            name = SQUARE_NAMES[found.square]
            return [TimedOut(seat, found.tile, name, found.captured, _draw(state, seat, draw))]
        case Place():
            captured = check_place(state, seat, command)
            drawn = _draw(state, seat, draw)
            return [TilePlaced(seat, command.tile, command.square, captured, drawn)]
    raise TypeError(f"not a command: {command!r}")
