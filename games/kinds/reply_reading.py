"""What the kinds' readers of email replies share: the reading they hand the
mail coming in (:class:`~games.kinds.base.Reading`), the ``#N`` that names the
position a reply answers, and the line where a reply's quoted part begins."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: ``#17``: the position a reply answers. "&#8217;" is an HTML entity and
#: "#17a" a tag: neither names one.
ANSWERING = re.compile(r"(?<![\w&])#([0-9]{1,9})(?!\w)")
#: A line that begins the message replied to, quoted without ``>``.
QUOTE_START = re.compile(r"^(?:on .+wrote:|-----\s*original message|from: )", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ReplyReading:
    """A reply as read: the move in the notation (``None``: none found), the
    position it answers, the lines read, why no move was found, and whether a
    resignation still needs confirming."""

    move: str | None
    answering: int | None
    read: str
    problem: str | None
    unconfirmed_resign: bool = False
