"""How a Tumble-Words move is read from an email reply: the crossword typed as
rows, forgiving of layout, never a guess.

The reply's fresh text (the core has cut the quoted email) is read down to a
quote or a signature.  The first line that is not blank decides:

- ``resign``, ``hint`` alone (in lower case or capitalised: a line in
  capitals is a crossword's row, and RESIGN can be one);
- ``pass``: refused by name (the rules have none);
- ``submit`` with the rows on its line (``submit ..H/FAME``) or on the lines
  below it;
- otherwise the crossword's rows themselves: the lines from there to the
  first blank line, each of letters, ``.`` and spaces only, with at least one
  capital or ``.`` among them (so a line of prose in lower case is never read
  as blanks), then optionally ``colours:`` and the colour grid's rows.

``#N`` anywhere in the lines read names the position answered.
"""

from __future__ import annotations

import re

from ..reply_reading import ANSWERING, QUOTE_START, ReplyReading

#: How many of a reply's first lines are read.
LINES_READ = 40

ACCEPTED_FORMS: tuple[str, ...] = (
    "the crossword's rows, one a line, '.' for an empty square: ..H / FAME",
    "a blank's letter in lower case: FAMe",
    "submit ..H/FAME (on one line)",
    ".  (the empty crossword)",
    "resign",
    "add #17 to name the round you answer",
)

_ROW = re.compile(r"[A-Za-z. ]+")
_COLOURS = re.compile(r"colou?rs:.*", re.IGNORECASE)
_MARKS = re.compile(r"[RKBGrkbg?. ]+")
_WORDS = frozenset({"resign", "hint"})


def problem_with(why: str) -> str:
    return (
        f"{why} Reply with your crossword at the top, one row a line: capital letters for "
        "the faces, '.' for an empty square, a blank's letter in lower case; for example\n\n"
        "..H\nFAME\n.IT.\n\n"
        "A '.' alone hands in the empty crossword (-13); 'resign' leaves the game. Add #17 "
        "on a line of its own to name the round you answer."
    )


def _fresh_lines(text: str) -> list[str]:
    out = []
    for raw in text.splitlines()[:LINES_READ]:
        line = raw.rstrip()
        if line.lstrip().startswith(">") or QUOTE_START.match(line.strip()):
            break
        if line.strip() in ("--", "-- ", "__"):
            break
        out.append(line)
    return out


def _answering(lines: list[str]) -> tuple[int | None, list[str]]:
    """The ``#N`` the lines name (the first), and the lines without any."""
    found = None
    kept = []
    for line in lines:
        match = ANSWERING.search(line)
        if match and found is None:
            found = int(match.group(1))
        kept.append(ANSWERING.sub("", line).rstrip())
    return found, kept


def _block(lines: list[str], start: int) -> list[str]:
    """The lines from ``start`` to the first blank line."""
    out = []
    for line in lines[start:]:
        if not line.strip():
            break
        out.append(line)
    return out


def _rows_and_colours(block: list[str]) -> list[str] | None:
    """The crossword (and its colour grid) of a block, or ``None`` when it is
    not one: rows, then optionally ``colours:`` and mark rows."""
    rows: list[str] = []
    marks: list[str] | None = None
    for line in block:
        if marks is None and _COLOURS.fullmatch(line.strip()):
            marks = []
            rest = line.strip().split(":", 1)[1].strip()
            if rest:
                marks.append(rest)
            continue
        if marks is not None:
            if not _MARKS.fullmatch(line):
                return None
            marks.append(line)
        elif _ROW.fullmatch(line):
            rows.append(line)
        else:
            return None
    if not rows or not any(ch.isupper() or ch == "." for row in rows for ch in row):
        return None
    return rows if marks is None else [*rows, "colours:", *marks]


def _verb(first: str) -> str:
    """The verb a first line starts with, lower-cased; ``""`` for a line in
    capitals, which is a crossword's row (RESIGN can be a word laid)."""
    head = first.split()[0].strip("\"'“”.!,;")
    return "" if head.isupper() else head.lower()


def read_reply(text: str, subject: str = "") -> ReplyReading:
    answering, lines = _answering(_fresh_lines(text))
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None:
        return ReplyReading(None, None, "", problem_with("Your reply holds no crossword."))
    first = lines[start].strip()
    verb = _verb(first)
    alone = len(first.split()) == 1
    if verb in _WORDS and alone:
        return ReplyReading(verb, answering, first, None)
    if verb == "pass" and alone:
        return ReplyReading(
            None, answering, first, problem_with("There is no passing in Tumble-Words.")
        )
    if verb == "submit":
        head = first.split(maxsplit=1)[1] if not alone else ""
        below = _block(lines, start + 1) if alone else []
        move = "\n".join([f"submit {head}".rstrip(), *below])
        return ReplyReading(move, answering, "\n".join([first, *below]), None)
    block = _block(lines, start)
    found = _rows_and_colours(block)
    if found is None:
        return ReplyReading(
            None, None, first, problem_with(f"“{first[:60]}” is not a row of a crossword.")
        )
    return ReplyReading("submit\n" + "\n".join(found), answering, "\n".join(block), None)
