"""System checks (``manage.py check --deploy``) for the mail channels."""

from __future__ import annotations

import warnings
from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured


@register(Tags.compatibility)
def inbound_webhooks_can_answer(**kwargs: Any) -> list[CheckMessage]:
    """Each ESP named in ``JUMBULAYA_INBOUND_ESPS`` is one whose webhook is
    bounded here, and its webhook has the settings it needs (without them it
    could only answer 503)."""
    from games.mail_in.inbound_webhook import INBOUND_WEBHOOKS

    errors: list[CheckMessage] = []
    for esp in settings.JUMBULAYA_INBOUND_ESPS:
        if esp not in INBOUND_WEBHOOKS:
            errors.append(
                Error(
                    f"JUMBULAYA_INBOUND_ESPS names {esp!r}, whose inbound mail is not "
                    "supported here.",
                    hint="Name " + " or ".join(INBOUND_WEBHOOKS) + ".",
                    id="games.E001",
                )
            )
            continue
        view, _pattern = INBOUND_WEBHOOKS[esp]
        try:
            with warnings.catch_warnings():  # a missing WEBHOOK_SECRET is games.W001's
                warnings.simplefilter("ignore")
                view()
        except ImproperlyConfigured as e:
            errors.append(
                Error(
                    f"The {esp} inbound webhook cannot answer: {e}",
                    hint=f"Set that ESP's ANYMAIL_* webhook settings, or leave {esp} out "
                    "of JUMBULAYA_INBOUND_ESPS.",
                    id="games.E002",
                )
            )
    return errors


@register(Tags.security, deploy=True)
def inbound_webhooks_have_credentials(**kwargs: Any) -> list[CheckMessage]:
    """Without ``ANYMAIL_WEBHOOK_SECRET`` anyone can post to the inbound
    webhooks.  A forged post still needs a valid reply token and the player's
    address, but the basic-auth secret keeps strangers out altogether."""
    if settings.ANYMAIL.get("WEBHOOK_SECRET") or not settings.JUMBULAYA_INBOUND_ESPS:
        return []
    return [
        Warning(
            "The inbound email webhooks (/anymail/<esp>/inbound/) accept posts from anyone.",
            hint="Set ANYMAIL_WEBHOOK_SECRET=user:long-random-password and put those "
            "credentials in the ESP's inbound webhook URL.",
            id="games.W001",
        )
    ]


@register(Tags.security, deploy=True)
def the_local_mailbox_is_off(**kwargs: Any) -> list[CheckMessage]:
    """The local mailbox (/dev/mailbox) shows every email the site sends, sign-in
    links included, and its reply form moves as any player, to anyone who can
    reach the site: it is for a machine of one's own."""
    if not settings.JUMBULAYA_MAILBOX or settings.DEBUG:
        return []
    return [
        Warning(
            "JUMBULAYA_MAILBOX is on: /dev/mailbox/ lets anyone read every email the site "
            "sends (sign-in links too) and reply as any player.",
            hint="Unset JUMBULAYA_MAILBOX and set EMAIL_BACKEND to an ESP's anymail backend.",
            id="games.W002",
        )
    ]


@register(Tags.security, deploy=True)
def tracking_webhooks_have_credentials(**kwargs: Any) -> list[CheckMessage]:
    """The tracking webhooks' events stop players' mail, so only the ESP may
    post them.  Postmark's carry no credential but the basic auth, and
    Mailgun's signature covers a timestamp and a token, not the event: the
    basic-auth secret must be set too, whichever ESP posts them."""
    if settings.ANYMAIL.get("WEBHOOK_SECRET") or not settings.JUMBULAYA_INBOUND_ESPS:
        return []
    return [
        Warning(
            "The mail tracking webhooks (/anymail/<esp>/tracking/) take bounces and "
            "complaints, which stop players' mail, from anyone: ANYMAIL_WEBHOOK_SECRET is not "
            "set. Mailgun's signature is not enough on its own: it covers a timestamp and a "
            "token, not the event it comes with.",
            hint="Set ANYMAIL_WEBHOOK_SECRET=user:long-random-password and put those "
            "credentials in each ESP's tracking webhook URL "
            "(https://user:long-random-password@site/anymail/<esp>/tracking/), as well as "
            "Mailgun's ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY.",
            id="games.W003",
        )
    ]


@register(Tags.compatibility, deploy=True)
def tracking_events_are_read(**kwargs: Any) -> list[CheckMessage]:
    """Bounces and complaints stop mail to an address only from the ESPs whose
    tracking webhooks are served here.  Another anymail ESP (Amazon SES,
    SendGrid...) sends, but what it says of bounces and complaints is not
    read: game mail goes on to dead addresses and to people who marked it as
    spam, the co-players are never told, and the ESP's own suppression list is
    all that stops it (deploy/mail.md)."""
    from games.mail_in.tracking_webhook import TRACKING_WEBHOOKS
    from games.mail_out.esp import sending_esp

    esp = sending_esp()
    if not esp or esp in TRACKING_WEBHOOKS:
        return []
    return [
        Warning(
            f"EMAIL_BACKEND sends through {esp}, whose tracking events (bounces, complaints) "
            "are not processed here: mail to an address that bounces or complains is not "
            "stopped, and nobody is told.",
            hint="Send through "
            + " or ".join(TRACKING_WEBHOOKS)
            + " (anymail.backends.<esp>.EmailBackend) with its tracking webhook pointed at "
            "/anymail/<esp>/tracking/, as deploy/mail.md says.",
            id="games.W004",
        )
    ]
