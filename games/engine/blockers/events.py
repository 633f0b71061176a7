"""Blockers events: the facts a game's log is made of.

Each is a frozen dataclass; :func:`to_dict` and :func:`from_dict` turn them
into JSON-ready dicts and back.  ``PRIVATE`` names the fields only the event's
seat may see: the deal's racks and piles (every seat's, so the deal is shown to
nobody whole) and a turn's draw.  Draws are recorded as the tiles drawn, never
as a seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..common import events as common
from ..common.events import event_of
from ..common.events import to_dict as to_dict
from ..errors import BadRecord
from .options import Options, options_from_json

Tiles = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Event(common.Event):
    """A Blockers event."""


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The deal: each seat's rack and the rest of its pile (in the set's order
    since draws are random; a game dealt before then has it in draw order)."""

    type: ClassVar[str] = "game_started"
    PRIVATE: ClassVar[tuple[str, ...]] = ("racks", "piles")
    options: Options
    players: tuple[str, ...]
    first: int
    racks: tuple[Tiles, ...]
    piles: tuple[Tiles, ...]


@dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    """``seat`` put ``tile`` on ``square``, taking the tile of seat ``captured``
    (``None``: the square was empty), then drew ``drawn`` (``None``: its pile was empty)."""

    type: ClassVar[str] = "tile_placed"
    PRIVATE: ClassVar[tuple[str, ...]] = ("drawn",)
    seat: int
    tile: str
    square: str
    captured: int | None
    drawn: str | None


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """No rack tile had a legal square (reading 7): the turn passes, nothing is drawn."""

    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The service played a late seat's turn: the first legal move in the
    canonical order, empty squares before captures (``tile`` ``None``: it had
    none and passed)."""

    type: ClassVar[str] = "timed_out"
    PRIVATE: ClassVar[tuple[str, ...]] = ("drawn",)
    seat: int
    tile: str | None
    square: str | None
    captured: int | None
    drawn: str | None


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    """``seat`` left: its turns are skipped; its tiles stay on the board."""

    type: ClassVar[str] = "resigned"
    seat: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls for cls in (GameStarted, TilePlaced, Passed, TimedOut, Resigned)
}


def from_dict(data: dict[str, Any]) -> Event:
    """Read a dict written by :func:`to_dict` (``BadRecord`` for an unknown type
    or a missing field)."""
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadRecord(f"{kind!r} is not a Blockers event type")
    return event_of(cls, data, {"options": options_from_json})
