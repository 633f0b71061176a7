"""Helpers of the reply-by-email tests: incoming messages as mail clients write them."""

from __future__ import annotations

import base64
import quopri
import re
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import make_msgid

from anymail.inbound import AnymailInboundMessage
from django.core.mail import EmailMultiAlternatives

from accounts.models import User
from games.core import projection
from games.engine.jumbulaya import legal_moves
from games.mail_in.inbound import Outcome
from games.mail_out.emails import REPLY_MARKER, message_for
from games.mail_out.reply_addresses import reply_address
from games.models import Game, InboundMail, Notification


def seat_user(game: Game, index: int) -> User:
    user = game.seats.get(index=index).user
    assert user is not None
    return user


def mover(game: Game) -> User:
    game.refresh_from_db()
    assert game.turn_seat is not None
    return seat_user(game, game.turn_seat)


def waiting(game: Game) -> User:
    game.refresh_from_db()
    assert game.turn_seat is not None
    return seat_user(game, (game.turn_seat + 1) % game.seat_count)


def reply_mime(
    game: Game,
    user: User,
    body: str = "pass",
    *,
    subject: str | None = None,
    sender: str | None = None,
    to: str | None = None,
    headers: dict[str, str] | None = None,
    message_id: str | None = None,
) -> EmailMessage:
    """A plain-text reply from ``user`` to their game email, the email quoted below."""
    mime = EmailMessage()
    mime["From"] = sender or f"{user.public_name} <{user.email}>"
    mime["To"] = to or reply_address(user.pk, game.pk)
    mime["Subject"] = subject if subject is not None else f"Re: Your turn in game {game.pk}"
    mime["Message-ID"] = message_id or make_msgid(domain="client.example")
    for name, value in (headers or {}).items():
        mime[name] = value
    quoted = f"\n\nOn Tue, 3 Jun 2025 at 14:00, Jumbulaya wrote:\n> {REPLY_MARKER}\n> Hello\n"
    mime.set_content(body + quoted)
    return mime


def parsed(mime: EmailMessage) -> AnymailInboundMessage:
    """The message as django-anymail hands it over."""
    return AnymailInboundMessage.parse_raw_mime_bytes(mime.as_bytes())


def answers(user: User) -> list[Notification]:
    return list(
        Notification.objects.filter(
            user=user,
            kind__in=[
                Notification.Kind.REPLY_DONE,
                Notification.Kind.REPLY_REFUSED,
                Notification.Kind.REPLY_HINTS,
            ],
        ).order_by("pk")
    )


# --- raw MIME, byte for byte as mail clients write it ----------------------------------

CRLF = b"\r\n"


def sent_email(game: Game, user: User) -> EmailMultiAlternatives:
    """The latest game email ``user`` was sent (or would be sent) in ``game``: what
    their client quotes when they answer it."""
    notes = (
        Notification.objects.filter(game=game, user=user)
        .select_related("game", "user")
        .order_by("-pk")
    )
    for note in notes:
        message = message_for(note)
        if message is not None:
            return message
    raise AssertionError(f"no game email was sent to {user} in game {game.pk}")


def legal_word(game: Game) -> str:
    """A word the player to move may build now, in plain letters (``"2 LINE"``)."""
    state = projection.current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, projection.game_lexicon(game))
    words = [m.notation() for m in moves if re.fullmatch(r"[0-9]+ [A-Z]+", m.notation())]
    assert words, "a fresh deal has a word to build"
    return words[0]


def encoded(text: str, charset: str, encoding: str) -> bytes:
    """``text`` as the body of a MIME part: in ``charset``, with the
    Content-Transfer-Encoding ``encoding`` (``7bit``, ``8bit``, ``quoted-printable``,
    ``base64``), lines ending in CRLF as on the wire."""
    if encoding == "quoted-printable":
        # quopri reads LF lines (a CR would come out as "=0D"): CRLF comes after
        return quopri.encodestring(text.encode(charset)).replace(b"\n", CRLF)
    data = text.replace("\r\n", "\n").replace("\n", "\r\n").encode(charset)
    if encoding == "base64":
        return base64.encodebytes(data).replace(b"\n", CRLF)
    return data


def entity(headers: Sequence[tuple[str, str]], body: bytes) -> bytes:
    """A message or a part: headers in the order given (a value may be folded with
    ``"\\n\\t"``), a blank line, the body."""
    head = "".join(f"{name}: {value}\n" for name, value in headers)
    return head.replace("\n", "\r\n").encode("utf-8") + CRLF + body


def multipart(boundary: str, parts: Sequence[bytes], *, preamble: str = "") -> bytes:
    """The body of a multipart entity."""
    out = (preamble.replace("\n", "\r\n").encode("ascii") + CRLF) if preamble else b""
    for part in parts:
        out += b"--" + boundary.encode("ascii") + CRLF + part + CRLF
    return out + b"--" + boundary.encode("ascii") + b"--" + CRLF


def raw_parsed(raw: bytes) -> AnymailInboundMessage:
    """Raw bytes as django-anymail hands them over."""
    return AnymailInboundMessage.parse_raw_mime_bytes(raw)


def inbound_row(outcome: Outcome) -> InboundMail:
    """The record of a received email (every outcome but "duplicate" has one)."""
    assert outcome.inbound_id is not None, outcome
    return InboundMail.objects.get(pk=outcome.inbound_id)
