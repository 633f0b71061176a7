"""The registry of game kinds: every game the service can run, by name and by
the ``format`` of its records.

>>> from games import kinds
>>> kinds.get("jumbulaya").label
'JUMBULAYA'
>>> kinds.by_record_format("jumbulaya-record/1").name
'jumbulaya'
>>> [kind.name for kind in kinds.all()]
['jumbulaya', 'crossword', 'blockers', 'tumble']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from games.engine.errors import BadRecord

from .base import BestPlays, GameKind, Play, Progress, Replayed, Resolver
from .robots_alike import DEFAULT_RUNG, LADDER

#: The kinds offered, in order, each by its folder's name: registering a kind is
#: adding its name here.  ``games/kinds/<name>/kind.py`` holds the kind as
#: ``<NAME>`` (``BLOCKERS``), and ``games/kinds/<name>/presentation.py`` its
#: presentation as ``<NAME>_PRESENTATION`` (:mod:`games.kinds.presentation`).
REGISTERED = ("jumbulaya", "crossword", "blockers", "tumble")

#: The kind of a game that says none (every game before there were kinds).
DEFAULT = REGISTERED[0]

_KINDS: dict[str, GameKind] = {
    name: getattr(import_module(f"games.kinds.{name}.kind"), name.upper()) for name in REGISTERED
}


class UnknownKind(LookupError):
    """A kind name, or a record format, that no registered kind has."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def all() -> list[GameKind]:
    """Every registered kind, in the order they are offered."""
    return list(_KINDS.values())


def choices() -> list[tuple[str, str]]:
    """``(name, label)`` of every kind, for a model field or a form."""
    return [(kind.name, kind.label) for kind in _KINDS.values()]


def get(name: str) -> GameKind:
    """The kind called ``name``; :class:`UnknownKind` if there is none."""
    try:
        return _KINDS[name]
    except KeyError:
        known = ", ".join(repr(n) for n in _KINDS)
        raise UnknownKind(f"there is no game kind {name!r} (the kinds are {known})") from None


def by_record_format(fmt: object) -> GameKind:
    """The kind whose records have ``format`` ``fmt``; :class:`UnknownKind` if none."""
    for kind in _KINDS.values():
        if kind.record_format == fmt:
            return kind
    # In the engine's words for a record of another format, so a JUMBULAYA record
    # is refused as it always was.
    raise UnknownKind(f"'format' must be exactly {_formats()}, not {fmt!r}")


def _formats() -> str:
    return " or ".join(repr(kind.record_format) for kind in _KINDS.values())


def record_kind(text: str | bytes) -> GameKind:
    """The kind a record given as JSON text belongs to, by its ``format``.
    Raises :class:`BadRecord` for text that is not a record of a known format;
    the kind then checks everything else."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise BadRecord(f"the record is not valid JSON ({e})") from None
    return kind_of_record(data)


def kind_of_record(data: object) -> GameKind:
    """:func:`record_kind` for a record already read from JSON."""
    if not isinstance(data, dict):
        raise BadRecord("a record is a JSON object")
    try:
        return by_record_format(data.get("format"))
    except UnknownKind as e:
        raise BadRecord(e.message) from None


def replay_json(text: str | bytes, resolver: Callable[[GameKind], Resolver]) -> Replayed:
    """Replay a record of any kind (``manage.py replay``) with the word lists
    ``resolver(kind)`` finds; never raises for bad input.  A record whose kind
    cannot be told is reported as the first kind reports an unreadable record."""
    try:
        kind = record_kind(text)
    except BadRecord as e:
        return get(DEFAULT).unreadable_record(e)
    return kind.replay_json(text, resolver(kind))


def robot_levels(kind: GameKind) -> tuple[str, ...]:
    """The rungs of the robot ladder (:data:`~games.kinds.robots_alike.LADDER`)
    ``kind`` offers, weakest first (none for a kind without robots)."""
    if kind.robots is None:
        return ()
    return tuple(rung for rung in LADDER if rung in kind.robots.ladder)


def nearest_levels(kind: GameKind, chosen: str) -> list[str]:
    """The robot levels of ``kind`` from the nearest to ``chosen``: that rung,
    then the others from the nearest (a takeover tries them in turn; a game
    against robots that needs more than one seats them in turn).  A level an
    older game chose that is no longer on the ladder is read as the rung that
    plays it (the crossword game's ``strong``:
    ``expert``); one no rung plays (JUMBULAYA's ``greedy``) comes first
    itself, then the rungs from the one nearest in the kind's own levels."""
    robots = kind.robots
    rungs = list(robot_levels(kind))
    if robots is None or not rungs:
        return []
    first: list[str] = []
    if chosen in rungs:
        at = rungs.index(chosen)
    elif chosen in robots.levels:
        own = list(robots.levels)
        at = min(
            range(len(rungs)),
            key=lambda i: abs(own.index(robots.ladder[rungs[i]]) - own.index(chosen)),
        )
        if robots.ladder[rungs[at]] != chosen:
            first = [chosen]
    else:
        at = 0
    return first + sorted(rungs, key=lambda rung: abs(rungs.index(rung) - at))


def robot_opponents(kind: GameKind, level: str) -> list[str]:
    """The levels of the robots a game of ``kind`` against a robot of
    ``level`` seats: that one, then the nearest others until the kind's
    fewest players are seated (Blockers has three)."""
    nearest = [other for other in nearest_levels(kind, level) if other != level]
    return [level, *nearest][: max(2, kind.min_players) - 1]


__all__ = [
    "DEFAULT",
    "DEFAULT_RUNG",
    "LADDER",
    "REGISTERED",
    "GameKind",
    "Play",
    "Progress",
    "Replayed",
    "UnknownKind",
    "all",
    "best_plays",
    "by_record_format",
    "choices",
    "get",
    "kind_of_record",
    "nearest_levels",
    "record_kind",
    "replay_json",
    "robot_levels",
    "robot_opponents",
]


def best_plays(kind: GameKind, events: Sequence[Any], seat: int) -> list[Play]:
    """``seat``'s best plays in a finished game's log, as the kind says them
    (:class:`~games.kinds.base.BestPlays`); none for a kind that says none."""
    return kind.best_plays(events, seat) if isinstance(kind, BestPlays) else []
