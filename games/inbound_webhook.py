"""The glue between django-anymail's webhooks and :mod:`games.inbound`.

django-anymail checks the webhook's credentials (basic auth from
``ANYMAIL_WEBHOOK_SECRET``, Mailgun's signature) and turns each ESP's payload
into an :class:`~anymail.inbound.AnymailInboundMessage`; :func:`on_inbound`
hands it to the one path every reply takes.

A payload anymail cannot read (not JSON, the wrong shape, fields missing) is a
400 that says so, not a server error: the ESP is told, nothing was done.  A
failure in handling a message that was read stays a 500, so the ESP posts it
again later.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import anymail.urls
from anymail.signals import AnymailInboundEvent
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls import URLPattern

from games import inbound

log = logging.getLogger(__name__)

#: What anymail raises on a payload it cannot read.
UNREADABLE = (ValueError, KeyError, TypeError, AttributeError, IndexError)


class HandlingFailed(Exception):
    """Handling a message anymail did read failed: answered 500, for a retry."""


def on_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    if event.message is None:
        return
    try:
        inbound.receive(event.message, via=esp_name.lower())
    except Exception as e:  # not the payload's fault: the ESP should try again
        raise HandlingFailed(f"handling a message from {esp_name} failed") from e


def unreadable_is_400(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)  # keeps anymail's csrf_exempt
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except UNREADABLE as e:
            log.warning(
                "webhook %s: unreadable payload (%s: %s)", request.path, type(e).__name__, e
            )
            return HttpResponseBadRequest(
                f"This webhook's payload could not be read ({type(e).__name__}); nothing was done.",
                content_type="text/plain; charset=utf-8",
            )

    return wrapped


#: anymail's webhook URLs, each answering 400 to a payload it cannot read.
urlpatterns = [
    URLPattern(p.pattern, unreadable_is_400(p.callback), p.default_args, p.name)
    for p in anymail.urls.urlpatterns
    if isinstance(p, URLPattern)
]
