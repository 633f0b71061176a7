"""Helpers of the reply-by-email tests: incoming messages as mail clients write them."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

from anymail.inbound import AnymailInboundMessage

from accounts.models import User
from games.emails import REPLY_MARKER
from games.models import Game, Notification
from games.reply_addresses import reply_address


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
            user=user, kind__in=[Notification.Kind.REPLY_DONE, Notification.Kind.REPLY_REFUSED]
        ).order_by("pk")
    )
