"""Players' messages to the other players of a game (never to its
spectators), sent with a move or on their own, on the page or in an email
reply.

Messages are not events: they never change a game's state or its sequence
number, and the log's fold never sees them.  Each :class:`~games.models.Message`
row is keyed by game, seat and time and names the ``seq`` it follows, which
places it in the log (under that move).  A message is at most
``JUMBULAYA_MESSAGE_MAX_CHARS`` long, a player sends at most
``JUMBULAYA_MESSAGES_PER_HOUR`` to one game in an hour, and it is stored as
typed: pages and HTML emails escape it when they show it.

A player may mute a game's messages (``Seat.messages_muted``: none on their
page nor in their emails) and report one to staff
(:class:`~games.models.MessageReport`, in the admin, where staff may hide it:
a hidden message is shown nowhere).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.core.projection import ServiceError, display_name
from games.kinds.base import Logged
from games.live import doorbell
from games.models import Game, Message, MessageReport, Notification, Seat

#: The longest reason a report may give.
MAX_REASON = 300


class MessageRefused(ServiceError):
    code = "message_refused"


def clean_text(text: str) -> str:
    """A message as it is kept: line ends made ``\\n``, control and invisible
    format characters dropped (but for line ends and tabs), blank lines at
    either end trimmed; refused when empty or too long."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    kept = "".join(
        c for c in text if c in "\n\t" or unicodedata.category(c) not in {"Cc", "Cf", "Cs"}
    ).strip()
    if not kept:
        raise MessageRefused("The message is empty: write something to send.")
    limit = settings.JUMBULAYA_MESSAGE_MAX_CHARS
    if len(kept) > limit:
        raise MessageRefused(
            f"A message is at most {limit} characters; yours has {len(kept)}. "
            "Shorten it and send it again."
        )
    return kept


def _seat_index(game: Game, seat: int | User) -> int:
    if isinstance(seat, int):
        return seat
    index = Seat.objects.filter(game=game, user=seat).values_list("index", flat=True).first()
    if index is None:
        raise MessageRefused("Only the players of this game can send messages to it.")
    return index


def post_message(game_id: int, seat: int | User, text: str, source: str) -> Message:
    """Post ``text`` from ``seat`` (its index, or the user holding it) to the
    game's players, after the game's last event."""
    text = clean_text(text)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status == Game.Status.OPEN:
            raise MessageRefused("The game has not started yet: messages come once it has.")
        index = _seat_index(game, seat)
        row = Seat.objects.filter(game=game, index=index).select_related("user").first()
        if row is None or row.user is None:
            raise MessageRefused("Only the players of this game can send messages to it.")
        since = timezone.now() - timedelta(hours=1)
        limit = settings.JUMBULAYA_MESSAGES_PER_HOUR
        if (
            Message.objects.filter(game=game, author=row.user, created_at__gte=since).count()
            >= limit
        ):
            raise MessageRefused(
                f"You have sent {limit} messages to this game in the last hour, as many as "
                "one player may: wait a little before the next."
            )
        message = Message.objects.create(
            game=game, seat=index, author=row.user, seq=game.last_seq, text=text, source=source
        )
        doorbell.ring(game.pk, game.last_seq)  # open pages show it (games/live/)
        return message


@dataclass(frozen=True)
class Said:
    """A message as pages and emails show it (its text is escaped there)."""

    pk: int
    seq: int
    seat: int
    name: str
    text: str
    at: datetime
    mine: bool


@dataclass(frozen=True)
class LogRow:
    """An entry of the page's log with the messages that follow it."""

    seq: int
    words: str
    said: tuple[Said, ...]


def muted(game: Game, seat: int | None) -> bool:
    if seat is None:
        return False
    return Seat.objects.filter(game=game, index=seat, messages_muted=True).exists()


def visible(game: Game, seat: int | None, *, after: datetime | None = None) -> list[Said]:
    """The game's messages ``seat`` may see, oldest first: none for a seat that
    muted them, never a hidden one, and none for a spectator (``None``):
    messages go to the seats.  A player who resigned or was removed still
    holds their seat, and still reads them."""
    if seat is None or muted(game, seat):
        return []
    rows = Message.objects.filter(game=game, hidden_at__isnull=True).select_related("author")
    if after is not None:
        rows = rows.filter(created_at__gt=after)
    return [
        Said(m.pk, m.seq, m.seat, display_name(m.author), m.text, m.created_at, m.seat == seat)
        for m in rows.order_by("created_at", "pk")
    ]


def with_messages(log: Sequence[Logged], said: Sequence[Said]) -> list[LogRow]:
    """The log (in its order) with each message under the entry it follows
    (the last entry at or before its ``seq``)."""
    seqs = sorted(entry.seq for entry in log)
    under: dict[int, list[Said]] = {}
    for message in said:
        before = [s for s in seqs if s <= message.seq]
        under.setdefault(before[-1] if before else seqs[0] if seqs else 0, []).append(message)
    return [LogRow(entry.seq, entry.words, tuple(under.get(entry.seq, ()))) for entry in log]


def page_context(game: Game, seat: int | None, log: Sequence[Logged]) -> dict[str, object]:
    """What the game page shows of messages: the log with them, whether the
    viewer muted them, and whether the viewer may send one."""
    return {
        "log": with_messages(log, visible(game, seat)),
        "messages_muted": muted(game, seat),
        "may_message": seat is not None,
        "message_max": settings.JUMBULAYA_MESSAGE_MAX_CHARS,
    }


def set_muted(game: Game, seat: int, value: bool) -> None:
    Seat.objects.filter(game=game, index=seat).update(messages_muted=value)


def report(game: Game, message_id: int, reporter: User, reason: str = "") -> MessageReport:
    """``reporter``'s report of a message of ``game`` to staff, once per
    reporter and message (a second report returns the first)."""
    message = Message.objects.filter(game=game, pk=message_id, hidden_at__isnull=True).first()
    if message is None:
        raise MessageRefused("There is no such message in this game.")
    if message.author_id == reporter.pk:
        raise MessageRefused("That message is your own.")
    try:
        with transaction.atomic():
            return MessageReport.objects.create(
                message=message, reporter=reporter, reason=reason.strip()[:MAX_REASON]
            )
    except IntegrityError:
        return MessageReport.objects.get(message=message, reporter=reporter)


def for_email(notification: Notification, seat: Seat) -> list[Said]:
    """The other players' messages a game email to ``seat`` carries: those
    posted since the last email of the game sent to the same player (all,
    for the first).  Built when the email is sent, so a message posted in
    the transaction of the move that owed it goes with it."""
    if notification.user_id is None:
        return []
    earlier = (
        Notification.objects.filter(
            game_id=notification.game_id,
            user_id=notification.user_id,
            sent_at__isnull=False,
        )
        .exclude(pk=notification.pk)
        .order_by("-sent_at")
        .values_list("sent_at", flat=True)
        .first()
    )
    said = visible(notification.game, seat.index, after=earlier)
    return [m for m in said if not m.mine]
