"""Blockers move notation: parse and format.

A move is ``TILE at SQUARE``: ``7 at C7``, ``S5 at E4``, ``* at E5``.  Reading is
forgiving, for email: any case, any spacing, ``at`` (or ``@``, ``on``) may be
left out, a trailing full stop is ignored, the wild may be written ``wild`` or
``blockers``, a symbol ``sector 5`` or ``symbol 5``.  ``pass``, ``resign`` and
``timeout`` are the other verbs.

>>> parse_move("7 at C7")
Place(tile='7', square='C7')
>>> [format_move(parse_move(m)) for m in (" s5e4 ", "Wild @ e5.", "c c7")]
['S5 at E4', '* at E5', 'C at C7']
>>> parse_move("PASS")
Pass()
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Refusal
from .board import COLUMNS, ROWS, WILD


@dataclass(frozen=True, slots=True)
class Place:
    tile: str
    square: str

    def notation(self) -> str:
        return f"{self.tile} at {self.square}"


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


Command = Place | Pass | Resign | Timeout

#: Moves a seat may make out of turn.
OFF_TURN_VERBS = frozenset({"resign"})
_VERBS: dict[str, Command] = {"pass": Pass(), "resign": Resign(), "timeout": Timeout()}

_TILE = (
    r"(?P<tile>\*|wild|blockers!?"
    r"|(?:s|sector|symbol)\s*(?P<sector>[1-9])"
    rf"|(?P<plain>[1-9{ROWS.lower()}]))"
)
_MOVE = re.compile(
    rf"{_TILE}\s*(?:(?:at|on|@)\s*)?(?P<row>[{ROWS.lower()}])\s*(?P<column>[{COLUMNS}])"
)


def verb_of(text: str) -> str:
    """The first word, lower-cased ("" for an empty move), read without the rules."""
    tokens = text.split()
    return tokens[0].lower() if tokens else ""


def _clean(text: str) -> str:
    return text.strip().strip(".!,;").strip().lower()


def parse_move(text: str) -> Command:
    """A move read from ``text``; a ``bad_move`` refusal says why it cannot be read."""
    cleaned = _clean(text)
    if cleaned in _VERBS:
        return _VERBS[cleaned]
    m = _MOVE.fullmatch(cleaned)
    if m is None:
        raise Refusal(
            "bad_move",
            f"Could not read the move {text.strip()!r}: write a tile and a square, such as "
            "'7 at C7', 'C at C7', 'S3 at C7' or '* at C7' (the wild), or 'resign'.",
        )
    if m["sector"]:
        tile = f"S{m['sector']}"
    elif m["plain"]:
        tile = m["plain"].upper()
    else:
        tile = WILD
    return Place(tile, f"{m['row'].upper()}{m['column']}")


def format_move(command: Command) -> str:
    """The canonical notation of a command."""
    match command:
        case Place():
            return command.notation()
        case Pass():
            return "pass"
        case Resign():
            return "resign"
        case Timeout():
            return "timeout"
    raise TypeError(f"not a command: {command!r}")
