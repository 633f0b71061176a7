"""Tracking events as the ESPs post them, from their documented formats:
Mailgun's webhooks (JSON: a ``signature`` block, HMAC-SHA256 of timestamp and
token with the webhook signing key, and the ``event-data``; its legacy form
posts too), Postmark's Bounce, SpamComplaint, Delivery and SubscriptionChange
webhooks (JSON, basic auth in the URL).  The event shapes follow Mailgun's and
Postmark's documented samples (Postmark's webhook pages; Mailgun's "Webhooks"
and "Events" pages: a greylisted ``failed``/``temporary`` attempt carries the
receiving server's 4xx, as postgrey words it)."""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import json
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from django.test import Client

SIGNING_KEY = "key-0123456789abcdef0123456789abcdef"
BASIC_AUTH = "esp:correct-horse-battery-staple"
MAILGUN_TRACKING = "/anymail/mailgun/tracking/"
POSTMARK_TRACKING = "/anymail/postmark/tracking/"


def auth_headers(credentials: str | None) -> dict[str, str]:
    """The header an ESP sends for ``https://user:pass@site/anymail/...``."""
    if credentials is None:
        return {}
    return {"Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()}


# --- Mailgun ---------------------------------------------------------------------------


def mailgun_signature(key: str = SIGNING_KEY, signed_at: float | None = None) -> dict[str, str]:
    """Mailgun's ``signature`` block: hex HMAC-SHA256 of timestamp + a new
    token, made now unless ``signed_at`` says when."""
    timestamp = str(int(time.time() if signed_at is None else signed_at))
    token = secrets.token_hex(25)
    signature = hmac.new(
        key.encode("ascii"), (timestamp + token).encode("ascii"), hashlib.sha256
    ).hexdigest()
    return {"timestamp": timestamp, "token": token, "signature": signature}


#: Mailgun's event, severity, reason and delivery status by what happened.
MAILGUN_EVENTS: dict[str, dict[str, Any]] = {
    "bounce": {
        "event": "failed",
        "severity": "permanent",
        "reason": "bounce",
        "log-level": "error",
        "delivery-status": {
            "attempt-no": 1,
            "code": 550,
            "message": "5.1.1 The email account that you tried to reach does not exist.",
            "description": "",
            "session-seconds": 1.2,
            "mx-host": "mx.example.com",
        },
    },
    "soft": {
        "event": "failed",
        "severity": "temporary",
        "reason": "generic",
        "log-level": "warn",
        "delivery-status": {
            "attempt-no": 2,
            "code": 452,
            "message": "4.2.2 The email account that you tried to reach is over quota.",
            "description": "",
            "retry-seconds": 600,
            "session-seconds": 0.9,
        },
    },
    "greylisted": {
        "event": "failed",
        "severity": "temporary",
        "reason": "generic",
        "log-level": "warn",
        "delivery-status": {
            "attempt-no": 1,
            "code": 450,
            "message": "4.2.0 <bob@example.com>: Recipient address rejected: Greylisted, see "
            "http://postgrey.schweikert.ch/help/example.com.html",
            "description": "",
            "retry-seconds": 600,
            "session-seconds": 0.3,
        },
    },
    # A receiving server refusing our mail by policy: Gmail's answer to mail failing our
    # domain's DMARC check (its documented 5.7.26), as Mailgun reports a permanent failure.
    "dmarc": {
        "event": "failed",
        "severity": "permanent",
        "reason": "generic",
        "log-level": "error",
        "delivery-status": {
            "attempt-no": 1,
            "code": 550,
            "message": "5.7.26 Unauthenticated email from jumbulaya.example is not accepted "
            "due to domain's DMARC policy. Please contact the administrator of "
            "jumbulaya.example domain if this was a legitimate mail.",
            "description": "",
            "session-seconds": 0.8,
            "mx-host": "gmail-smtp-in.l.google.com",
        },
    },
    # Mailgun refusing to send at all (our account or domain), as django-anymail's own
    # test of Mailgun's "rejected" event shapes it.
    "rejected": {
        "event": "rejected",
        "log-level": "warn",
        "reject": {
            "reason": "Sandbox subdomains are for test purposes only. Please add your own "
            "domain or add the address to authorized recipients in Account Settings.",
            "description": "",
        },
    },
    "complaint": {"event": "complained", "log-level": "warn"},
    "unsubscribed": {
        "event": "unsubscribed",
        "log-level": "info",
        "ip": "198.51.100.7",
        "client-info": {"client-type": "browser", "client-os": "Linux", "device-type": "desktop"},
    },
    "delivered": {
        "event": "delivered",
        "log-level": "info",
        "delivery-status": {
            "attempt-no": 1,
            "code": 250,
            "message": "OK",
            "description": "",
            "tls": True,
            "session-seconds": 0.4,
        },
    },
}


def mailgun_event(
    what: str,
    *,
    recipient: str,
    message_id: str,
    when: datetime | None = None,
    event_id: str | None = None,
    key: str = SIGNING_KEY,
    signature: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A Mailgun webhook post for ``what`` (a key of :data:`MAILGUN_EVENTS`)
    about the message ``message_id`` (as Mailgun gives it: no angle brackets)."""
    when = when or datetime.now(UTC)
    data: dict[str, Any] = {
        "id": event_id or secrets.token_urlsafe(16),
        "timestamp": when.timestamp(),
        "recipient": recipient,
        "recipient-domain": recipient.partition("@")[2],
        "envelope": {
            "sender": "bounces@mg.jumbulaya.example",
            "transport": "smtp",
            "targets": recipient,
        },
        "flags": {"is-routed": False, "is-authenticated": True, "is-test-mode": False},
        "message": {
            "headers": {
                "to": recipient,
                "message-id": message_id,
                "from": "Jumbulaya <jumbulaya@jumbulaya.example>",
                "subject": "Game 12: your turn",
            },
            "attachments": [],
            "size": 4321,
        },
        "tags": [],
        "campaigns": [],
        "user-variables": {},
        "storage": {"url": "https://se.api.mailgun.net/v3/domains/x/messages/y", "key": "y"},
        **copy.deepcopy(MAILGUN_EVENTS[what]),  # a test may change its copy
    }
    return {"signature": signature or mailgun_signature(key), "event-data": data}


def post_mailgun(client: Client, payload: Any, auth: str | None = BASIC_AUTH) -> Any:
    body = payload if isinstance(payload, str) else json.dumps(payload)
    return client.post(
        MAILGUN_TRACKING, body, content_type="application/json", headers=auth_headers(auth)
    )


# --- Postmark --------------------------------------------------------------------------


def _postmark_time(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f0Z")


def postmark_bounce(
    what: str,
    *,
    email: str,
    message_id: str,
    when: datetime | None = None,
    bounce_id: int | None = None,
) -> dict[str, Any]:
    """Postmark's Bounce webhook (``what``: ``HardBounce``, ``SoftBounce``,
    ``Transient``, ``Blocked``...) or its SpamComplaint webhook (``SpamComplaint``)."""
    when = when or datetime.now(UTC)
    spam = what == "SpamComplaint"
    described = {
        "HardBounce": (1, "Hard bounce", "The server was unable to deliver your message "
                       "(ex: unknown user, mailbox not found)."),
        "SoftBounce": (4096, "Soft bounce", "Unable to temporarily deliver this email."),
        "DnsError": (4, "DNS error", "A temporary DNS error."),
        "Transient": (2, "Message delayed", "The server could not temporarily deliver your "
                      "message (ex: Message is delayed due to network troubles)."),
        "SpamComplaint": (512, "Spam complaint", "The subscriber explicitly marked this "
                          "message as spam."),
        # About us, not the address (Postmark's bounce types reference):
        "Blocked": (100006, "ISP block", "Blocked from this ISP due to content or "
                    "blacklisting."),
        "DMARCPolicy": (100009, "DMARC Policy", "An email was rejected due to DMARC "
                        "Policy."),
        "VirusNotification": (8192, "Virus notification", "The bounce is actually a virus "
                              "notification warning about a virus/code infected message."),
    }  # fmt: skip
    details = {
        "HardBounce": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "Blocked": "smtp;554 5.7.1 Service unavailable; Client host blocked using zen.spamhaus.org",
        "DMARCPolicy": "smtp;550 5.7.26 Unauthenticated email from jumbulaya.example is not "
        "accepted due to domain's DMARC policy.",
        "VirusNotification": "smtp;554 5.7.0 Message rejected: a virus was found",
    }
    code, name, description = described[what]
    return {
        "RecordType": "SpamComplaint" if spam else "Bounce",
        "MessageStream": "outbound",
        "ID": bounce_id or secrets.randbelow(10**15),
        "Type": what,
        "TypeCode": code,
        "Name": name,
        "Tag": "your_turn",
        "MessageID": message_id,
        "Metadata": {},
        "ServerID": 23,
        "Description": description,
        "Details": details.get(what, ""),
        "Email": email,
        "From": "jumbulaya@jumbulaya.example",
        "BouncedAt": _postmark_time(when),
        "DumpAvailable": True,
        "Inactive": what in ("HardBounce", "SpamComplaint"),
        "CanActivate": True,
        "Subject": "Game 12: your turn",
        "Content": "",
    }


def postmark_delivery(email: str, message_id: str, when: datetime | None = None) -> dict[str, Any]:
    """Postmark's Delivery webhook."""
    return {
        "RecordType": "Delivery",
        "ServerID": 23,
        "MessageStream": "outbound",
        "MessageID": message_id,
        "Recipient": email,
        "Tag": "your_turn",
        "DeliveredAt": _postmark_time(when or datetime.now(UTC)),
        "Details": "smtp;250 2.0.0 OK",
        "Metadata": {},
    }


def postmark_subscription_change(
    email: str,
    message_id: str,
    *,
    reason: str = "ManualSuppression",
    origin: str = "Recipient",
    suppress: bool = True,
    when: datetime | None = None,
) -> dict[str, Any]:
    """Postmark's SubscriptionChange webhook: ``reason`` ``ManualSuppression``
    from ``origin`` ``Recipient`` is the recipient's unsubscribe (Postmark's
    link, or the List-Unsubscribe it handles); ``suppress`` False, a
    reactivation."""
    return {
        "RecordType": "SubscriptionChange",
        "MessageID": message_id,
        "ServerID": 23,
        "MessageStream": "outbound",
        "ChangedAt": _postmark_time(when or datetime.now(UTC)),
        "Recipient": email,
        "Origin": origin,
        "SuppressSending": suppress,
        "SuppressionReason": reason if suppress else None,
        "Tag": "your_turn",
        "Metadata": {},
    }


def post_postmark(client: Client, payload: Any, auth: str | None = BASIC_AUTH) -> Any:
    body = payload if isinstance(payload, str) else json.dumps(payload)
    return client.post(
        POSTMARK_TRACKING, body, content_type="application/json", headers=auth_headers(auth)
    )
