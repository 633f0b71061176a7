"""ReplyReading a move out of an email reply: ``8H FACTS``, ``H8 facts``,
``exchange abc``, ``pass``, ``challenge``, ``accept`` (the end a play would
make: the rules refuse it otherwise), ``resign`` or ``hint``, forgiving of
case and spacing, ``#N`` anywhere on the line naming the position answered.

A line is read only when all of it is a move, once a leading ``play``/
``please`` and trailing ``please``/``thanks`` and punctuation are set aside:
making a move the player did not mean is far worse than refusing.  A word
written all in lower case is read as natural tiles (``facts`` is FACTS); in a
word of mixed case a lower-case letter is a blank, as in the notation.
``resign`` is acted on only alone on the first line; elsewhere it waits for a
confirmation.
"""

from __future__ import annotations

import re
from itertools import islice

from ..reply_reading import ANSWERING, ReplyReading

MAX_LINES = 40
MAX_LINE_CHARS = 300

ACCEPTED_FORMS: tuple[str, ...] = (
    "8H FACTS",
    "H8 FACTS",
    "8H (L)OVE",
    "exchange QXZ",
    "pass",
    "challenge",
    "resign",
    "add #17 to name the move you answer",
)
HINT = "hint"

_PLAY = re.compile(
    r"(?:play\s+)?((?:[0-9]{1,2}\s?[a-o])|(?:[a-o]\s?[0-9]{1,2}))\s+([a-z()]+)", re.IGNORECASE
)
_EXCHANGE = re.compile(r"(?:exchange|swap)\s+([a-z?][a-z?\s]*)", re.IGNORECASE)
_WORDS = frozenset({"pass", "challenge", "accept", "resign", HINT})
_LEAD = re.compile(r"^(?:please|ok|okay|my move is|my move|move)[\s:,]+", re.IGNORECASE)
_TAIL = re.compile(r"[\s,]+(?:please|thanks|thank you|thx)$", re.IGNORECASE)
_EDGES = " \t.!:;,*_`\"'“”\u2018\u2019"


def problem_with(why: str) -> str:
    forms = ", ".join(f"“{f}”" for f in ACCEPTED_FORMS[:-1])
    return f"{why} Reply with one move on the first line, such as {forms}; {ACCEPTED_FORMS[-1]}."


def _coordinate(text: str) -> str:
    return text.replace(" ", "").upper()


def _word(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    return text.upper() if all(c.islower() for c in letters) else text


def read_line(line: str) -> tuple[str | None, int | None]:
    """The move a line holds (in the notation) and the position it names."""
    found = ANSWERING.search(line)
    answering = int(found.group(1)) if found else None
    text = ANSWERING.sub(" ", line).strip(_EDGES)
    text = _TAIL.sub("", _LEAD.sub("", text)).strip(_EDGES)
    text = " ".join(text.split())
    if (play := _PLAY.fullmatch(text)) is not None:
        return f"{_coordinate(play.group(1))} {_word(play.group(2))}", answering
    if (swap := _EXCHANGE.fullmatch(text)) is not None:
        return f"exchange {''.join(swap.group(1).split()).upper()}", answering
    if text.lower() in _WORDS:
        return text.lower(), answering
    return None, answering


def read_reply(text: str, subject: str = "") -> ReplyReading:
    lines = [
        ln.strip()[:MAX_LINE_CHARS]
        for ln in islice(text.splitlines(), MAX_LINES * 4)
        if ln.strip() and not ln.lstrip().startswith(">")
    ][:MAX_LINES]
    if not lines:
        return ReplyReading(None, None, "", problem_with("Your reply holds no move."))
    for i, line in enumerate(lines):
        if "?" in line and not line.lower().lstrip(_EDGES).startswith(("exchange", "swap")):
            continue  # a question, not a move
        move, answering = read_line(line)
        if move is not None:
            resign = move == "resign" and (i > 0 or line.strip(_EDGES).lower() != "resign")
            return ReplyReading(move, answering, line, None, unconfirmed_resign=resign)
    first = lines[0]
    return ReplyReading(
        None, None, "\n".join(lines[:3]), problem_with(f"“{first[:60]}” is not a move.")
    )
