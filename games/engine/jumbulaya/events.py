"""Events: the facts a game's log is made of.

Each event is a small frozen dataclass with a ``version``; :func:`to_dict` and
:func:`from_dict` turn them into JSON-ready dicts and back, upcasting old
versions through ``UPCASTERS``.  ``PRIVATE`` names the fields only one seat may
see (its draws); ``GameStarted`` hides every rack but the viewer's, and the bag.
Draws are recorded as the tiles drawn, never as a seed, so a replay of any log
gives the same state every time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..common import events as common
from ..common.events import to_dict as to_dict
from ..common.events import tupled
from ..tiles import Tiles
from .options import Rules, rules_from_json


@dataclass(frozen=True, slots=True)
class Event(common.Event):
    """A JUMBULAYA event."""


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    PRIVATE: ClassVar[tuple[str, ...]] = ("racks", "bag")
    rules: Rules
    lexicon: str
    lexicon_sha256: str
    players: tuple[str, ...]
    first: int
    lines: tuple[Tiles, ...]
    racks: tuple[Tiles, ...]
    bag: Tiles


@dataclass(frozen=True, slots=True)
class WordBuilt(Event):
    """``seat`` built ``tiles`` on ``line`` (0-based), then drew ``drawn``."""

    type: ClassVar[str] = "word_built"
    PRIVATE: ClassVar[tuple[str, ...]] = ("drawn",)
    seat: int
    line: int
    tiles: Tiles
    drawn: Tiles


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
    tiles: Tiles
    drawn: Tiles


@dataclass(frozen=True, slots=True)
class JumbulayaVerified(Event):
    type: ClassVar[str] = "jumbulaya_verified"
    seat: int
    tiles: Tiles
    lines: tuple[int, ...]
    points: int


@dataclass(frozen=True, slots=True)
class JumbulayaFailed(Event):
    """A call that could not be verified: it costs the caller a turn."""

    type: ClassVar[str] = "jumbulaya_failed"
    seat: int
    word: str
    reason: str


@dataclass(frozen=True, slots=True)
class Resigned(Event):
    type: ClassVar[str] = "resigned"
    seat: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        GameStarted,
        WordBuilt,
        Passed,
        TimedOut,
        Exchanged,
        JumbulayaVerified,
        JumbulayaFailed,
        Resigned,
    )
}

#: (type, version) -> function turning that version's dict into the next version's.
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {}


def from_dict(data: dict[str, Any]) -> Event:
    """Read a dict written by :func:`to_dict`, upcasting older versions."""
    data = dict(data)
    kind = data.pop("type")
    version = data.pop("v", 1)
    cls = EVENT_TYPES[kind]
    while version < cls.version:
        data = UPCASTERS[(kind, version)](data)
        version += 1
    kwargs = {}
    for f in fields(cls):
        value = data[f.name]
        kwargs[f.name] = rules_from_json(value) if f.name == "rules" else tupled(value)
    return cls(**kwargs)
