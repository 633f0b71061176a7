"""The move notation of ``tumble-record/1`` (docs/tumble-record.md).

``submit`` followed by the crossword, either on the same line with its rows
separated by ``/`` or on the lines after it, one row a line; ``timeout``;
``resign``.  The verb is read in any case; the crossword is read as typed
(lower case is a blank).

>>> format_move(parse_move("submit ...H/FAMe/...R/...O"))
'submit ...H/FAMe/...R/...O'
>>> parse_move("SUBMIT\\nFAME\\n.T..").crossword.rows
('FAME', '.T..')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Refusal
from .grid import Crossword, parse_grid


@dataclass(frozen=True, slots=True)
class Submit:
    crossword: Crossword


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    pass


Command = Submit | Timeout | Resign

FORMS = "'submit ROW/ROW/…', 'submit' with one row a line below it, or 'resign'"


def verb_of(text: str) -> str:
    """The first word, lower-cased (``""`` for an empty move)."""
    tokens = text.split(maxsplit=1)
    return tokens[0].lower() if tokens else ""


def parse_move(text: str) -> Command:
    """Read one move; ``bad_move`` for an unknown shape, ``bad_grid`` for a
    crossword that cannot be read."""
    body = text.strip("\n")
    stripped = body.lstrip()
    verb = verb_of(stripped)
    if not verb:
        raise Refusal("bad_move", f"The move is empty: write {FORMS}.")
    rest = stripped[len(verb) :]
    if verb in ("timeout", "resign"):
        if rest.strip():
            raise Refusal("bad_move", f"'{verb}' takes nothing after it.")
        return Timeout() if verb == "timeout" else Resign()
    if verb != "submit":
        raise Refusal("bad_move", f"Could not read the move {text[:40]!r}: write {FORMS}.")
    first_line, _, below = rest.partition("\n")
    if first_line.strip() and below.strip():
        raise Refusal(
            "bad_move",
            "Write the crossword either on the line of 'submit', rows separated by '/', "
            "or on the lines below it, one row a line; not both.",
        )
    grid = first_line.strip() if first_line.strip() else below
    return Submit(parse_grid(grid))


def format_move(command: Command) -> str:
    """A command in the one-line notation; :func:`parse_move` reads it back."""
    match command:
        case Submit(crossword):
            return f"submit {crossword.text()}"
        case Timeout():
            return "timeout"
        case Resign():
            return "resign"
    raise TypeError(f"not a command: {command!r}")
