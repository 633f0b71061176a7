"""What one seat may see: the ``blockers-view/1`` document (docs/blockers-view.md).

:func:`seat_view` writes it for a seat (or a spectator, ``seat=None``) from the
game's events and state; :func:`read_view` reads one back, refusing anything
malformed with a :class:`BadView` that says what is wrong.  Robots read only
this document.  A seat sees the board, its own rack, every seat's rack and pile
*counts*, the captured tiles (they lie face up) and, per colour, the multiset of
its tiles it cannot see (``unseen``, sorted: it tells nothing of any order, and
follows from the public 28-tile set anyway).

:func:`view_state` turns a view into a :class:`BlockersState` the move
generator works on (other racks and every pile empty); :func:`guess_state` fills
the hidden tiles in at random, for a robot that samples what it cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import Refusal
from .board import SQUARE_INDEX, SQUARES, TILE_FACES, sort_tiles
from .events import Event, GameStarted, Passed, Resigned, TilePlaced, TimedOut
from .options import Options, options_from_json
from .state import BlockersState, board_json

FORMAT = "blockers-view/1"
Tiles = tuple[str, ...]


class BadView(ValueError):
    """A document that is not a readable ``blockers-view/1`` seat view."""


def _last(event: Event) -> dict[str, Any] | None:
    match event:
        case TilePlaced(seat=seat, tile=tile, square=square, captured=captured):
            return {"seat": seat, "kind": "place", "tile": tile, "square": square,
                    "captured": captured}  # fmt: skip
        case TimedOut(seat=seat, tile=tile, square=square, captured=captured):
            return {"seat": seat, "kind": "timeout", "tile": tile, "square": square,
                    "captured": captured}  # fmt: skip
        case Passed(seat=seat):
            return {"seat": seat, "kind": "pass"}
        case Resigned(seat=seat):
            return {"seat": seat, "kind": "resign"}
    return None


def unseen_tiles(state: BlockersState, colour: int, seat: int | None) -> Tiles:
    """The tiles of ``colour`` that ``seat`` cannot see (its pile for the seat's
    own colour, rack and pile for another's), sorted."""
    hidden = state.piles[colour] if colour == seat else state.racks[colour] + state.piles[colour]
    return sort_tiles(hidden)


def seat_view(events: Sequence[Event], state: BlockersState, seat: int | None) -> dict[str, Any]:
    """The ``blockers-view/1`` document of ``state`` (reached by folding
    ``events``) as ``seat`` sees it; ``seat=None`` is a spectator's view."""
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in a game of {state.seats}")
    last = None
    for event in reversed(events):
        if isinstance(event, GameStarted):
            break
        last = _last(event)
        if last is not None:
            break
    n = state.seats
    return {
        "format": FORMAT,
        "options": state.options.to_json(),
        "players": list(state.players),
        "colours": list(state.colours),
        "seat": seat,
        "status": "over" if state.over else "playing",
        "end": state.end,
        "next": state.turn,
        "board": board_json(state),
        "rack": None if seat is None else list(sort_tiles(state.racks[seat])),
        "rack_sizes": [len(r) for r in state.racks],
        "pile_sizes": [len(p) for p in state.piles],
        "unseen": [list(unseen_tiles(state, c, seat)) for c in range(n)],
        "captured": [[{"tile": face, "seat": c} for face, c in t] for t in state.taken],
        "groups": state.groups(),
        "scores": state.scores(),
        "turns_taken": list(state.turns_taken),
        "in_game": [state.in_game(s) for s in range(n)],
        "winners": state.winners(),
        "last": last,
    }


@dataclass(frozen=True, slots=True)
class SeatView:
    """A read seat view; field names follow the document's keys (``seat`` is
    ``None`` for a spectator, ``rack`` then empty)."""

    options: Options
    players: tuple[str, ...]
    seat: int | None
    status: str
    next: int | None
    owners: tuple[int, ...]
    faces: tuple[str, ...]
    rack: Tiles
    rack_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    unseen: tuple[Tiles, ...]
    taken: tuple[tuple[tuple[str, int], ...], ...]
    turns_taken: tuple[int, ...]
    in_game: tuple[bool, ...]

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.next == self.seat


def _need(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise BadView(f"the view has no {key!r}")
    return data[key]


def _seat_list(data: dict[str, Any], key: str, n: int, kind: type) -> list[Any]:
    value = _need(data, key)
    if not isinstance(value, list) or len(value) != n:
        raise BadView(f"{key!r} must list one value per seat ({n})")
    for v in value:
        if type(v) is not kind:
            raise BadView(f"{key!r} holds {v!r}, not a {kind.__name__}")
    return value


def _tiles(value: object, what: str) -> Tiles:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise BadView(f"{what} must be a list of tiles")
    for t in value:
        if t not in TILE_FACES:
            raise BadView(f"{what} holds {t!r}, which is not a tile (1-9, A-I, S1-S9, *)")
    return tuple(value)


def _seat_or_none(value: object, what: str, n: int) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < n:
        raise BadView(f"{what} must be a seat from 0 to {n - 1} or null, not {value!r}")
    return value


def _captured_tile(cell: dict[str, Any], taker: int, n: int) -> tuple[str, int]:
    what = f"a tile seat {taker} captured"
    colour = _seat_or_none(cell.get("seat"), what, n)
    if colour is None:
        raise BadView(f"{what} has no seat")
    return _tiles([cell.get("tile")], what)[0], colour


def read_view(data: object) -> SeatView:
    """Check a ``blockers-view/1`` document and read it."""
    if not isinstance(data, dict):
        raise BadView("a seat view is a JSON object")
    if data.get("format") != FORMAT:
        raise BadView(f"'format' must be exactly {FORMAT!r}, not {data.get('format')!r}")
    try:
        options = options_from_json(_need(data, "options"))
    except Refusal as e:
        raise BadView(e.message) from None
    players = _need(data, "players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadView("'players' must be a list of names")
    n = len(players)
    seat = _seat_or_none(_need(data, "seat"), "'seat'", n)
    status = _need(data, "status")
    if status not in ("playing", "over"):
        raise BadView(f"'status' must be 'playing' or 'over', not {status!r}")
    board = _need(data, "board")
    if not isinstance(board, dict):
        raise BadView('\'board\' must map squares to {"tile", "seat"}')
    owners, faces = [-1] * SQUARES, [""] * SQUARES
    for name, cell in board.items():
        if name not in SQUARE_INDEX:
            raise BadView(f"'board' names {name!r}, which is not a square (A1 to I9)")
        if not isinstance(cell, dict):
            raise BadView(f'\'board\' square {name} must be {{"tile", "seat"}}')
        owner = _seat_or_none(cell.get("seat"), f"the seat on {name}", n)
        if owner is None:
            raise BadView(f"the tile on {name} has no seat")
        owners[SQUARE_INDEX[name]] = owner
        faces[SQUARE_INDEX[name]] = _tiles([cell.get("tile")], f"the tile on {name}")[0]
    rack_value = _need(data, "rack")
    rack = () if rack_value is None else _tiles(rack_value, "'rack'")
    unseen_value = _need(data, "unseen")
    if not isinstance(unseen_value, list) or len(unseen_value) != n:
        raise BadView(f"'unseen' must list one list of tiles per seat ({n})")
    unseen = tuple(_tiles(u, f"'unseen' of seat {i}") for i, u in enumerate(unseen_value))
    captured = _need(data, "captured")
    if not isinstance(captured, list) or len(captured) != n:
        raise BadView(f"'captured' must list one list per seat ({n})")
    taken = []
    for i, row in enumerate(captured):
        if not isinstance(row, list) or not all(isinstance(c, dict) for c in row):
            raise BadView(f'\'captured\' of seat {i} must be a list of {{"tile", "seat"}}')
        taken.append(tuple(_captured_tile(c, i, n) for c in row))
    return SeatView(
        options=options,
        players=tuple(players),
        seat=seat,
        status=status,
        next=_seat_or_none(_need(data, "next"), "'next'", n),
        owners=tuple(owners),
        faces=tuple(faces),
        rack=rack,
        rack_sizes=tuple(_seat_list(data, "rack_sizes", n, int)),
        pile_sizes=tuple(_seat_list(data, "pile_sizes", n, int)),
        unseen=unseen,
        taken=tuple(taken),
        turns_taken=tuple(_seat_list(data, "turns_taken", n, int)),
        in_game=tuple(_seat_list(data, "in_game", n, bool)),
    )


def view_state(view: SeatView, racks: Sequence[Tiles] | None = None) -> BlockersState:
    """A state with the view's board, captures and turns: the viewer's rack, and
    ``racks`` (or empty racks) for the others; every pile empty."""
    n = len(view.players)
    if racks is None:
        racks = [view.rack if s == view.seat else () for s in range(n)]
    turns = view.turns_taken
    return BlockersState(
        options=view.options,
        players=view.players,
        owners=view.owners,
        faces=view.faces,
        racks=tuple(racks),
        piles=((),) * n,
        captures=tuple(tuple(sum(1 for _, c in t if c == k) for k in range(n)) for t in view.taken),
        taken=view.taken,
        turns_taken=turns,
        turn=view.next,
        resigned=frozenset(s for s in range(n) if not view.in_game[s]),
        end=None if view.status == "playing" else "complete",
    )


def guess_state(view: SeatView, rng: random.Random) -> BlockersState:
    """:func:`view_state` with every other seat's rack drawn at random from its
    unseen tiles (as many as its rack holds): one guess at what it cannot see."""
    racks = []
    for s, unseen in enumerate(view.unseen):
        if s == view.seat:
            racks.append(view.rack)
        else:
            racks.append(tuple(rng.sample(unseen, min(view.rack_sizes[s], len(unseen)))))
    return view_state(view, racks)
