"""System checks (``manage.py check --deploy``) for the mail channels."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register


@register(Tags.security, deploy=True)
def inbound_webhooks_have_credentials(**kwargs: Any) -> list[CheckMessage]:
    """Without ``ANYMAIL_WEBHOOK_SECRET`` anyone can post to the inbound
    webhooks.  A forged post still needs a valid reply token and the player's
    address, but the basic-auth secret keeps strangers out altogether."""
    if settings.ANYMAIL.get("WEBHOOK_SECRET"):
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
