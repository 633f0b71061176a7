"""Reading a player's move out of the text of an email reply.

The text has already lost its quoted history and signature (:mod:`games.mail_in.inbound`
does that); what is left may still hold a greeting, politeness and decoration.
:func:`read_reply` finds the one line that is a move and writes it in the record's
notation (``3 FACTS``, ``pass``, ``exchange QU X``, ...).  It does not judge the
move: the engine does that later, so a line that clearly means a move is handed on
even when the engine will refuse it (``12 FACTS``, ``3 FAÇTS``), because the
engine's refusal says precisely what is wrong.

Making a move the player did not mean is far worse than refusing with a message
that lists the accepted forms, so a line is read only when *all* of it fits a
form once decoration and politeness are set aside:

- decoration: ``*bold*``, ``**bold**``, backticks, quotation marks, bullets,
  dashes and other tokens without letters or digits, ``.``/``:``/``!``/``,``/``;``
  at the edges of words;
- politeness: a leading ``please``/``ok``, a trailing ``please``/``thanks``/
  ``thank you``, a leading ``I``/``I'll``/``I will``/``my move (is)``/``move``;
- ``#N`` anywhere names the move answered and is taken out first.

``resign`` is read only as ``resign`` or ``I resign``, and the reading says
whether it needs confirming: it does unless it stands alone on the first line.

A line with a ``?`` is a question and a line starting with ``>`` is quoted text:
neither is read.  A move's word is one token, so ``3 cheers for Bob!`` is prose.

Work is bounded whatever arrives: at most :data:`MAX_LINES` non-empty lines are
looked at, each cut at :data:`MAX_LINE_CHARS`, and the few regular expressions are
anchored or linear.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from itertools import islice

from games.engine.errors import Refusal
from games.engine.jumbulaya.notation import CallJumbulaya, parse_move
from games.engine.tiles import TWO_LETTER_FACES

from ..reply_reading import ANSWERING

MAX_LINES = 40
MAX_LINE_CHARS = 500
#: A refusal quotes at most this many lines of what was read, each cut this short.
SHOWN_LINES = 3
SHOWN_CHARS = 200
#: A move with its politeness is a handful of tokens; a longer line is prose.
_MAX_TOKENS = 12
#: Subject separators tried when cutting the original subject off a command.
_MAX_SUBJECT_CUTS = 8

_MOVE_FORMS = (
    "3 FACTS",
    "line 3: facts",
    "play 3 facts",
    "pass",
    "exchange Q X",
    "exchange all",
    "jumbulaya SPRINTS",
    "resign",
)
#: What a reply asking for hints is read as (:mod:`games.coach.hints` answers it).
HINT = "hint"
_ANSWER_NOTE = "add #17 to name the move you answer"
#: Examples shown to players.
ACCEPTED_FORMS: tuple[str, ...] = (*_MOVE_FORMS, _ANSWER_NOTE)


@dataclass(frozen=True)
class Reading:
    """What was read from a reply.

    ``answering`` is only set with a move: it names the position the move answers.
    """

    move: str | None
    answering: int | None
    #: The line the move was read from (stripped), or with no move the first few
    #: non-empty lines, so that a refusal can quote what was read.
    read: str
    #: With no move: why, listing the accepted forms.
    problem: str | None
    #: Further lines that also held a move: one move per reply, so not acted on.
    ignored: tuple[str, ...]
    from_subject: bool = False
    #: A resignation read from anything but a first line that holds it alone:
    #: it is not acted on until the player confirms it.
    unconfirmed_resign: bool = False


@dataclass(frozen=True, slots=True)
class _Line:
    move: str | None = None
    answering: int | None = None
    only_answer: bool = False  # the line is just "#N": it names the move answered
    quoted: bool = False
    #: Why a line that looks like a move was not read as one.
    note: str | None = None


_CHARS = str.maketrans({",": " ", ";": " ", "\u2018": "'", "\u2019": "'"})
_LEAD_DECORATION = "\"'“”«»„(*_`~-–—•·"
_TRAIL_DECORATION = "\"'“”«»)*_`~:.!"
_LEAD_POLITE = frozenset({"please", "pls", "ok", "okay"})
_TAIL_POLITE = frozenset({"please", "pls", "plz", "thanks", "thx"})
_LEAD_INS = (("i", "will"), ("i'll",), ("i",), ("my", "move", "is"), ("my", "move"), ("move",))
_LINE = re.compile(r"(?:(?:line|row|l) ?)?([0-9]{1,2})")
_NAMED_LINE = re.compile(r"(?:line|row|l) ?([0-9]{1,2})")
_SUBJECT_PREFIX = re.compile(
    r"(?:(?:re|aw|wg|fwd?|sv|vs|vb|antw|antwort|tr|r[ée]f|rif|odp|enc|res|r|ynt|vl|vá"
    r"|回复|回覆|答复|转发)\s*(?:\[[0-9]{1,4}\]\s*|\([0-9]{1,4}\)\s*)?:|\[[^\]]{0,80}\])\s*",
    re.IGNORECASE,
)
_SUBJECT_CUT = re.compile(r"\s[-–—]\s|[:|(]")
_TIMEOUT_NOTE = (
    "'timeout' is not a move you can send: the service writes it when a player's time runs out."
)
_SHORT_CALL_NOTE = (
    "'{move}' was not made: a JUMBULAYA word has 7 to 9 tiles, and a call that fails "
    "costs you a turn."
)


def read_reply(text: str, subject: str = "") -> Reading:
    """Read the move of a reply: the first line that is one, else the subject line
    (for mail clients that make writing in the body hard)."""
    lines = _first_lines(text)
    read = [_read_line(raw) for raw in lines]
    moves = [(raw, line) for raw, line in zip(lines, read, strict=True) if line.move is not None]
    answer_lines = [line.answering for line in read if line.only_answer]
    found = moves[0] if moves else _read_subject(subject)
    if found is None:
        shown = "\n".join(raw[:SHOWN_CHARS] for raw in lines[:SHOWN_LINES])
        return Reading(None, None, shown, _problem(read), ())
    raw, line = found
    answering = line.answering
    if answering is None and answer_lines:
        answering = answer_lines[0]
    ignored = tuple(raw for raw, _ in moves[1:])
    # Resigning cannot be undone: by email it takes effect only from the word
    # standing alone on the first line of the fresh text ("#N" allowed).
    alone = bool(moves) and raw is lines[0] and _resign_alone(raw)
    return Reading(
        line.move,
        answering,
        raw,
        None,
        ignored,
        from_subject=not moves,
        unconfirmed_resign=line.move == "resign" and not alone,
    )


def _resign_alone(raw: str) -> bool:
    """Whether a line is ``resign`` and nothing else but decoration and ``#N``."""
    text = ANSWERING.sub(" ", _normal(raw))
    return [w.lower() for w in _tokens(text)] == ["resign"]


def _first_lines(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        cut = line.strip()[:MAX_LINE_CHARS].rstrip()
        if cut:
            lines.append(cut)
            if len(lines) == MAX_LINES:
                break
    return lines


def _problem(read: list[_Line]) -> str:
    if not read:
        why = "No move was found: the reply has no text."
    elif all(line.quoted for line in read):
        why = "No move was found: every line of the reply is quoted (starts with '>')."
    else:
        notes = [line.note for line in read if line.note]
        why = notes[0] if notes else "No move was found in the reply."
    return problem_with(why)


def problem_with(why: str) -> str:
    """A refusal's reason: ``why``, then the accepted forms."""
    examples = [f"“{form}”" for form in _MOVE_FORMS]
    forms = ", ".join(examples[:-1]) + " or " + examples[-1]
    return f"{why} Write one move on a line of its own, such as {forms}; {_ANSWER_NOTE}."


def _read_subject(subject: str) -> tuple[str, _Line] | None:
    """A move at the start of the subject, once reply prefixes and ``[tags]`` are
    gone, possibly followed by a separator and the original subject."""
    raw = subject.strip()[:MAX_LINE_CHARS].rstrip()
    text = _normal(raw).strip()
    while prefix := _SUBJECT_PREFIX.match(text):
        text = text[prefix.end() :]
    cuts = [m.start() for m in islice(_SUBJECT_CUT.finditer(text), _MAX_SUBJECT_CUTS)]
    # longest first: "jumbulaya: sprints" is a move before "jumbulaya" is
    for end in [len(text), *reversed(cuts)]:
        line = _read_line(text[:end])
        if line.move is not None:
            return raw, line
    return None


def _normal(text: str) -> str:
    """Full-width forms folded (NFKC), invisible format characters (zero-width
    spaces, soft hyphens) dropped, control characters, commas and semicolons made
    spaces, curly apostrophes straight."""
    text = unicodedata.normalize("NFKC", text)[:MAX_LINE_CHARS].translate(_CHARS)
    kept = []
    for c in text:
        kind = unicodedata.category(c)
        if kind != "Cf":
            kept.append(" " if kind == "Cc" else c)
    return "".join(kept)


def _read_line(raw: str) -> _Line:
    text = _normal(raw).strip()
    if text.startswith(">"):
        return _Line(quoted=True)
    numbers = ANSWERING.findall(text)
    answering = int(numbers[0]) if numbers else None
    text = ANSWERING.sub(" ", text)
    if "?" in text:
        return _Line()
    words = _tokens(text)
    if len(words) > _MAX_TOKENS:
        return _Line()
    if not words or [w.lower() for w in words] == ["move"]:
        return _Line(answering=answering, only_answer=answering is not None)
    move = _move(words)
    if move is None and [w.lower() for w in _core(words)] == ["timeout"]:
        return _Line(note=_TIMEOUT_NOTE)
    if move is not None and move.startswith("jumbulaya ") and not _may_be_called(move):
        return _Line(note=_SHORT_CALL_NOTE.format(move=move))
    return _Line(move, answering)


def _tokens(text: str) -> list[str]:
    """The words of a line without their decoration; tokens that are decoration
    through and through (``-``, ``•``, ``:``, an emoji) are dropped."""
    words = []
    for token in text.split():
        word = token.lstrip(_LEAD_DECORATION).rstrip(_TRAIL_DECORATION)
        if any(c.isalnum() or c in "[]" for c in word):
            words.append(word)
    return words


def _core(words: list[str]) -> list[str]:
    """``words`` without politeness and one leading "I" or "my move"."""
    low = [w.lower() for w in words]
    start, end = 0, len(words)
    while start < end and low[start] in _LEAD_POLITE:
        start += 1
    while start < end:
        if low[end - 2 : end] == ["thank", "you"] and end - 2 >= start:
            end -= 2
        elif low[end - 1] in _TAIL_POLITE:
            end -= 1
        else:
            break
    for phrase in _LEAD_INS:
        if tuple(low[start : start + len(phrase)]) == phrase:
            start += len(phrase)
            break
    return words[start:end]


def _move(words: list[str]) -> str | None:
    low = [w.lower() for w in words]
    # Resigning cannot be undone, and "please resign" is something said to an
    # opponent: only the plain statement is read.
    if low in (["resign"], ["i", "resign"]):
        return "resign"
    core = _core(words)
    low = [w.lower() for w in core]
    if not core:
        return None
    if low == ["pass"]:
        return "pass"
    if low in (["hint"], ["hints"]):
        return HINT  # a question, not a move: answered with hints (when the game has them)
    if low[:2] == ["call", "jumbulaya"]:
        core, low = core[1:], low[1:]
    if low[0] == "jumbulaya":
        if len(core) == 1:
            return "jumbulaya"  # the engine asks for the word
        if len(core) == 2 and _is_word(core[1]):
            return f"jumbulaya {_upper(core[1])}"
        return None
    if low[0] in ("exchange", "swap"):
        return _exchange(core[1:])
    if low[0] == "play":
        core = core[1:]
    return _word_move(core)


def _word_move(words: list[str]) -> str | None:
    """``3 FACTS``, ``line 3 facts``, ``L3 facts``, ``facts on line 3``."""
    if len(words) >= 2 and _is_word(words[-1]):
        line = _line_number(words[:-1], _LINE)
        if line is not None:
            return f"{line} {_upper(words[-1])}"
    if len(words) >= 3 and _is_word(words[0]) and words[1].lower() in ("on", "in"):
        line = _line_number(words[2:], _NAMED_LINE)
        if line is not None:
            return f"{line} {_upper(words[0])}"
    return None


def _may_be_called(move: str) -> bool:
    """Whether a call's word can be 7 to 9 tiles.  Any other call is sure to fail,
    and a failed call is not refused: it costs the caller a turn.  So "Jumbulaya
    time!" is chatter, not a call."""
    try:
        command = parse_move(move)
    except Refusal:
        return True  # refused, which costs nothing, with the engine's own message
    if not isinstance(command, CallJumbulaya):
        return False
    word = command.word
    if word.tiles is None and not 7 <= len(word.text) <= 2 * 9:  # a tile has 1 or 2 letters
        return False
    return any(7 <= len(tiles) <= 9 for tiles in word.candidates())


def _line_number(words: list[str], pattern: re.Pattern[str]) -> str | None:
    found = pattern.fullmatch(" ".join(words).lower())
    return found.group(1) if found else None


def _exchange(words: list[str]) -> str | None:
    tiles = [w for w in words if w.lower() != "and"]
    if [t.lower() for t in tiles] in (["all"], ["all", "tiles"]):
        return "exchange all"
    if all(_is_tile(t) for t in tiles):  # none at all: the engine asks for the tiles
        return " ".join(["exchange", *(_upper(t) for t in tiles)])
    return None


def _is_word(token: str) -> bool:
    """Letters (of any script: the engine names the ones it does not allow), with
    the brackets and hyphens of an explicit spelling."""
    return any(c.isalpha() for c in token) and all(c.isalpha() or c in "[]-" for c in token)


def _is_tile(token: str) -> bool:
    """One letter, a two-letter face, or either in brackets.  Another two-letter
    word is not read as a tile: in "swap it", IT is English."""
    bracketed = token.startswith("[") and token.endswith("]")
    inner = token[1:-1] if bracketed else token
    if not inner.isalpha():
        return False
    return len(inner) == 1 or (len(inner) == 2 and (bracketed or inner.upper() in TWO_LETTER_FACES))


def _upper(token: str) -> str:
    """Upper case that keeps a non-ASCII letter non-ASCII (``ß`` does not become
    ``SS``, nor a dotless i an ``I``), so the engine refuses it instead of reading
    another word."""
    out = []
    for c in token:
        up = c.upper()
        out.append(up if c.isascii() or (len(up) == 1 and not up.isascii()) else c)
    return "".join(out)
