"""How much of an incoming email the service will read: bounds checked before
anything parses it.

Parsing costs what the sender chooses: a ``To:`` of 40,000 addresses took
20 s in the email library's address parser, 40,000 tiny MIME parts took 10 s,
a part whose ``Content-Type`` holds 100,000 parameters over two minutes, and
1,000 nested parts overflow the parser's recursion.  A reply to a game email
needs none of that: one sender, a few recipients, a text and an HTML part,
perhaps an attached photo or a quoted message.  So each check here is a
linear scan (literal searches and small regular expressions, no parsing), and
a message past a bound raises :class:`TooMuch`: it is dropped unread.

Attachments are never read.  In a raw message the body of every part that is
not text (nor a container of parts) is left out before parsing, so a 10 MB
photo costs a scan, not a parse; Postmark's are removed from its payload, and
Mailgun's posted files are discarded as they arrive (:mod:`games.mail_in.inbound_webhook`).

Bodies are read from their top only.  A move is a line at the top of a reply
(what follows it is quoted history and signatures, never read), so each body
(a text part of a raw message, or a text or HTML body an ESP posts as a field)
is cut to its first :data:`MAX_BODY_BYTES` before parsing: a 20 MB reply is
read like its first 256 KB, and the move at its top is made.  Nothing past a
bound of a body is refused: a long reply is an ordinary one that went on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, overload

#: The message's own header block (real replies, Received, DKIM and a long
#: References chain included, stay under 20 KB).
MAX_HEADER_BYTES = 128 * 1024
#: All address headers together (To, Cc, From, Reply-To, …).
MAX_ADDRESS_BYTES = 32 * 1024
#: Addresses in them, counted as ``@`` signs.
MAX_ADDRESSES = 100
#: Lines that start with ``--``: every MIME part begins with one, so this
#: bounds the number of parts (a signature's ``-- `` counts too).
MAX_DELIMITER_LINES = 200
#: ``multipart/*`` and ``message/*`` parts, which bounds how deep parts nest.
MAX_CONTAINERS = 16
#: A part's own header block.
MAX_PART_HEADER_BYTES = 16 * 1024
#: The envelope fields an ESP posts beside the message (sender, recipient).
MAX_ENVELOPE_BYTES = 1024
#: The most of one body kept, as posted (base64 or quoted-printable in a raw
#: message): room for a move, a message to the others and the top of what
#: they quote, in any encoding, while a parse of it costs milliseconds.
#: (:mod:`games.mail_in.inbound` reads less still: 20,000 characters of text,
#: and of an HTML body only what comes first after its head.)
MAX_BODY_BYTES = 256 * 1024
#: The bodies an ESP posts as fields of their own.
POSTMARK_BODIES = ("TextBody", "HtmlBody", "StrippedTextReply")
MAILGUN_BODIES = ("body-plain", "body-html", "stripped-text", "stripped-html")


class TooMuch(Exception):
    """A message past one of the bounds; ``reason`` says which, for the log."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_ADDRESS_HEADERS = (
    r"to|cc|bcc|from|sender|reply-to|delivered-to|x-original-to|envelope-to|return-path"
    r"|resent-(?:to|cc|bcc|from|sender)"
)
#: An address header and its folded continuation lines (in text that starts
#: with a newline: a literal start keeps the scan fast).
_ADDRESS_FIELD = re.compile(rf"\n(?:{_ADDRESS_HEADERS})[ \t]*:(.*(?:\n[ \t].*)*)", re.IGNORECASE)
_ADDRESS_NAME = re.compile(rf"(?:{_ADDRESS_HEADERS})\Z", re.IGNORECASE)
#: A ``Content-Type`` of a container, and the rest of its (folded) field.
_CONTAINER = re.compile(
    r"\ncontent-type[ \t]*:[ \t]*(?:\n[ \t]+)?(multipart|message)/([^\n]*(?:\n[ \t][^\n]*)*)",
    re.IGNORECASE,
)
_BOUNDARY = re.compile(r"""boundary[ \t]*=[ \t]*(?:"([^"\n]{1,200})"|([^\s;"]{1,200}))""", re.I)
#: A part's ``Content-Type`` that keeps its body: text, or more parts.
_READ_TYPE = re.compile(r"\ncontent-type[ \t]*:[ \t]*(?:\n[ \t]+)?(text|multipart|message)/", re.I)
_ANY_TYPE = re.compile(r"\ncontent-type[ \t]*:", re.I)


def _kb(size: int) -> str:
    return f"{size // 1024:,} KB"


@overload
def bounded_mime(raw: str) -> str: ...
@overload
def bounded_mime(raw: bytes) -> bytes: ...
def bounded_mime(raw: str | bytes) -> str | bytes:
    """The raw message ``raw``, checked against the bounds, with the bodies of
    its attachments left out (and newlines made ``\\n``).  Raises
    :class:`TooMuch` for a message past a bound."""
    if isinstance(raw, bytes):  # latin-1 maps every byte to one character and back
        return bounded_mime(raw.decode("latin-1")).encode("latin-1")
    text = "\n" + raw.replace("\r\n", "\n")
    end = text.find("\n\n")
    head = text if end < 0 else text[: end + 1]
    if len(head) > MAX_HEADER_BYTES:
        raise TooMuch(f"its headers are {_kb(len(head))}, more than {_kb(MAX_HEADER_BYTES)}")
    _check_addresses(m.group(1) for m in _ADDRESS_FIELD.finditer(head))
    boundaries: list[str] = []
    for n, container in enumerate(_CONTAINER.finditer(text), 1):
        if n > MAX_CONTAINERS:
            raise TooMuch(f"it has more than {MAX_CONTAINERS} multipart or message parts")
        declared = _BOUNDARY.search(container.group(2))
        if container.group(1).lower() == "multipart" and declared:
            boundaries.append("--" + (declared.group(1) or declared.group(2)).rstrip())
    delimiters: list[int] = []
    at = text.find("\n--")
    while at >= 0:
        if len(delimiters) == MAX_DELIMITER_LINES:
            raise TooMuch(f"it has more than {MAX_DELIMITER_LINES} lines starting with '--'")
        delimiters.append(at + 1)
        at = text.find("\n--", at + 1)
    return _bounded_bodies(text, [d for d in delimiters if _is_delimiter(text, d, boundaries)])


def _is_delimiter(text: str, start: int, boundaries: list[str]) -> bool:
    """Whether the line at ``start`` is a boundary line of a declared multipart
    (``--boundary`` or ``--boundary--``, trailing blanks allowed), as the
    email parser reads one."""
    end = text.find("\n", start)
    line = (text[start:] if end < 0 else text[start:end]).rstrip(" \t")
    return line in boundaries or line.removesuffix("--") in boundaries


def _bounded_bodies(text: str, delimiters: list[int]) -> str:
    """``text`` (which starts with a newline) without the leading newline,
    without the bodies of the parts that are not text, and with every other
    body cut to its first :data:`MAX_BODY_BYTES`: each body runs from the blank
    line after its headers to the next boundary line (the message's own body
    from the blank line after the message's headers)."""
    pieces: list[str] = []
    kept = 1
    head_end = text.find("\n\n")
    if head_end >= 0:  # the message's own body, or the preamble of its parts
        stop = delimiters[0] - 1 if delimiters else len(text)
        pieces.append(text[kept : _cut(text, head_end + 2, stop)])
        kept = stop
    for i, start in enumerate(delimiters):
        line_end = text.find("\n", start)
        if line_end < 0:
            break
        body = text.find("\n\n", line_end, line_end + MAX_PART_HEADER_BYTES + 2)
        if body < 0:
            if len(text) - line_end > MAX_PART_HEADER_BYTES + 1:
                raise TooMuch(f"a part's headers are more than {_kb(MAX_PART_HEADER_BYTES)}")
            continue
        stop = delimiters[i + 1] - 1 if i + 1 < len(delimiters) else len(text)
        if stop <= body + 2:  # no body (or its blank line is past the next part's start)
            continue
        headers = text[line_end : body + 1]
        if _READ_TYPE.search(headers) or not _ANY_TYPE.search(headers):
            end = _cut(text, body + 2, stop)  # text (the default type), or a container
        else:
            end = body + 2  # an attachment: its body left out
        pieces.append(text[kept:end])
        kept = stop
    pieces.append(text[kept:])
    return "".join(pieces)


def _cut(text: str, start: int, stop: int) -> int:
    """Where the body ``text[start:stop]`` ends once cut to its first
    :data:`MAX_BODY_BYTES`: at the end of its last whole line (so that a
    base64 body, in lines of whole groups of four, still decodes), else at
    the bound itself."""
    if stop - start <= MAX_BODY_BYTES:
        return stop
    line_end = text.rfind("\n", start, start + MAX_BODY_BYTES + 1)
    return line_end if line_end > start else start + MAX_BODY_BYTES


def bounded_body(body: str) -> str:
    """A body posted as a field of its own, cut to its first
    :data:`MAX_BODY_BYTES` (at a line's end where it has one)."""
    return body[: _cut(body, 0, len(body))]


def _check_addresses(values: Iterable[str]) -> None:
    size = count = 0
    for value in values:
        size += len(value)
        count += value.count("@")
        if size > MAX_ADDRESS_BYTES:
            raise TooMuch(f"its address headers are more than {_kb(MAX_ADDRESS_BYTES)}")
        if count > MAX_ADDRESSES:
            raise TooMuch(f"it names more than {MAX_ADDRESSES} addresses")


def check_headers(headers: Iterable[tuple[object, object]]) -> None:
    """Bounds for a message given as ``(name, value)`` header pairs (Postmark's
    ``Headers``, Mailgun's ``message-headers``); raises :class:`TooMuch`."""
    size = 0
    addresses: list[str] = []
    for name, value in headers:
        name_text, value_text = str(name), str(value)
        size += len(name_text) + len(value_text) + 4
        if size > MAX_HEADER_BYTES:
            raise TooMuch(f"its headers are more than {_kb(MAX_HEADER_BYTES)}")
        if _ADDRESS_NAME.match(name_text.strip()):
            addresses.append(value_text)
    _check_addresses(addresses)


def _pairs(items: Any, first: str, second: str) -> list[tuple[object, object]]:
    if not isinstance(items, list):
        return []
    return [(item.get(first, ""), item.get(second, "")) for item in items if isinstance(item, dict)]


def bounded_postmark(payload: dict[str, Any]) -> dict[str, Any]:
    """Postmark's inbound JSON, checked against the bounds, without its
    attachments, its bodies cut to their tops.  Raises :class:`TooMuch`.

    Only what has the documented shape is measured here; a payload of another
    shape is left to anymail, which refuses it as unreadable."""
    payload = {**payload, "Attachments": []}
    if isinstance(payload.get("RawEmail"), str):
        payload["RawEmail"] = bounded_mime(payload["RawEmail"])
    for field in POSTMARK_BODIES:
        if isinstance(payload.get(field), str):
            payload[field] = bounded_body(payload[field])
    check_headers(_pairs(payload.get("Headers"), "Name", "Value"))
    people: list[tuple[object, object]] = []
    for field in ("ToFull", "CcFull", "BccFull"):
        people += _pairs(payload.get(field), "Name", "Email")
    people += _pairs([payload.get("FromFull")], "Name", "Email")
    if len(people) > MAX_ADDRESSES:
        raise TooMuch(f"it names more than {MAX_ADDRESSES} addresses")
    _check_addresses(f"{name} <{email}>" for name, email in people)
    for field in ("Subject", "From", "To", "Cc", "Bcc", "ReplyTo", "Date"):
        value = payload.get(field)
        if isinstance(value, str) and len(value) > MAX_ADDRESS_BYTES:
            raise TooMuch(f"its {field} is more than {_kb(MAX_ADDRESS_BYTES)}")
    return payload


def bounded_mailgun(form: dict[str, str]) -> dict[str, str]:
    """Mailgun's inbound form (its text fields; files are never kept) checked
    against the bounds.  Returns the fields to post in its place: the raw
    message checked and cut by :func:`bounded_mime` for a raw-MIME route
    (``body-mime``), the bodies cut to their tops for the fully parsed fields.
    Raises :class:`TooMuch`."""
    for field in ("sender", "recipient"):
        if len(form.get(field, "")) > MAX_ENVELOPE_BYTES:
            raise TooMuch(f"its envelope {field} is more than {_kb(MAX_ENVELOPE_BYTES)}")
    if "body-mime" in form:
        return {"body-mime": bounded_mime(form["body-mime"])}
    bodies = {field: bounded_body(form[field]) for field in MAILGUN_BODIES if field in form}
    raw_headers = form.get("message-headers", "[]")
    if len(raw_headers) > 2 * MAX_HEADER_BYTES:  # JSON escaping at most doubles the text here
        raise TooMuch(f"its headers are more than {_kb(MAX_HEADER_BYTES)}")
    try:
        headers = json.loads(raw_headers)
    except ValueError:
        return bodies  # anymail refuses it as unreadable
    if isinstance(headers, list):
        check_headers(
            (pair[0], pair[1]) for pair in headers if isinstance(pair, list) and len(pair) == 2
        )
    return bodies
