"""Moves by email: what happens to a reply to a game email.

:func:`receive` is the one path for every incoming email, whether an ESP's
inbound webhook (through django-anymail) or the local mailbox's reply form
brought it.  In order:

1. **Automatic mail is dropped**: ``Auto-Submitted`` other than ``no``,
   ``X-Autoreply``/``X-Autorespond``, ``Precedence: bulk/junk/list/auto_reply``,
   mailer-daemon or postmaster senders, our own addresses.
2. **Only a player's own reply acts**: the reply token (:mod:`games.mail_out.reply_addresses`)
   must verify, in the address it was sent to or in the Message-IDs it answers,
   and the sender must be the address of the user it names.  Anything else is
   dropped, logged, and never answered (no backscatter to forged senders).
3. **Once per Message-ID**: the ``InboundMail`` row's unique ``message_id`` is
   written in the same transaction as the move, so an ESP that delivers one
   webhook many times makes one move.  A sender past
   ``JUMBULAYA_INBOUND_PER_HOUR`` answered replies in the last hour is dropped.
4. **Reading**: the text (or the HTML, as text) above the "reply above this
   line" marker, without quoted history and signatures (mail-parser-reply), is
   read by :mod:`games.kinds.jumbulaya.replies`; the subject line is read when the body
   holds no move.  Nothing below the first sign of quoted history is read
   (:mod:`games.mail_in.reply_history`), and ``resign`` acts only standing alone on the
   first line: anything less is answered with a request to confirm.  ``#N``
   names the move answered: a reply to a position that has moved on is
   refused, not applied to the new one.
5. **Acting and answering**: the move goes through :func:`games.core.door.submit`
   (source ``email``) and an answer is owed in the game's thread: "done" with
   the new board, or a refusal that quotes what was read and says why.
6. **Messages** (:mod:`games.mail_in.reply_messages`): the text after the move
   line goes to everyone in the game with the move; a reply whose first line
   starts with ``say`` is a message alone, read for no move.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import timedelta
from email.utils import getaddresses, parseaddr

import html2text
from anymail.inbound import AnymailInboundMessage
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from mailparser_reply import EmailReplyParser

from accounts.models import User
from games.coach.hints import HINT_REPLY
from games.core import chat, door, projection, windows
from games.core.projection import kind_of
from games.core.seat_changes import left_game, left_in_words
from games.engine.errors import Refusal
from games.kinds import presentation
from games.mail_in import reply_messages
from games.mail_in.hint_answers import hints_text
from games.mail_in.reply_history import fresh_text
from games.mail_out import outbox
from games.mail_out.emails import REPLY_MARKER
from games.mail_out.reply_addresses import find_token, inbound_domain
from games.models import Event, Game, InboundMail, Message, Notification, Seat
from ops import logs

log = logging.getLogger(__name__)

#: ``Precedence`` values of automatic mail.
AUTOMATIC_PRECEDENCE = frozenset({"bulk", "junk", "list", "auto_reply"})
#: Senders that are never people.
ROBOT_SENDERS = frozenset({"mailer-daemon", "postmaster"})
#: Languages of the "On … wrote:" lines and signatures the reply parser knows here.
REPLY_LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pl", "sv", "da", "cs", "ja", "ko", "zh"]
#: The most text read from one email (a move is one line near the top).
MAX_TEXT = 20_000
#: The most of an HTML body converted to text, its head and styles left out:
#: html2text took 31 s over 20 MB, and a move is at the top.
MAX_HTML_READ = 64 * 1024
#: How deep lists and quotes nest in the HTML converted.  Each level indents
#: every line inside it once more, so the text grows with the square of the
#: depth: 64 KB of nested ``<ol><li>`` made 80 MB of text in 21 s.
MAX_HTML_NESTING = 8
#: The most of a structured header's value read (Auto-Submitted, Precedence).
MAX_HEADER_VALUE = 200
Status = InboundMail.Status
#: Why a reply with nothing above its quoted history moved nothing.
HISTORY_ONLY = (
    "No move was found: nothing was written above the quoted history, and what is quoted "
    "(below “On … wrote:”, “-----Original Message-----”, a From:/Sent: block or a line "
    "starting with '>') is never read."
)
#: The answer to a resignation that did not stand alone on the first line.
UNCONFIRMED_RESIGN = (
    "Resigning cannot be undone, so a reply resigns only when “resign” stands alone on "
    "its first line, and yours did not: you are still in the game. To resign, reply with "
    "just “resign” on the first line, or open the game with the link below and press "
    "Resign (the page asks you once more)."
)


@dataclass(frozen=True)
class Outcome:
    """What came of one email: ``status`` is an ``InboundMail.Status`` or
    ``"duplicate"`` (seen before: nothing done)."""

    status: str
    reason: str
    inbound_id: int | None = None


# --- headers, safely -----------------------------------------------------------


def header_values(message: AnymailInboundMessage, name: str) -> list[str]:
    """Every value of a header (it may be given more than once), as text; none
    when it is missing or unreadable."""
    try:
        return [str(v) for v in message.get_all(name) or []]
    except Exception:  # a malformed header is the sender's problem, never a 500
        return []


def header(message: AnymailInboundMessage, name: str) -> str:
    """A header's values as one text, ``""`` when missing or unreadable."""
    return " ".join(header_values(message, name))


def raw_header(message: AnymailInboundMessage, name: str) -> str:
    """A header's value as it was sent, RFC 2047 encoded words left encoded.

    The sender is read from this: decoded, ``From: =?utf-8?q?ann=40example.com?=``
    (a display name, no address at all) reads as ``ann@example.com``, and
    ``=?utf-8?q?ann=40example.com=3E=00?=@evil.example`` likewise."""
    try:
        values = [str(v) for k, v in message.raw_items() if k.lower() == name.lower()]
        # 8-bit bytes come as surrogate escapes: read them as UTF-8
        return " ".join(values).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except Exception:  # a malformed header is the sender's problem, never a 500
        return ""


def address(value: str) -> str:
    return parseaddr(value)[1].strip().lower()


def addresses(message: AnymailInboundMessage) -> list[str]:
    """Every address the message was sent to, envelope included."""
    found = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        value = header(message, name)
        if value:  # getaddresses() reads nothing at all from a list holding an empty field
            found += [a.strip() for _, a in getaddresses([value]) if a]
    envelope = getattr(message, "envelope_recipient", None)
    if isinstance(envelope, str) and envelope:
        found.append(envelope.strip())
    return found


def message_key(message: AnymailInboundMessage) -> str:
    """The Message-ID, or a digest of the message when it has none."""
    mid = header(message, "Message-ID").strip()
    if mid and len(mid) <= 255:
        return mid
    try:
        raw = _content(message)
    except Exception:  # unreadable: the headers that could be read stand for it
        raw = repr(sorted(message.keys())).encode() + header(message, "Date").encode()
    return "sha256:" + hashlib.sha256(raw).hexdigest()


#: The headers a message without a Message-ID is known by: those its sender
#: wrote, not those each relay adds on the way (Received, Return-Path, an ESP's
#: own), which differ between two deliveries of the same message.
KEY_HEADERS = ("from", "to", "cc", "subject", "date", "in-reply-to", "references")


def _content(message: AnymailInboundMessage) -> bytes:
    """The sender's headers and the parts' content, not the MIME layout:
    django-anymail builds an ESP's parsed payload (Postmark, Mailgun's parsed
    form) into a new message on every post, with new multipart boundaries each
    time."""
    head = [f"{k}: {v}" for k, v in message.items() if k.lower() in KEY_HEADERS]
    chunks = ["\n".join(head).encode()]
    for part in message.walk():
        if not part.is_multipart():
            chunks += [part.get_content_type().encode(), part.get_payload(decode=True) or b""]
    return b"\0".join(chunks)


def own_addresses() -> set[str]:
    return {address(settings.DEFAULT_FROM_EMAIL), address(settings.SERVER_EMAIL)}


def _uncommented(value: str) -> str:
    """A structured header's value, lower-cased, its (comments) left out:
    ``Auto-Submitted: no (sent by a person)`` is ``no``.  Only its start is
    read: these values are a word or two, and a long one cannot cost much."""
    value = value[:MAX_HEADER_VALUE]
    while re.search(r"\([^()]*\)", value):
        value = re.sub(r"\([^()]*\)", " ", value)
    return " ".join(value.lower().split())


def automatic(message: AnymailInboundMessage, sender: str) -> str | None:
    """Why ``message`` is automatic mail, or ``None`` when a person sent it.
    When in doubt it is automatic: a person's reply that is dropped costs a
    resend, an answered robot can start a mail loop."""
    # RFC 3834: a keyword, then ;parameters; every such header must say "no".
    auto = [_uncommented(v) for v in header_values(message, "Auto-Submitted")]
    if any(v.split(";")[0].strip() != "no" for v in auto):
        return f"Auto-Submitted: {' '.join(auto)[:40]}"
    for name in ("X-Autoreply", "X-Autorespond"):
        if header_values(message, name):  # set, whatever its value
            return f"{name} is set"
    precedence = _uncommented(header(message, "Precedence"))
    if AUTOMATIC_PRECEDENCE.intersection(re.findall(r"[a-z_-]+", precedence)):
        return f"Precedence: {precedence[:40]}"
    local, _, domain = sender.partition("@")
    if not sender or local in ROBOT_SENDERS:
        return "a bounce or a mail system's report"
    if sender in own_addresses() or domain == inbound_domain().lower():
        return "sent by this service"
    return None


# --- the text of a reply -----------------------------------------------------------


#: Where a block html2text shows nothing of starts, and where each ends (an
#: unclosed ``<head>`` where the body starts, as html2text reads it).
_HIDDEN_START = re.compile(r"<(head|style|script)\b", re.IGNORECASE)
_HIDDEN_END = {
    "head": re.compile(r"</head\s*>|(?=<body\b)", re.IGNORECASE),
    "style": re.compile(r"</style\s*>", re.IGNORECASE),
    "script": re.compile(r"</script\s*>", re.IGNORECASE),
}
#: The tags whose nesting indents the text made of them.
_NESTING_TAG = re.compile(r"<(/?)(ol|ul|blockquote)\b[^<>]*>", re.IGNORECASE)


def _html_as_text(html: str) -> str:
    """The top of an HTML body as text (see :func:`_top_of` and :func:`_flattened`),
    by a converter of its own: an html2text converter keeps state between
    messages (an unclosed ``<blockquote>`` in one would quote the next)."""
    converter = html2text.HTML2Text()
    converter.ignore_links = True
    converter.ignore_images = True
    converter.ignore_emphasis = True
    converter.body_width = 0
    return converter.handle(_flattened(_top_of(html)))


def _top_of(html: str) -> str:
    """The first :data:`MAX_HTML_READ` characters of ``html`` that are shown:
    its ``<head>``, ``<style>`` and ``<script>`` blocks, which html2text reads
    as nothing, are left out first (Outlook's head holds tens of KB of styles)."""
    pieces: list[str] = []
    size = kept = 0
    while size < MAX_HTML_READ and (hidden := _HIDDEN_START.search(html, kept)):
        pieces.append(html[kept : hidden.start()])
        size += hidden.start() - kept
        end = _HIDDEN_END[hidden.group(1).lower()].search(html, hidden.end())
        kept = end.end() if end else len(html)
    pieces.append(html[kept : kept + MAX_HTML_READ])
    return "".join(pieces)[:MAX_HTML_READ]


def _flattened(html: str) -> str:
    """``html`` without the tags of the lists and quotes nested past
    :data:`MAX_HTML_NESTING` levels (what they hold stays, less indented).
    Lists and quotes are counted apart, as html2text counts them."""
    depth = {"list": 0, "quote": 0}
    pieces: list[str] = []
    kept = 0
    for tag in _NESTING_TAG.finditer(html):
        kind = "quote" if tag.group(2).lower() == "blockquote" else "list"
        closing = tag.group(1) == "/"
        if not closing:
            depth[kind] += 1
        if depth[kind] > MAX_HTML_NESTING:
            pieces.append(html[kept : tag.start()])
            kept = tag.end()
        if closing:
            depth[kind] = max(0, depth[kind] - 1)
    pieces.append(html[kept:])
    return "".join(pieces)


def body_text(message: AnymailInboundMessage) -> str:
    """The reply's text: the plain part, else the HTML part as text.

    Only the message's own body counts (``get_body``): an attached email
    (``message/rfc822``) holds text parts of its own, which anymail's ``.text``
    would find first when the reply itself is HTML only."""
    try:
        text = _body_part(message, "plain")
        if not text.strip():
            html = _body_part(message, "html")
            text = _html_as_text(html) if html else ""
    except Exception:  # an unreadable part reads as no text: the refusal says so
        text = ""
    return storable(text[:MAX_TEXT])


def storable(text: str) -> str:
    """``text`` as a database can store it: PostgreSQL refuses NUL characters, and
    no database takes the lone surrogates a UTF-7 part can decode to."""
    return text.replace("\x00", "\ufffd").encode("utf-8", "replace").decode("utf-8")


def _body_part(message: AnymailInboundMessage, subtype: str) -> str:
    part = message.get_body(preferencelist=(subtype,))
    if part is None:
        return ""
    try:
        return part.get_content_text() or ""
    except LookupError:  # a charset Python does not know ("unknown-8bit", "x-mac-foo")
        raw = part.get_payload(decode=True) or b""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return raw.decode("latin-1")


def reply_part(text: str) -> str:
    """What the player wrote: above our marker and the first sign of quoted
    history (:mod:`games.mail_in.reply_history`), without a signature."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in enumerate(lines):
        if REPLY_MARKER in line:
            lines = lines[:i]
            break
    above = fresh_text("\n".join(lines))
    try:
        replies = EmailReplyParser(languages=REPLY_LANGUAGES).read(text=above).replies
    except Exception:  # the parser failed: the marker cut stands on its own
        return above
    if not replies:
        return ""
    # The newest reply without its signature: "-- " and what follows, "Best
    # regards, …" or "Sent from my phone" is never read as a move.  (Its
    # attribution line, if it starts with one, stays: it is quoted back.)
    newest = replies[0]
    content, signature = str(newest.content), str(newest.signatures)
    return content.replace(signature, "") if signature else content


# --- receiving -----------------------------------------------------------------------


def receive(message: AnymailInboundMessage, *, via: str) -> Outcome:
    """Handle one incoming email; see the module's docstring."""
    key = storable(message_key(message))
    sender = storable(address(raw_header(message, "From")))
    subject = storable(" ".join(header(message, "Subject").split())[:255])
    why = automatic(message, sender)
    token = None
    user: User | None = None
    game: Game | None = None
    if why is None:
        token = find_token(
            addresses(message), [header(message, "In-Reply-To"), header(message, "References")]
        )
        if token is None:
            why = "no valid reply token in its addresses or references"
    if why is None and token is not None:
        user = User.objects.filter(pk=token.user_id, is_active=True).first()
        game = Game.objects.filter(pk=token.game_id).first()
        if user is None or game is None:
            why = "the token names a user or game that is gone"
        elif not user.email or user.email.lower() != sender:
            why = "the sender is not the player the token names"
        elif _answered_lately(sender) >= settings.JUMBULAYA_INBOUND_PER_HOUR:
            why = "the sender is over the hourly limit of replies"
    with transaction.atomic():
        try:
            with transaction.atomic():
                row = InboundMail.objects.create(
                    message_id=key,
                    via=via[:32],
                    sender=sender[:254],
                    subject=subject,
                    status=Status.DROPPED,
                    reason=why or "",
                    game=game if why is None else None,
                    user=user if why is None else None,
                )
        except IntegrityError:
            log.info("inbound %s via %s: seen before, nothing done", _short(key), via)
            logs.event("email_received", status="duplicate", source=via)
            return Outcome("duplicate", "this message was processed before")
        if why is not None or user is None or game is None:
            log.info("inbound %s via %s dropped: %s", _short(key), via, why)
            _log_received(row, Status.DROPPED)
            return Outcome(Status.DROPPED, why or "", row.pk)
        outcome = _act(row, message, user, game, subject)
        _log_received(row, outcome.status, game.last_seq)
        return outcome


def _log_received(row: InboundMail, status: str, seq: int | None = None) -> None:
    """The structured line of a reply handled, once its transaction commits: the
    game, the move it made (else the game's sequence number as the reply
    found it), what came of it; never the sender or the text."""
    seq = row.event_seq if row.event_seq is not None else seq
    transaction.on_commit(
        lambda: logs.event(
            "email_received",
            game=row.game_id,
            seq=seq,
            inbound=row.pk,
            status=str(status),
            source=row.via,
        )
    )


def drop_unread(material: bytes, *, via: str, sender: str, reason: str) -> Outcome:
    """Keep a message that was past a bound (:mod:`games.mail_in.inbound_limits`) as
    dropped, unread: known by a digest of ``material`` (what the ESP posted of
    it), so that the ESP's retries are seen as duplicates."""
    key = "sha256:" + hashlib.sha256(material).hexdigest()
    log.warning("inbound %s via %s dropped unread: %s", key, via, reason)
    try:
        with transaction.atomic():
            row = InboundMail.objects.create(
                message_id=key,
                via=via[:32],
                sender=storable(address(sender[:254]))[:254],
                status=Status.DROPPED,
                reason=f"not read: {reason}",
            )
    except IntegrityError:
        return Outcome("duplicate", "this message was processed before")
    return Outcome(Status.DROPPED, row.reason, row.pk)


def _short(key: str) -> str:
    """A Message-ID for the log: enough to find it, no more."""
    return key[:80]


def _answered_lately(sender: str) -> int:
    since = timezone.now() - timedelta(hours=1)
    return (
        InboundMail.objects.filter(sender=sender, received_at__gte=since)
        .exclude(status=Status.DROPPED)
        .count()
    )


def _act(
    row: InboundMail, message: AnymailInboundMessage, user: User, game: Game, subject: str
) -> Outcome:
    """Read the move, make it, and owe the answer (inside :func:`receive`'s
    transaction)."""
    text = body_text(message)
    fresh = reply_part(text)
    seat = Seat.objects.filter(game=game, user=user).first()
    alone = reply_messages.said_alone(fresh)
    if alone is not None and seat is not None:
        return _say(row, game, seat.index, alone)
    shown = presentation.of(kind_of(game))
    reading = shown.read_reply(fresh, subject)
    row.read = reading.read[:2000]
    row.move = (reading.move or "")[:120]
    if seat is None:
        left = left_game(game.pk, user.pk)
        said = left_in_words(left) if left is not None else "You do not have a seat in this game."
        return _refuse(row, game, said)
    if reading.move is None and text.strip() and not fresh.strip():
        return _refuse(row, game, shown.problem_with(HISTORY_ONLY))
    if reading.move is None:
        return _refuse(row, game, reading.problem or "No move was found in your reply.")
    if reading.move == HINT_REPLY:
        return _answer_hints(row, game, seat.index)
    if reading.unconfirmed_resign:
        return _refuse(row, game, UNCONFIRMED_RESIGN)
    expected = reading.answering if reading.answering is not None else game.last_seq
    try:
        done = door.submit(
            game.pk,
            seat.index,
            reading.move,
            expected,
            Event.Source.EMAIL,
            idempotency_key="email:" + hashlib.sha256(row.message_id.encode()).hexdigest()[:48],
        )
    except door.StaleMove:
        game.refresh_from_db()
        if expected > game.last_seq:
            why = (
                f"Your reply names move #{expected}, but the game is only at move "
                f"#{game.last_seq}: no email of ours named that move."
            )
        else:
            why = (
                f"Your reply answers move #{expected}, but the game has moved on: it is at "
                f"move #{game.last_seq} now."
            )
        return _refuse(
            row,
            game,
            f"{why} Your move was not made, so that it is not applied to a position you "
            "have not seen. Look at the board below and reply again.",
        )
    except Refusal as e:  # an ambiguous word's message names the spellings accepted
        return _refuse(row, game, e.message)
    except projection.ServiceError as e:
        return _refuse(row, game, e.message)
    if done.overtaken:
        return _refuse(row, game, windows.overtaken_notice(game))
    said = reply_messages.said_after(fresh, reading)
    if said:
        try:  # in the move's transaction: the emails it owes carry the message
            chat.post_message(game.pk, seat.index, said, Message.Source.EMAIL)
        except chat.MessageRefused as e:
            log.info("inbound %s: its message was not posted: %s", _short(row.message_id), e)
    row.status = Status.MOVED
    row.event_seq = done.state.seq
    row.reason = "sealed until the claim window closes" if done.sealed else ""
    row.save(update_fields=["status", "event_seq", "reason", "read", "move"])
    outbox.owe(
        done.game, Notification.Kind.REPLY_DONE, users=[user.pk], seq=done.state.seq, inbound=row
    )
    return Outcome(Status.MOVED, row.reason, row.pk)


def _say(row: InboundMail, game: Game, seat: int, said: str) -> Outcome:
    """A ``say …`` reply: a message to everyone in the game, no move.  It is
    not answered when posted (it shows in the others' next emails and on the
    page); a refused one is answered with why."""
    row.read = said[:2000]
    try:
        chat.post_message(game.pk, seat, said, Message.Source.EMAIL)
    except chat.MessageRefused as e:
        return _refuse(row, game, e.message)
    row.status = Status.SAID
    row.reason = ""
    row.save(update_fields=["status", "reason", "read", "move"])
    return Outcome(Status.SAID, "", row.pk)


def _answer_hints(row: InboundMail, game: Game, seat: int) -> Outcome:
    """A ``hint`` reply: answered with the best word moves for the sender's rack
    (or, in a game without hints, with a sentence saying so); nothing is moved."""
    try:
        answer = hints_text(game, seat)
    except projection.ServiceError as e:
        answer = e.message
    row.status = Status.ANSWERED
    row.reason = answer
    row.save(update_fields=["status", "reason", "read", "move"])
    outbox.owe(
        game, Notification.Kind.REPLY_HINTS, users=[row.user_id], seq=game.last_seq, inbound=row
    )
    return Outcome(Status.ANSWERED, answer, row.pk)


def _refuse(row: InboundMail, game: Game, reason: str) -> Outcome:
    row.status = Status.REFUSED
    row.reason = reason
    row.save(update_fields=["status", "reason", "read", "move"])
    outbox.owe(
        game, Notification.Kind.REPLY_REFUSED, users=[row.user_id], seq=game.last_seq, inbound=row
    )
    return Outcome(Status.REFUSED, reason, row.pk)
