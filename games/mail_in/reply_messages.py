"""The message a player's email reply carries, as on the Diplomacy judges:
the text written after the move line (above the quoted part), or, in a reply
whose first line starts with ``say``, the whole reply (a message alone: no
move is read from it).

This reads only the reply's fresh text (:func:`games.mail_in.inbound.reply_part`
has cut the quoted history, our "reply above this line" marker and the
signature), so quoted history is never taken for a message.  A message by
email longer than ``JUMBULAYA_MESSAGE_MAX_CHARS`` is cut there, marked with
"…" (a reply's chatter is not refused; the move stands either way).
"""

from __future__ import annotations

import re

from django.conf import settings

from games.kinds.base import Reading

#: A message alone: ``say`` (or ``say:``) starting the first line, then the text.
SAY = re.compile(r"say(?:\s*:\s*|\s+|$)(.*)", re.IGNORECASE | re.DOTALL)


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def fitted(text: str) -> str:
    """``text`` without blank lines at either end, cut at the length limit."""
    text = text.strip()
    limit = settings.JUMBULAYA_MESSAGE_MAX_CHARS
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def said_alone(fresh: str) -> str | None:
    """The message of a reply whose first non-empty line starts with ``say``
    (``say Good luck!``, ``Say: well played``), with every line after it;
    ``None`` for any other reply."""
    lines = _lines(fresh)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return None
    found = SAY.fullmatch(lines[first].strip())
    if found is None:
        return None
    return fitted("\n".join([found.group(1), *lines[first + 1 :]]))


def said_after(fresh: str, reading: Reading) -> str:
    """The text after the line the move was read from (``""`` when the move
    came from the subject, or nothing follows it)."""
    if reading.move is None or not reading.read:
        return ""
    lines = _lines(fresh)
    for i, line in enumerate(lines):
        if line.strip() and line.strip().startswith(reading.read):
            return fitted("\n".join(lines[i + 1 :]))
    return ""
