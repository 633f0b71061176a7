"""The move notation: read and write.

``8H WORD`` plays across from row 8, column H; ``H8 WORD`` plays down from
column H, row 8.  Coordinates and verbs are case-insensitive; in the word an
upper-case letter is a natural tile and a lower-case one a blank standing for
it.  The word is the whole word along its line; letters already on the board
may be written plainly or in parentheses.  The other moves are ``pass``,
``exchange ABC`` (``?`` names a blank), ``challenge``, ``resign``, ``accept``
(``pass`` while a play that would end the game awaits a challenge) and
``timeout`` (written by the service when a deadline passes).

>>> format_move(parse_move("h8 (l)(O)ve"))
'H8 (lO)ve'
>>> format_move(parse_move("Exchange q ? e"))
'exchange Q?E'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..errors import Refusal
from .layout import COLUMNS, SIZE


@dataclass(slots=True)
class Play:
    """A word played along a line.  ``word`` keeps the case as written (lower
    case: a blank); bit ``i`` of ``marked`` is set when letter ``i`` was written
    in parentheses (a letter said to be on the board already)."""

    row: int
    col: int
    across: bool
    word: str
    marked: int = 0

    @property
    def coordinate(self) -> str:
        row, col = str(self.row + 1), COLUMNS[self.col]
        return row + col if self.across else col + row


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Exchange:
    tiles: str  # rack tiles in the order written, ``?`` a blank


@dataclass(frozen=True, slots=True)
class Challenge:
    pass


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the end a play would make (``async`` mode): recorded as a pass."""


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


#: A parsed move.  ``Play`` is not frozen: every move sent is parsed into one,
#: and frozen instances cost more to build.
Command = Play | Pass | Exchange | Challenge | Accept | Resign | Timeout

#: Moves a seat may make when it is not its turn.
OFF_TURN_VERBS: Final = frozenset({"challenge", "resign"})

_ACROSS = re.compile(r"(\d+)([A-Za-z])")
_DOWN = re.compile(r"([A-Za-z])(\d+)")
_WORD = re.compile(r"[A-Za-z()]+")
_PLAIN = re.compile(r"[A-Za-z]+")
_EXCHANGE = re.compile(r"[A-Za-z?]+")
_SIMPLE: Final[dict[str, Command]] = {
    "pass": Pass(),
    "challenge": Challenge(),
    "accept": Accept(),
    "resign": Resign(),
    "timeout": Timeout(),
}
_FORMS = "'8H WORD', 'H8 WORD', 'pass', 'exchange ABC', 'challenge' or 'resign'"


def verb_of(text: str) -> str:
    """The first token, lower-cased (``""`` for an empty move); a play's
    verb is ``play``."""
    tokens = text.split()
    if not tokens:
        return ""
    head = tokens[0]
    if _ACROSS.fullmatch(head) or _DOWN.fullmatch(head):
        return "play"
    return head.lower()


def _bad(text: str, why: str) -> Refusal:
    return Refusal("bad_move", f"Could not read the move {text!r}: {why}.")


def _square(digits: str, letter: str, text: str) -> tuple[int, int]:
    row = int(digits) - 1 if len(digits) <= 2 else -1
    col = COLUMNS.find(letter.upper())
    if not 0 <= row < SIZE or col < 0:
        raise Refusal(
            "bad_square",
            f"There is no square {digits}{letter.upper()} in {text!r}: rows are 1 to 15 "
            "and columns A to O.",
        )
    return row, col


def _word(token: str, text: str) -> tuple[str, int]:
    """The word's letters and its parenthesis mask."""
    if _PLAIN.fullmatch(token):  # the usual case: no parentheses
        return token, 0
    if not _WORD.fullmatch(token):
        raise _bad(text, f"{token!r} has characters other than the letters A-Z and ( )")
    letters: list[str] = []
    marked = 0
    inside = False
    opened = 0
    for c in token:
        if c == "(":
            if inside:
                raise _bad(text, f"{token!r} opens a parenthesis inside another")
            inside, opened = True, len(letters)
        elif c == ")":
            if not inside:
                raise _bad(text, f"{token!r} closes a parenthesis it never opened")
            if opened == len(letters):
                raise _bad(text, f"{token!r} has empty parentheses")
            inside = False
        else:
            if inside:
                marked |= 1 << len(letters)
            letters.append(c)
    if inside:
        raise _bad(text, f"{token!r} opens a parenthesis it never closes")
    if not letters:
        raise _bad(text, f"{token!r} has no letters")
    return "".join(letters), marked


def parse_move(text: str) -> Command:
    """Read one move; a :class:`Refusal` (``bad_move`` or ``bad_square``) says
    what could not be read."""
    tokens = text.split()
    if not tokens:
        raise Refusal("bad_move", "The move is empty.")
    head, rest = tokens[0], tokens[1:]
    across = _ACROSS.fullmatch(head)
    down = None if across else _DOWN.fullmatch(head)
    if across or down:
        if len(rest) != 1:
            raise _bad(text, "a play is a square and one word, such as '8H WORD' or 'H8 WORD'")
        if across:
            row, col = _square(across.group(1), across.group(2), text)
        else:
            assert down is not None
            row, col = _square(down.group(2), down.group(1), text)
        word, marked = _word(rest[0], text)
        return Play(row, col, across is not None, word, marked)
    verb = head.lower()
    if verb in _SIMPLE:
        if rest:
            raise _bad(text, f"'{verb}' takes nothing after it")
        return _SIMPLE[verb]
    if verb == "exchange":
        tiles = "".join(rest)
        if not tiles:
            raise _bad(text, "name the tiles to exchange, such as 'exchange QXZ' (? for a blank)")
        if not tiles.isascii() or not _EXCHANGE.fullmatch(tiles):
            raise _bad(text, "an exchange names letters A-Z, and ? for a blank: 'exchange Q?'")
        return Exchange(tiles.upper())
    raise _bad(text, f"a move is {_FORMS}")


def format_word(word: str, marked: int) -> str:
    """The word with its marked letters in parentheses, runs grouped."""
    if not marked:
        return word
    out: list[str] = []
    inside = False
    for i, c in enumerate(word):
        bit = bool(marked >> i & 1)
        if bit != inside:
            out.append("(" if bit else ")")
            inside = bit
        out.append(c)
    if inside:
        out.append(")")
    return "".join(out)


def format_move(command: Command) -> str:
    """Write a command in the notation; :func:`parse_move` reads it back."""
    match command:
        case Play():
            return f"{command.coordinate} {format_word(command.word, command.marked)}"
        case Exchange(tiles):
            return f"exchange {tiles}"
        case Pass():
            return "pass"
        case Challenge():
            return "challenge"
        case Accept():
            return "accept"
        case Resign():
            return "resign"
        case Timeout():
            return "timeout"
    raise TypeError(f"not a command: {command!r}")
