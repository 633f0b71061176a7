"""What the ESPs (and the mail server, at send time) say about our mail, and
whether mail to an address goes on.

Every event is stored once (:class:`~games.models.MailEvent`, unique on
:func:`event_key`), against the outbox row whose ``esp_message_id`` it names.
It acts only if it is about mail we sent to that address lately: the row it
names exists (the ESP's message id, or our ``Message-ID`` over SMTP, is what
the row stores), went to the event's recipient, and the event happened within
:data:`FRESH_FOR`.  Any other event is stored with the reason it is ignored
(``MailEvent.ignored``) and changes nothing: a bounce of a message we never
sent, of one sent to another address, or a year old, stops no one's mail.
Then it weighs on the address's :class:`~games.models.MailStatus`:

- a hard bounce or a rejection stops mail to the address at once; so does a
  spam complaint, which also turns the player's game emails off
  (``email_mode`` none), and an unsubscribe at the ESP (which sends that
  address nothing more either): the banner says so, with the way back;
- a soft bounce, a deferral, or a send that kept failing with a temporary
  (4xx) error counts, once per message however often that message was
  deferred: ``JUMBULAYA_SOFT_BOUNCES`` messages within
  ``JUMBULAYA_SOFT_BOUNCE_DAYS`` days stop mail.  A delivery to the address
  clears the soft bounces before it (and lifts a stop they made): a message
  greylisted three times, then delivered, leaves nothing.  Postmark's
  ``Transient`` ("message delayed") is not a bounce at all;
- an open or a click changes nothing, nor does a ``delivered`` after a hard
  bounce or a complaint, whatever order they arrive in.  Only the address
  confirmed again (:func:`restore`) starts that mail again; what happened
  before that no longer counts;
- what is about us, not the address (:mod:`.whose_fault`), weighs on no
  address: Postmark's ``Blocked``, ``DMARCPolicy`` and ``VirusNotification``,
  Mailgun's ``rejected`` and its permanent failures with a 5.7.x status raise
  the operator's alarm (:func:`.mail_alarm.esp_said`), and so does a send
  that failed by our doing (the outbox, :func:`.mail_alarm.send_failed`).

A stopped address gets no game mail: the outbox marks its rows held, with the
reason, instead of sending them.  Account mails (sign-in links, address
confirmations) do not go through the outbox and are always sent.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from anymail.signals import AnymailTrackingEvent, EventType
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.mail_out import mail_alarm, whose_fault
from games.models import MailEvent, MailStatus, Notification
from ops import logs

log = logging.getLogger(__name__)

Weight = MailEvent.Weight
Ignored = MailEvent.Ignored
Stop = MailStatus.Stop

#: Postmark's bounce types that are temporary, though anymail names some "bounced".
SOFT_TYPES = frozenset({"SoftBounce", "DnsError"})
#: Postmark's bounce types that say no message failed: a relay's "message
#: delayed" notice (it is still trying) and a receiving server testing Postmark.
NOT_BOUNCES = frozenset({"Transient", "OpenRelayTest"})
#: How old an event may be and still act: a bounce comes at most about five
#: days after the send (RFC 5321 has servers give up after 4 or 5 days), and
#: the ESPs post an event within hours (Mailgun retries for 8, Postmark about
#: 10); the soft bounces' window is as long.  An older event is history, not
#: news of the address today (a replayed one, or a backlog posted at last).
FRESH_FOR = timedelta(days=7)
#: How far in the future an event may be dated (clocks drift a little).
CLOCK_SKEW = timedelta(minutes=5)
#: The longest address (RFC 5321's path limit, and the columns' length).
MAX_ADDRESS = 254
#: The longest message id a row stores: a longer one names no row of ours.
ESP_ID_LENGTH = Notification._meta.get_field("esp_message_id").max_length or 255
#: Failed sends of one row with a temporary error after which it counts as a soft bounce.
SOFT_SEND_ATTEMPTS = 3


def clean_id(message_id: str | None) -> str:
    """A message id as stored and compared: without spaces or angle brackets."""
    return (message_id or "").strip().strip("<>").strip()


def weight_of(event: AnymailTrackingEvent) -> str:
    """How much an event says about its address (a :class:`MailEvent.Weight`)."""
    if whose_fault.judge_event(event) is not None:
        return Weight.NONE  # about our reputation, domain or content: the operator's alarm
    kind = event.event_type
    if kind == EventType.REJECTED:
        return Weight.HARD
    esp = event.esp_event if isinstance(event.esp_event, dict) else {}
    if kind == EventType.BOUNCED:
        return Weight.SOFT if esp.get("Type") in SOFT_TYPES else Weight.HARD
    if kind == EventType.DEFERRED:  # Mailgun's "failed" of severity "temporary" too
        return Weight.NONE if esp.get("Type") in NOT_BOUNCES else Weight.SOFT
    if kind == EventType.COMPLAINED:
        return Weight.COMPLAINT
    if kind == EventType.UNSUBSCRIBED:
        return Weight.UNSUBSCRIBED
    return Weight.NONE


def event_key(via: str, event: AnymailTrackingEvent) -> str:
    """What makes an event the same one when an ESP posts it twice: Mailgun's
    ``event-data.id`` with the message, Postmark's bounce ``ID``, else the
    message, the event, its time and the recipient."""
    esp = event.esp_event if isinstance(event.esp_event, dict) else {}
    data = esp.get("event-data") if isinstance(esp.get("event-data"), dict) else None
    if data is not None and data.get("id"):
        own = f"{data['id']}:{clean_id(event.message_id)}"
    elif via != "mailgun" and event.event_id:
        own = str(event.event_id)
    else:
        when = event.timestamp.isoformat() if event.timestamp else ""
        own = f"{event.event_type}:{clean_id(event.message_id)}:{when}:{event.recipient or ''}"
    key = f"{via}:{own}"
    if len(key) > 200:
        key = f"{via}:sha256:{hashlib.sha256(own.encode()).hexdigest()}"
    return key


def _detail(event: AnymailTrackingEvent) -> str:
    said = " — ".join(str(part) for part in (event.description, event.mta_response) if part)
    return said[:300]


def on_tracking(sender: Any, event: AnymailTrackingEvent, esp_name: str, **kwargs: Any) -> None:
    """anymail's ``tracking`` signal, from every ESP's tracking webhook."""
    record(event, via=esp_name.lower())


def record(event: AnymailTrackingEvent, *, via: str) -> MailEvent | None:
    """Store an ESP's event once and, if it is about mail we sent to that
    address lately, let it weigh on its address's status; else store it as
    ignored (:func:`ignored_because`).  Returns the new row, or None for an
    event already stored."""
    message_id = clean_id(event.message_id)
    notification = _sent(message_id)
    recipient = (event.recipient or "").strip().lower()
    occurred = event.timestamp or timezone.now()
    ignored = ignored_because(recipient, notification, occurred)
    address = recipient or _address_of(notification)
    row = note(
        key=event_key(via, event),
        via=via,
        event=str(event.event_type),
        weight=weight_of(event),
        address=address if len(address) <= MAX_ADDRESS else "",
        message_id=message_id,
        notification=notification,
        occurred_at=occurred,
        detail=_detail(event),
        ignored=ignored,
    )
    ours = whose_fault.judge_event(event)
    if row is not None and not row.ignored and ours is not None:
        mail_alarm.esp_said(ours)
    return row


def _sent(message_id: str) -> Notification | None:
    """The outbox row that was sent as ``message_id``, if any."""
    if not message_id or len(message_id) > ESP_ID_LENGTH:
        return None
    return Notification.objects.filter(esp_message_id=message_id).select_related("user").first()


def ignored_because(
    recipient: str, notification: Notification | None, occurred_at: datetime
) -> str:
    """Why an event (about ``recipient``, naming ``notification``'s message,
    that happened at ``occurred_at``) must change nothing (a
    :class:`MailEvent.Ignored`), or ``""`` if it may act."""
    if len(recipient) > MAX_ADDRESS:
        return Ignored.TOO_LONG
    if notification is None:
        return Ignored.NOT_OURS
    if recipient and recipient != _address_of(notification):
        return Ignored.OTHER_ADDRESS  # another recipient, or the player has changed address
    now = timezone.now()
    if occurred_at < now - FRESH_FOR:
        return Ignored.STALE
    if occurred_at > now + CLOCK_SKEW:
        return Ignored.FUTURE
    return ""


def _address_of(notification: Notification | None) -> str:
    if notification is None:
        return ""
    if notification.user is not None:
        return notification.user.email.lower()
    return notification.email.lower()


def note(
    *,
    key: str,
    via: str,
    event: str,
    weight: str,
    address: str,
    occurred_at: datetime,
    message_id: str = "",
    notification: Notification | None = None,
    detail: str = "",
    ignored: str = "",
) -> MailEvent | None:
    """Store one event (None if ``key`` is stored already) and apply it,
    unless it is ``ignored`` (a :class:`MailEvent.Ignored`): then it is
    stored with that reason, weighing nothing."""
    address = address.lower()
    try:
        with transaction.atomic():
            row = MailEvent.objects.create(
                key=key,
                via=via,
                event=event,
                weight=Weight.NONE if ignored else weight,
                address=address,
                message_id=message_id[:255],
                notification=notification,
                occurred_at=occurred_at,
                detail=detail[:300],
                ignored=ignored,
            )
            if not ignored:
                _apply(row)
    except IntegrityError:
        return None  # posted again: stored the first time
    logs.event(
        "mail_event",
        source=via,
        kind=event or None,
        status=ignored or row.weight or None,
        notification=row.notification_id,
    )
    return row


#: Which stop says more, when a second one comes: a stop is replaced only by
#: one ranked higher (a bounce says more than slow delivery, a complaint
#: most: it also turned the player's emails off).
STOP_RANK: dict[str, int] = {
    Stop.SOFT: 0,
    Stop.UNSUBSCRIBED: 1,
    Stop.BOUNCED: 2,
    Stop.REJECTED: 2,
    Stop.COMPLAINED: 3,
}


def _apply(row: MailEvent) -> None:
    """What one new event does to its address (inside its transaction)."""
    if row.event == EventType.DELIVERED:
        _delivered(row)
        return
    if not row.weight:
        return
    status, _ = MailStatus.objects.select_for_update().get_or_create(address=row.address)
    if status.restored_at is not None and row.occurred_at <= status.restored_at:
        return  # about mail before the address was confirmed again
    if row.weight == Weight.COMPLAINT:
        User.objects.filter(email__iexact=row.address).update(email_mode=User.EmailMode.NONE)
    if row.weight == Weight.SOFT:
        if _soft_messages(status) < settings.JUMBULAYA_SOFT_BOUNCES:
            return
        reason = Stop.SOFT
    elif row.weight == Weight.COMPLAINT:
        reason = Stop.COMPLAINED
    elif row.weight == Weight.UNSUBSCRIBED:
        reason = Stop.UNSUBSCRIBED
    elif row.event == EventType.REJECTED:
        reason = Stop.REJECTED
    else:
        reason = Stop.BOUNCED
    was = status.stopped_at is not None
    if was and STOP_RANK[reason] <= STOP_RANK.get(status.reason, 0):
        return  # stopped already, for as good a reason
    status.stopped_at = status.stopped_at or timezone.now()
    status.reason = reason
    status.detail = row.detail
    status.warned_at = status.warned_at if was else None
    status.save()
    log.warning("mail to an address stopped (%s, via %s, event %s)", reason, row.via, row.pk)


def _soft_messages(status: MailStatus) -> int:
    """How many messages to ``status``'s address failed softly and count:
    within ``JUMBULAYA_SOFT_BOUNCE_DAYS``, since the address was last confirmed
    and since the last delivery to it.  A message deferred many times counts
    once (by its outbox row, else its message id)."""
    since = timezone.now() - timedelta(days=settings.JUMBULAYA_SOFT_BOUNCE_DAYS)
    if status.restored_at is not None:
        since = max(since, status.restored_at)
    delivered = (
        MailEvent.objects.filter(address=status.address, event=EventType.DELIVERED, ignored="")
        .order_by("-occurred_at")
        .values_list("occurred_at", flat=True)
        .first()
    )
    if delivered is not None:
        since = max(since, delivered)
    soft = MailEvent.objects.filter(
        address=status.address, weight=Weight.SOFT, occurred_at__gte=since
    ).values_list("notification_id", "message_id", "pk")
    return len(
        {
            ("row", row) if row is not None else ("id", message) if message else ("event", pk)
            for row, message, pk in soft
        }
    )


def _delivered(row: MailEvent) -> None:
    """A delivery: the soft bounces before it no longer count, and a stop they
    made is lifted when those since it are too few.  A stop for any other
    reason stays: a delivery does not take back a bounce or a complaint."""
    status = (
        MailStatus.objects.select_for_update()
        .filter(address=row.address, stopped_at__isnull=False, reason=Stop.SOFT)
        .first()
    )
    if status is None or _soft_messages(status) >= settings.JUMBULAYA_SOFT_BOUNCES:
        return
    MailStatus.objects.filter(pk=status.pk).update(
        stopped_at=None, reason="", detail="", warned_at=None
    )
    log.info("mail to an address starts again (delivered after soft bounces, event %s)", row.pk)


# --- asking ---------------------------------------------------------------------


def stopped(address: str) -> MailStatus | None:
    """The address's status if mail to it is stopped, else None."""
    if not address:
        return None
    return MailStatus.objects.filter(address=address.lower(), stopped_at__isnull=False).first()


def stopped_addresses(addresses: list[str]) -> set[str]:
    """Those of ``addresses`` (in lower case) whose mail is stopped."""
    lowered = [a.lower() for a in addresses if a]
    return set(
        MailStatus.objects.filter(address__in=lowered, stopped_at__isnull=False).values_list(
            "address", flat=True
        )
    )


def seen(status: MailStatus) -> None:
    """Its owner has seen the page's banner: record when, the first time."""
    if status.warned_at is None:
        now = timezone.now()
        MailStatus.objects.filter(pk=status.pk, warned_at__isnull=True).update(warned_at=now)
        status.warned_at = now


def removal_may_go(user_id: int | None, move_minutes: int, now: datetime) -> bool:
    """Whether a seat may be removed for missed turns: mail reaches its player,
    or they have been warned on the page for at least one full move time."""
    if user_id is None:
        return True
    email = User.objects.filter(pk=user_id).values_list("email", flat=True).first()
    status = stopped(email or "")
    if status is None:
        return True
    return (
        status.warned_at is not None and status.warned_at + timedelta(minutes=move_minutes) <= now
    )


def restore(address: str) -> bool:
    """The address was confirmed: mail to it goes again.  Returns whether it
    was stopped."""
    now = timezone.now()
    status, _ = MailStatus.objects.get_or_create(address=address.lower())
    was = status.stopped_at is not None
    MailStatus.objects.filter(pk=status.pk).update(
        stopped_at=None, reason="", detail="", warned_at=None, restored_at=now
    )
    if was:
        log.info("mail to an address starts again (confirmed)")
    return was


def on_address_confirmed(sender: Any, address: str, **kwargs: Any) -> None:
    """accounts' ``address_confirmed`` signal."""
    restore(address)


# --- the outbox -------------------------------------------------------------------


def hold_reason(notification: Notification) -> str:
    """Why a row must not be sent (a :class:`MailStatus.Stop`), or ``""``."""
    status = stopped(_address_of(notification))
    return status.reason if status is not None else ""


def send_failure_weight(failure: BaseException) -> str:
    """What a failed send says about its recipient (:mod:`.whose_fault`):
    ``hard`` for a permanent refusal of that address, ``soft`` for a temporary
    one, ``""`` for anything else: a failure of ours (the server, our
    credentials, sender, relaying or content) is the operator's alarm, never
    the address's."""
    verdict = whose_fault.judge_send(failure)
    return verdict.weight if verdict is not None else Weight.NONE


def send_failed(notification: Notification, failure: BaseException) -> bool:
    """Let a failed send weigh on its address.  Returns whether the row is to
    be held (a permanent failure) rather than tried again."""
    weight = send_failure_weight(failure)
    address = _address_of(notification)
    if not weight or not address:
        return False
    if weight == Weight.SOFT and notification.attempts < SOFT_SEND_ATTEMPTS:
        return False  # tried again with back-off; counts once it keeps failing
    note(
        key=f"send:{notification.pk}:{weight}",
        via="send",
        event=EventType.BOUNCED if weight == Weight.HARD else EventType.DEFERRED,
        weight=weight,
        address=address,
        notification=notification,
        occurred_at=timezone.now(),
        detail=f"{type(failure).__name__}: {failure}",
    )
    return weight == Weight.HARD
