"""What the words of a page or an email must not hold (issue 29, point 8): a
count with the wrong form of its noun ("1 turns", "[R] has 1 tiles", "3
tile"), another game's name (a Blockers email inviting to "play Jumbulaya"),
and a move in the notation where a sentence says what was played
(``Done: your move "submit\\nTUSKED" was made``)."""

from __future__ import annotations

import re
from html import unescape

from games import kinds

#: The nouns pages and emails count.
NOUNS = (
    "turn", "tile", "point", "move", "cube", "round", "day", "hour", "minute", "second",
    "week", "player", "seat", "word", "letter", "group", "game", "call", "crossword",
    "square", "line", "step", "robot", "message", "email", "invitation", "record",
    "capture", "rack", "bonus", "time", "seal",
)  # fmt: skip
_NOUN = "|".join(NOUNS)
#: A count of one with its noun in the plural ("1 turns"), a minus sign or a
#: digit before it left out ("-1 points" is a score, "21 turns" is fine).
ONE_WITH_PLURAL = re.compile(rf"(?<![\d.,\u2212-])1 (?:(?:missed|more) )?(?:{_NOUN})s\b")
#: Any other count with its noun in the singular ("0 point", "17 turn").
MANY_WITH_SINGULAR = re.compile(
    rf"(?<![\d.,#\u2212-])(?:0|[2-9]|[1-9]\d+) (?:(?:missed|more) )?(?:{_NOUN})\b(?![-'\u2019])"
    rf"(?! (?:{_NOUN})s?\b)"  # "13 letter cubes": a noun before a noun
)
#: The site's own name, which says "Jumbulaya" on every page of every game.
SITE_NAME = re.compile(r"Jumbulaya by mail")


#: The elements whose text is not run on with the next's.
BLOCKS = (
    "td|th|tr|li|p|div|h[1-6]|dt|dd|caption|br|section|ul|ol|table|figcaption|nav"
    "|text|title|desc"  # a chart's labels, its title and its description
)


def text_of(html: str) -> str:
    """The words of a page or an HTML email (a chart's too): its markup,
    scripts and styles taken out, entities read, each cell, item, paragraph
    or label ended by a bar."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    # A cell, an item or a paragraph ends its words: "6 | turn 2" are two cells.
    html = re.sub(rf"</?(?:{BLOCKS})\b[^>]*>", " | ", html, flags=re.I)
    return " ".join(unescape(re.sub(r"<[^>]*>", " ", html)).split())


def main_of(html: str) -> str:
    """A page's own part: its ``main`` element, without the site's header and
    footer (whose brand, "Jumbulaya", is the site's name on every page)."""
    found = re.search(r"<main\b.*?</main>", html, flags=re.S)
    return found.group(0) if found else html


def plural_slips(text: str) -> list[str]:
    """Every count whose noun has the wrong number, in its context."""
    found = []
    for pattern in (ONE_WITH_PLURAL, MANY_WITH_SINGULAR):
        for m in pattern.finditer(text):
            found.append(text[max(0, m.start() - 30) : m.end() + 10])
    return found


def other_kinds_named(text: str, kind: str) -> list[str]:
    """The names of other kinds of game ``text`` holds (their labels, in any
    case; the site's name aside): a page or an email about a game of ``kind``
    names no other."""
    text = SITE_NAME.sub(" ", text)
    found = []
    for other in kinds.all():
        if other.name == kind:
            continue
        for m in re.finditer(rf"\b{re.escape(other.label)}\b", text, flags=re.I):
            found.append(text[max(0, m.start() - 30) : m.end() + 30])
    return found


def notation_shown(text: str, moves: tuple[str, ...], kind: str) -> list[str]:
    """The moves of ``moves`` (in the notation) that ``text`` shows as they
    were written (white space aside: a Tumble-Words crossword's rows are
    lines), where a sentence should say what was played.  The crossword
    game's log says where a word went as its players write it (``8G N(A)``),
    so its moves are read in that form; Blockers' notation is a sentence
    already (``7 at C7``)."""
    if kind in {"crossword", "blockers"}:
        return []
    flat = " ".join(text.split())
    shown = []
    for move in moves:
        if move.split()[0] in {"pass", "resign"} or move == "submit .":
            continue
        if " ".join(move.replace("/", " ").split()) in flat:
            shown.append(move)
    return shown
