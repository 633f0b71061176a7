"""The glue between django-anymail's inbound webhooks and :mod:`games.inbound`.

django-anymail checks the webhook's credentials (basic auth from
``ANYMAIL_WEBHOOK_SECRET``, Mailgun's signature) and turns each ESP's payload
into an :class:`~anymail.inbound.AnymailInboundMessage`; this receiver hands
it to the one path every reply takes."""

from __future__ import annotations

from typing import Any

from anymail.signals import AnymailInboundEvent

from games import inbound


def on_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    if event.message is not None:
        inbound.receive(event.message, via=esp_name.lower())
