"""What the local mailbox's buttons report about an email, as the world
outside would: a bounce, a deferral or a spam complaint as an ESP's webhook
posts it, an ``AnymailTrackingEvent`` handed to the same path
(:func:`games.mail_out.tracking.record`); and our own mail server failing to
send it (:func:`server_failed`), handed to the outbox as a failed send is."""

from __future__ import annotations

import secrets
import smtplib
from typing import NamedTuple

from anymail.signals import AnymailTrackingEvent, EventType, RejectReason
from django.utils import timezone

from devmail.models import Message
from games.mail_out import outbox, tracking
from games.models import MailEvent, Notification


class Action(NamedTuple):
    event_type: str
    reason: str
    said: str
    #: Reported once per email (a bounce, a complaint); else once per press, as an
    #: ESP reports each deferral of a message it keeps retrying.
    once: bool


#: What each button of the message page makes of the message.
ACTIONS: dict[str, Action] = {
    "bounce": Action(
        EventType.BOUNCED,
        RejectReason.BOUNCED,
        "550 5.1.1 The email account that you tried to reach does not exist (local mailbox)",
        once=True,
    ),
    "defer": Action(
        EventType.DEFERRED,
        RejectReason.OTHER,
        "451 4.7.1 Greylisted, please try again later (local mailbox)",
        once=False,
    ),
    "spam": Action(
        EventType.COMPLAINED, RejectReason.SPAM, "Marked as spam in the local mailbox", once=True
    ),
}
#: What our mail server answers when "Our server failed" is pressed: our password refused.
OUR_FAILURE = smtplib.SMTPAuthenticationError(
    535, b"5.7.8 Authentication credentials invalid (the local mailbox's Our server failed)"
)


def event_for(mail: Message, action: str) -> AnymailTrackingEvent:
    """The event an ESP would report for ``mail`` (``action``: a key of
    :data:`ACTIONS`), addressed to its first recipient."""
    event_type, reason, said, once = ACTIONS[action]
    recipient = mail.to.splitlines()[0].strip() if mail.to else ""
    event_id = f"{action}-{mail.pk}" if once else f"{action}-{mail.pk}-{secrets.token_hex(6)}"
    return AnymailTrackingEvent(
        event_type=event_type,
        timestamp=timezone.now(),
        message_id=mail.message_id,
        event_id=event_id,
        recipient=recipient,
        reject_reason=reason,
        description=said,
        esp_event={"mailbox_message": mail.pk, "action": action},
    )


def report(mail: Message, action: str) -> MailEvent | None:
    """Feed the event to the tracking path; None if it was reported already."""
    return tracking.record(event_for(mail, action), via="mailbox")


def outbox_row(mail: Message) -> int | None:
    """The outbox row ``mail`` was sent for, if it was one (not a sign-in
    link, a confirmation or a note to the admins)."""
    message_id = tracking.clean_id(mail.message_id)
    if not message_id:
        return None
    rows = Notification.objects.filter(esp_message_id=message_id)
    return rows.values_list("pk", flat=True).first()


def server_failed(mail: Message) -> bool:
    """Take ``mail``'s send back as if our mail server had refused our
    password (:data:`OUR_FAILURE`): the outbox handles it as a failed send.
    Returns whether there was such a send (a row of the outbox, sent)."""
    row = outbox_row(mail)
    return row is not None and outbox.failed_after_all(row, OUR_FAILURE)
