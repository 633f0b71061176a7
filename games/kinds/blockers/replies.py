"""How a Blockers move is read from an email reply: short and forgiving, never
a guess.

A reply's first lines (before the quoted email) are read one by one and the
first that is a move is taken.  Read as a move: the engine's notation, any
case and spacing (``7 at C7``, ``7 C7``, ``7c7``, ``S5 at E4``, ``* at E5``,
``wild E5``), led by ``play``, ``place`` or ``put`` if you like, with ``to``
for ``at``; the square first (``C7 7``, ``E5 *``), since a square is a row
letter then a column digit, which no tile-first move begins with, so the two
orders never read the same words two ways; and ``pass``, ``resign``,
``hint``.  ``#N`` anywhere names the position answered.  A resignation counts
only standing alone on the first line; anywhere else it asks for confirming.
"""

from __future__ import annotations

import re

from games.engine import blockers as engine
from games.engine.errors import Refusal

from ..reply_reading import ANSWERING, QUOTE_START, ReplyReading

#: How many of a reply's first lines are read for a move.
LINES_READ = 5

ACCEPTED_FORMS: tuple[str, ...] = (
    "7 at C7",
    "S5 at E4",
    "* at E5",
    "pass",
    "resign",
    "add #17 to name the move you answer",
)

_LEAD = re.compile(r"^(?:play|place|put|move)\s+", re.IGNORECASE)
_TO = re.compile(r"\s+(?:to|in)\s+", re.IGNORECASE)
_SQUARE_FIRST = re.compile(
    r"(?P<square>[a-i][1-9])\s*(?:[:=,-]|<-|←)?\s+(?P<tile>.+)", re.IGNORECASE
)
_WORDS = frozenset({"pass", "resign", "hint"})


def problem_with(why: str) -> str:
    return (
        f"{why} Reply with one move on the first line: a tile and a square, such as "
        "“7 at C7”, “S5 at E4” or “* at E5” (the wild); “pass” (only when no tile can go "
        "anywhere) or “resign”; add #17 to name the move you answer."
    )


def _fresh_lines(text: str) -> list[str]:
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(">") or QUOTE_START.match(line) or line in ("--", "-- "):
            break
        if line:
            out.append(line)
    return out[:LINES_READ]


def read_move(line: str) -> str | None:
    """The move ``line`` holds in the notation, or ``None``."""
    text = ANSWERING.sub(" ", line).strip().strip("\"'“”.!,;").strip()
    if text.lower() in _WORDS:
        return text.lower()
    text = _TO.sub(" at ", _LEAD.sub("", text))
    for candidate in _orders(text):
        try:
            command = engine.parse_move(candidate)
        except Refusal:
            continue
        if isinstance(command, engine.Place):
            return engine.format_move(command)
    return None


def _orders(text: str) -> list[str]:
    """``text``, and read square first when it is written so."""
    found = _SQUARE_FIRST.fullmatch(text)
    return [text] if found is None else [text, f"{found['tile']} at {found['square']}"]


def read_reply(text: str, subject: str = "") -> ReplyReading:
    lines = _fresh_lines(text)
    if not lines:
        return ReplyReading(None, None, "", problem_with("Your reply holds no move."))
    for index, line in enumerate(lines):
        move = read_move(line)
        if move is None:
            continue
        found = ANSWERING.search(line)
        answering = int(found.group(1)) if found else None
        alone = index == 0
        return ReplyReading(move, answering, line, None, move == "resign" and not alone)
    first = lines[0]
    return ReplyReading(None, None, first, problem_with(f"“{first[:60]}” is not a move."))
