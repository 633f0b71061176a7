"""Events: the facts a crossword game's log is made of.

Each event is a small frozen dataclass with a ``version``; :func:`to_dict` and
:func:`from_dict` turn them into JSON-ready dicts and back.  ``PRIVATE`` names
the fields only the event's seat may see: the deal's racks and the bag, a
play's draw, an exchange's tiles.  Draws are recorded as the tiles drawn, never
as a seed, so a log replays to the same state every time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..common import events as common
from ..common.events import event_of
from ..common.events import to_dict as to_dict
from ..errors import BadRecord
from .options import Options, options_from_json


@dataclass(frozen=True, slots=True)
class Event(common.Event):
    """A crossword game's event."""


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The deal.  ``draws`` are the tiles drawn for first play, round by round
    (a round has one tile per seat still drawing: the seats tied in the round
    before); ``first`` is the seat they gave the first play to."""

    type: ClassVar[str] = "game_started"
    PRIVATE: ClassVar[tuple[str, ...]] = ("racks", "bag")
    options: Options
    lexicon: str
    players: tuple[str, ...]
    draws: tuple[str, ...]
    first: int
    racks: tuple[str, ...]
    bag: str
    board: str


@dataclass(frozen=True, slots=True)
class Played(Event):
    """``seat`` laid ``letters`` on ``squares`` (a lower-case letter is a blank),
    formed ``words`` (the main word first) for ``points``, then drew ``drawn``."""

    type: ClassVar[str] = "played"
    PRIVATE: ClassVar[tuple[str, ...]] = ("drawn",)
    seat: int
    across: bool
    squares: tuple[int, ...]
    letters: str
    words: tuple[str, ...]
    points: int
    drawn: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The service passed a late player's turn."""

    type: ClassVar[str] = "timed_out"
    seat: int


@dataclass(frozen=True, slots=True)
class Exchanged(Event):
    type: ClassVar[str] = "exchanged"
    PRIVATE: ClassVar[tuple[str, ...]] = ("tiles", "drawn")
    seat: int
    tiles: str
    drawn: str


@dataclass(frozen=True, slots=True)
class PlayWithdrawn(Event):
    """``seat`` challenged ``mover``'s open play and ``unacceptable`` words were
    not acceptable: the play is taken back and the mover's turn is lost."""

    type: ClassVar[str] = "play_withdrawn"
    seat: int
    mover: int
    unacceptable: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChallengeFailed(Event):
    """``seat`` challenged ``mover``'s open play and every word was acceptable:
    the challenger loses their next turn."""

    type: ClassVar[str] = "challenge_failed"
    seat: int
    mover: int


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    type: ClassVar[str] = "resigned"
    seat: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        GameStarted,
        Played,
        Passed,
        TimedOut,
        Exchanged,
        PlayWithdrawn,
        ChallengeFailed,
        Resigned,
    )
}


def from_dict(data: dict[str, Any]) -> Event:
    """Read a dict written by :func:`to_dict` (:class:`BadRecord` if it is not one)."""
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadRecord(f"unknown event type {kind!r}")
    return event_of(cls, data, {"options": options_from_json})


def event_seat(event: Event) -> int | None:
    """The seat an event is by (``None`` for the deal)."""
    return getattr(event, "seat", None)
