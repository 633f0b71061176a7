"""The move notation of ``jumbulaya-record/1``: parse and format.

>>> parse_move("3 facts")
PlayWord(line=2, word=WordSpec(text='FACTS', tiles=None))
>>> parse_move("3 E[QU]AL[LY]").word.tiles
('E', 'QU', 'A', 'L', 'LY')
>>> format_move(parse_move("3 B-A-T-C-H"))
'3 B-A-T-C-H'
>>> format_move(parse_move("exchange q x"))
'exchange QU X'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Refusal
from ..tiles import FACE_SET, LINES, Tiles, letters, spellings


@dataclass(slots=True)
class WordSpec:
    """A word as a player wrote it.

    ``tiles`` is the exact tile sequence when the word was written explicitly (with
    brackets or hyphens), else ``None``: a plain word names letters, and the engine
    looks for the one spelling that makes the move legal.
    """

    text: str
    tiles: Tiles | None = None

    @property
    def letters(self) -> str:
        return letters(self.tiles) if self.tiles is not None else self.text

    def candidates(self) -> tuple[Tiles, ...]:
        """The spellings this word may stand for."""
        return (self.tiles,) if self.tiles is not None else spellings(self.text)


@dataclass(slots=True)
class PlayWord:
    line: int  # 0-based index; notation numbers lines 1..9
    word: WordSpec


@dataclass(frozen=True, slots=True)
class Pass:
    pass


@dataclass(frozen=True, slots=True)
class Exchange:
    tiles: Tiles | None  # None: "exchange all"


@dataclass(frozen=True, slots=True)
class CallJumbulaya:
    word: WordSpec


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class Timeout:
    pass


#: A parsed move.  Commands are short-lived values: the word commands are not
#: frozen because building frozen instances is several times slower, and every
#: move a player sends is parsed into one.
Command = PlayWord | Pass | Exchange | CallJumbulaya | Resign | Timeout

#: Moves any seat may make at any time; every other move needs the turn.
OFF_TURN_VERBS = frozenset({"jumbulaya", "resign"})

_PLAIN = re.compile(r"[A-Z]+")
_WORD_CHARS = re.compile(r"[A-Z\[\]\-]+")
_BRACKETED = re.compile(r"\[([A-Z]+)\]")


def verb_of(text: str) -> str:
    """The first token, lower-cased ("" for an empty move): enough to tell whether a
    move may be made off turn before the rest of it is read."""
    tokens = text.split()
    return tokens[0].lower() if tokens else ""


def _bad(text: str, why: str) -> Refusal:
    return Refusal("bad_move", f"Could not read the move {text!r}: {why}.")


def _split_word(token: str, move: str) -> list[str] | None:
    """The parts of an explicit word (one part per tile, not yet checked as faces),
    or ``None`` for a plain word.  Raises ``bad_move`` for unreadable shapes."""
    if token.isalpha():  # tokens are ASCII here, so: letters A-Z only
        return None
    if not _WORD_CHARS.fullmatch(token):
        raise _bad(move, f"{token!r} has characters other than letters, [ ] and -")
    if "-" in token:
        parts = []
        for part in token.split("-"):
            if not part:
                raise _bad(move, f"{token!r} has an empty part between hyphens")
            m = _BRACKETED.fullmatch(part)
            if m:
                part = m.group(1)
            elif "[" in part or "]" in part:
                raise _bad(move, f"in {token!r}, each hyphen-separated part must be one tile")
            parts.append(part)
        return parts
    parts = []
    i, n = 0, len(token)
    while i < n:
        c = token[i]
        if c == "[":
            j = token.find("]", i + 1)
            if j < 0:
                raise _bad(move, f"{token!r} opens a bracket it never closes")
            inner = token[i + 1 : j]
            if not inner:
                raise _bad(move, f"{token!r} has empty brackets")
            if "[" in inner:
                raise _bad(move, f"{token!r} has brackets inside brackets")
            parts.append(inner)
            i = j + 1
        elif c == "]":
            raise _bad(move, f"{token!r} closes a bracket it never opened")
        elif c == "Q" and token[i + 1 : i + 2] == "U":
            parts.append("QU")
            i += 2
        else:
            parts.append(c)
            i += 1
    return parts


def _face(part: str, where: str) -> str:
    face = "QU" if part == "Q" else part
    if face not in FACE_SET:
        raise Refusal("unknown_tile", f"{where}: there is no {part} tile.")
    return face


def _word_spec(token: str, parts: list[str] | None) -> WordSpec:
    if parts is None:
        i = token.find("Q")
        while i >= 0:  # usually not entered: few words have a Q
            if token[i + 1 : i + 2] != "U":
                raise Refusal(
                    "unknown_tile",
                    f"{token}: there is no Q tile, only QU, so a Q must be followed by U.",
                )
            i = token.find("Q", i + 1)
        return WordSpec(token)
    return WordSpec(token, tuple(_face(p, token) for p in parts))


def parse_move(text: str) -> Command:
    """Read one move in the spec's notation (case-insensitive).

    Raises a :class:`Refusal` with code ``bad_move``, ``bad_line`` or
    ``unknown_tile``, checked in that order.
    """
    tokens = text.split()
    if not tokens:
        raise Refusal("bad_move", "The move is empty.")
    for token in tokens:
        if not token.isascii():
            raise _bad(text, f"{token!r} has characters other than A-Z, digits, [ ] and -")
    tokens = [token.upper() for token in tokens]
    head, rest = tokens[0], tokens[1:]
    if head.isdigit():
        if len(rest) != 1:
            raise _bad(text, "a word move is a line number and one word, such as '3 FACTS'")
        parts = _split_word(rest[0], text)
        digits = head.lstrip("0")
        # a long number is out of range anyway (and int() refuses > 4300 digits)
        line = int(digits) if 0 < len(digits) <= 2 else 0
        if not 1 <= line <= LINES:
            raise Refusal("bad_line", f"There is no line {head}: lines are numbered 1 to 9.")
        return PlayWord(line - 1, _word_spec(rest[0], parts))
    verb = head.lower()
    if verb in ("pass", "resign", "timeout"):
        if rest:
            raise _bad(text, f"'{verb}' takes nothing after it")
        simple: dict[str, Command] = {"pass": Pass(), "resign": Resign(), "timeout": Timeout()}
        return simple[verb]
    if verb == "jumbulaya":
        if len(rest) != 1:
            raise _bad(text, "write 'jumbulaya' and one word, such as 'jumbulaya SPRINTS'")
        parts = _split_word(rest[0], text)
        return CallJumbulaya(_word_spec(rest[0], parts))
    if verb == "exchange":
        if not rest:
            raise _bad(text, "name the tiles to exchange, such as 'exchange QU X', or 'all'")
        if rest == ["ALL"]:
            return Exchange(None)
        if "ALL" in rest:
            raise _bad(text, "'exchange all' takes nothing after it; or name the tiles instead")
        raw = []
        for token in rest:
            m = _BRACKETED.fullmatch(token)
            if m:
                token = m.group(1)
            elif not _PLAIN.fullmatch(token):
                raise _bad(text, f"{token!r} is not a tile (write one tile per word)")
            raw.append(token)
        return Exchange(tuple(_face(t, "exchange") for t in raw))
    raise _bad(
        text,
        "a move is '3 FACTS', 'pass', 'exchange QU X', 'exchange all', "
        "'jumbulaya SPRINTS' or 'resign'",
    )


def explicit_word(tiles: Tiles) -> str:
    """The fully explicit form of a tile sequence: brackets around two-letter tiles,
    or hyphens between tiles when every tile is a single letter.

    >>> explicit_word(("O", "TH", "E", "R")), explicit_word(("B", "A", "T", "C", "H"))
    ('O[TH]ER', 'B-A-T-C-H')
    """
    if any(len(t) == 2 for t in tiles):
        return "".join(f"[{t}]" if len(t) == 2 else t for t in tiles)
    if len(tiles) == 1:
        return f"[{tiles[0]}]"
    return "-".join(tiles)


def format_word(tiles: Tiles) -> str:
    """The shortest form that names exactly this spelling: the plain letters when
    they have only one spelling, else :func:`explicit_word`."""
    plain = letters(tiles)
    if spellings(plain) == (tiles,):
        return plain
    return explicit_word(tiles)


def format_move(command: Command) -> str:
    """Write a command in the notation; :func:`parse_move` reads it back."""
    match command:
        case PlayWord(line, word):
            text = format_word(word.tiles) if word.tiles is not None else word.text
            return f"{line + 1} {text}"
        case CallJumbulaya(word):
            text = format_word(word.tiles) if word.tiles is not None else word.text
            return f"jumbulaya {text}"
        case Exchange(tiles):
            return "exchange all" if tiles is None else "exchange " + " ".join(tiles)
        case Pass():
            return "pass"
        case Resign():
            return "resign"
        case Timeout():
            return "timeout"
    raise TypeError(f"not a command: {command!r}")
