"""Blockers events: the facts a game's log is made of.

Each is a frozen dataclass; :func:`to_dict` and :func:`from_dict` turn them
into JSON-ready dicts and back.  ``PRIVATE`` names the fields only the event's
seat may see: the deal's racks and piles (every seat's, so the deal is shown to
nobody whole) and a turn's draw.  Draws are recorded as the tiles drawn, never
as a seed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..errors import BadRecord
from .options import Options, options_from_json

Tiles = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str]
    version: ClassVar[int] = 1
    PRIVATE: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The deal: each seat's rack and the rest of its pile, front (next draw) first."""

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


def _plain(value: Any) -> Any:
    if isinstance(value, Options):
        return value.to_json()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": ..., "v": ..., <fields>}``."""
    out: dict[str, Any] = {"type": event.type, "v": event.version}
    for f in fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def _tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuple(v) for v in value)
    return value


def from_dict(data: dict[str, Any]) -> Event:
    """Read a dict written by :func:`to_dict` (``BadRecord`` for an unknown type
    or a missing field)."""
    data = dict(data)
    kind = data.pop("type", None)
    data.pop("v", None)
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadRecord(f"{kind!r} is not a Blockers event type")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise BadRecord(f"a {kind} event has no {f.name!r}")
        value = data[f.name]
        kwargs[f.name] = options_from_json(value) if f.name == "options" else _tuple(value)
    return cls(**kwargs)
