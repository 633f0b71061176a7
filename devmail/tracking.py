"""Bounces and spam complaints made in the local mailbox: an
``AnymailTrackingEvent`` as an ESP's webhook would post it, handed to the same
path (:func:`games.mail_out.tracking.record`)."""

from __future__ import annotations

from anymail.signals import AnymailTrackingEvent, EventType, RejectReason
from django.utils import timezone

from devmail.models import Message
from games.mail_out import tracking
from games.models import MailEvent

#: What each button of the message page makes of the message.
ACTIONS: dict[str, tuple[str, str, str]] = {
    "bounce": (
        EventType.BOUNCED,
        RejectReason.BOUNCED,
        "550 5.1.1 The email account that you tried to reach does not exist (local mailbox)",
    ),
    "spam": (EventType.COMPLAINED, RejectReason.SPAM, "Marked as spam in the local mailbox"),
}


def event_for(mail: Message, action: str) -> AnymailTrackingEvent:
    """The event an ESP would report for ``mail`` (``action``: a key of
    :data:`ACTIONS`), addressed to its first recipient."""
    event_type, reason, said = ACTIONS[action]
    recipient = mail.to.splitlines()[0].strip() if mail.to else ""
    return AnymailTrackingEvent(
        event_type=event_type,
        timestamp=timezone.now(),
        message_id=mail.message_id,
        event_id=f"{action}-{mail.pk}",
        recipient=recipient,
        reject_reason=reason,
        description=said,
        esp_event={"mailbox_message": mail.pk, "action": action},
    )


def report(mail: Message, action: str) -> MailEvent | None:
    """Feed the event to the tracking path; None if it was reported already."""
    return tracking.record(event_for(mail, action), via="mailbox")
