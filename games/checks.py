"""System checks (``manage.py check --deploy``) for replies by email."""

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
