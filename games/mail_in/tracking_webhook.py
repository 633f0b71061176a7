"""The ESPs' tracking webhooks: bounces, deferrals, complaints, deliveries.

They answer for the ESPs the service takes inbound mail from
(``JUMBULAYA_INBOUND_ESPS``; every other ESP's is a 404), at
``/anymail/<esp>/tracking/``, with the same credentials as the inbound ones:
Postmark's basic auth (``ANYMAIL_WEBHOOK_SECRET`` in the URL), Mailgun's
signature (``ANYMAIL_MAILGUN_WEBHOOK_SIGNING_KEY``, and the basic auth too when
it is set).  django-anymail checks them and reads each ESP's payload into an
``AnymailTrackingEvent``; its ``tracking`` signal hands it to
:func:`games.mail_out.tracking.on_tracking`, which stores it once and applies it.

What each answer means to the ESP:

- 200: stored (or stored already: an event posted twice is taken once), and
  acted on or, for an event that is not about mail we sent to that address
  lately, recorded as ignored (``MailEvent.ignored``): posting it again would
  change nothing.
- 400: credentials or a signature that do not check out (a Mailgun signature
  more than five minutes old, or used before: its token is taken once), or a
  payload that cannot be read (not JSON, the wrong shape, an inbound message
  posted here).  Nothing was stored.
- 503: the ESP is named but its webhook settings are missing.
- 500: storing it failed; the ESP posts it again.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from anymail.exceptions import AnymailConfigurationError, AnymailWebhookValidationFailure
from anymail.signals import AnymailTrackingEvent
from anymail.webhooks.mailgun import MailgunTrackingWebhookView
from anymail.webhooks.postmark import PostmarkTrackingWebhookView
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, re_path

from games.mail_in import inbound_webhook, webhook_tokens
from games.mail_in.inbound_webhook import Misdirected, plain_text

log = logging.getLogger(__name__)


class Checked:
    """A tracking view whose misdirected payloads (an inbound message posted to
    the tracking URL), and events dated past any calendar, are unreadable here,
    not a configuration error or a crash."""

    def parse_events(self, request: HttpRequest) -> list[AnymailTrackingEvent]:
        try:
            events: list[AnymailTrackingEvent] = super().parse_events(request)  # type: ignore[misc]
        except AnymailConfigurationError as e:
            raise Misdirected(str(e)) from e
        except (OverflowError, OSError) as e:  # a timestamp of 1e300 seconds
            raise ValueError(f"an event's timestamp is not a time ({e})") from e
        return events


class PostmarkTracking(Checked, PostmarkTrackingWebhookView):  # type: ignore[misc]
    """Postmark's Bounce, SpamComplaint, Delivery... webhooks (JSON, basic auth)."""


class MailgunTracking(Checked, MailgunTrackingWebhookView):  # type: ignore[misc]
    """Mailgun's webhooks (JSON with its ``signature`` block and ``event-data``),
    each signature taken once and only while fresh
    (:mod:`games.mail_in.webhook_tokens`)."""

    def validate_request(self, request: HttpRequest) -> None:
        super().validate_request(request)  # basic auth, then the signature's HMAC
        if request.content_type == "application/json":
            signed = json.loads(request.body.decode("utf-8"))["signature"]
        else:  # Mailgun's legacy form posts
            signed = request.POST
        try:
            webhook_tokens.take(signed.get("token"), signed.get("timestamp"))
        except webhook_tokens.Refused as e:
            raise AnymailWebhookValidationFailure(f"Mailgun's signature is refused: {e}") from e


#: The tracking webhooks that can be mounted: ESP name, view, URL pattern.
TRACKING_WEBHOOKS: dict[str, tuple[type[Checked], str]] = {
    "postmark": (PostmarkTracking, r"^postmark/tracking/$"),
    "mailgun": (MailgunTracking, r"^mailgun/tracking/$"),
}


def _refused(esp: str, request: HttpRequest, error: Exception) -> HttpResponse:
    log.warning("tracking webhook %s: refused (%s)", request.path, error)
    return plain_text(
        f"This request's credentials or signature did not check out ({error}); nothing was stored.",
        400,
    )


def mounted(esp: str, view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` mounted as the inbound webhooks are, refusing credentials or a
    signature that do not check out with a 400, as the module's docstring says."""
    return inbound_webhook.mounted(
        esp,
        view,
        label="mail tracking",
        nothing="nothing was stored",
        answers=((AnymailWebhookValidationFailure, _refused),),
    )


urlpatterns: list[URLPattern] = [
    re_path(pattern, mounted(esp, view.as_view()), name=f"{esp}_tracking_webhook")  # type: ignore[attr-defined]
    for esp, (view, pattern) in TRACKING_WEBHOOKS.items()
]
