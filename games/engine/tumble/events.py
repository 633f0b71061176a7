"""Tumble-Words events: the facts a game's log is made of.

Frozen dataclasses with a ``version``; :func:`to_dict` and :func:`from_dict`
turn them into JSON-ready dicts and back.  ``PRIVATE`` names the fields only the
event's seat may see: a sealed submission's crossword and points, until the
round's :class:`RoundClosed` reveals them.  Rolls are recorded as the faces that
showed, never as a seed; they are public (both players roll on the table).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .options import Options, options_from_json


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str]
    version: ClassVar[int] = 1
    PRIVATE: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The deal.  ``rolloff``: with three or more players, who starts, one
    string a roll-off round, one character a seat (the face its cube showed,
    ``.`` for a seat no longer rolling); ``first`` is the seat it gave.
    ``rolls``: the first round's, one a seat of that round (both players with
    two, the first player's alone with more)."""

    type: ClassVar[str] = "game_started"
    options: Options
    players: tuple[str, ...]
    rolloff: tuple[str, ...]
    first: int
    rolls: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Submitted(Event):
    """``seat`` handed in ``crossword`` (its one-line form, the colour each
    square was laid with included) worth ``points``; sealed until the round
    closes, and replaced by a later submission in the same round."""

    type: ClassVar[str] = "submitted"
    PRIVATE: ClassVar[tuple[str, ...]] = ("crossword", "points")
    seat: int
    crossword: str
    points: int


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The round's deadline passed with ``seat`` having submitted nothing."""

    type: ClassVar[str] = "timed_out"
    seat: int


@dataclass(frozen=True, slots=True)
class RoundClosed(Event):
    """Round ``round`` is revealed and scored: for each of its ``seats``, the
    crossword (``None``: nothing submitted) and its points."""

    type: ClassVar[str] = "round_closed"
    round: int
    seats: tuple[int, ...]
    crosswords: tuple[str | None, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """Round ``round`` opens: ``rolls[i]`` is what ``seats[i]`` rolled."""

    type: ClassVar[str] = "rolled"
    round: int
    seats: tuple[int, ...]
    rolls: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    type: ClassVar[str] = "resigned"
    seat: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls for cls in (GameStarted, Submitted, TimedOut, RoundClosed, Rolled, Resigned)
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
    """Read a dict written by :func:`to_dict`."""
    data = dict(data)
    cls = EVENT_TYPES[data.pop("type")]
    data.pop("v", 1)
    kwargs = {}
    for f in fields(cls):
        value = data[f.name]
        kwargs[f.name] = options_from_json(value) if f.name == "options" else _tuple(value)
    return cls(**kwargs)
