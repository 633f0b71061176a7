"""The ESPs' inbound webhooks, bounded, and the glue to :mod:`games.mail_in.inbound`.

Only the webhooks of the ESPs named in ``JUMBULAYA_INBOUND_ESPS`` answer (the
rest are 404s; their tracking webhooks are in :mod:`games.mail_in.tracking_webhook`),
and only the ESPs whose payloads :mod:`games.mail_in.inbound_limits` knows how to
bound can be named: Postmark and Mailgun.  django-anymail checks each post's
credentials (basic auth from ``ANYMAIL_WEBHOOK_SECRET``, Mailgun's signature) and
builds the
:class:`~anymail.inbound.AnymailInboundMessage` that :func:`on_inbound` hands
to the one path every reply takes.

What each answer means to the ESP:

- 200: handled, or dropped unread because it is past a bound (logged, and kept
  as a dropped ``InboundMail`` row): sending it again would change nothing.
- 400: a payload anymail cannot read (not JSON, the wrong shape, fields
  missing, a tracking event posted to the inbound URL), or credentials that
  do not check out.  Nothing was done.
- 503: the ESP is named but its webhook settings are missing (the system
  checks say so at start); the ESP tries again later.
- 500: handling a message that was read failed, so the ESP posts it again.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

from anymail.exceptions import AnymailConfigurationError
from anymail.signals import AnymailInboundEvent
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from anymail.webhooks.postmark import PostmarkInboundWebhookView
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.files.uploadhandler import FileUploadHandler
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import URLPattern, re_path
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt

from games.mail_in import inbound, inbound_limits

log = logging.getLogger(__name__)

#: What anymail raises on a payload it cannot read; a message nested past the
#: parser's recursion is unreadable too.
UNREADABLE = (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError)


class HandlingFailed(Exception):
    """Handling a message anymail did read failed: answered 500, for a retry."""


class Unread(Exception):
    """A message past a bound: dropped before it is parsed."""

    def __init__(self, reason: str, *, material: bytes, sender: str) -> None:
        super().__init__(reason)
        self.reason, self.material, self.sender = reason, material, sender


class Misdirected(ValueError):
    """A payload of the wrong kind for this URL (a tracking event posted to the
    inbound webhook): unreadable here."""


def on_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    if event.message is None:
        return
    try:
        inbound.receive(event.message, via=esp_name.lower())
    except RecursionError:  # a message too deep to walk: unreadable, not worth a retry
        raise
    except Exception as e:  # not the payload's fault: the ESP should try again
        raise HandlingFailed(f"handling a message from {esp_name} failed") from e


class BoundedInbound:
    """Bounds an inbound webhook's payload before anymail parses it."""

    def parse_events(self, request: HttpRequest) -> list[AnymailInboundEvent]:
        try:
            return self.bounded_events(request)
        except AnymailConfigurationError as e:
            raise Misdirected(str(e)) from e

    def bounded_events(self, request: HttpRequest) -> list[AnymailInboundEvent]:
        raise NotImplementedError


class PostmarkInbound(BoundedInbound, PostmarkInboundWebhookView):  # type: ignore[misc]
    """Postmark's inbound JSON: bounded, its bodies cut to their tops, and its
    attachments removed."""

    def bounded_events(self, request: HttpRequest) -> list[AnymailInboundEvent]:
        payload = json.loads(request.body.decode("utf-8"))
        if isinstance(payload, dict):
            try:
                payload = inbound_limits.bounded_postmark(payload)
            except inbound_limits.TooMuch as e:
                sender = payload.get("From")
                raise Unread(
                    e.reason,
                    material=request.body,
                    sender=sender if isinstance(sender, str) else "",
                ) from e
        return [self.esp_to_anymail_event(payload)]


class DiscardFiles(FileUploadHandler):
    """Attachments posted as files are never read: each is dropped as it arrives."""

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        return None

    def file_complete(self, file_size: int) -> None:
        return None


class MailgunInbound(BoundedInbound, MailgunInboundWebhookView):  # type: ignore[misc]
    """Mailgun's inbound form (raw MIME or fully parsed): bounded, bodies cut to
    their tops, attachments discarded."""

    @method_decorator(csrf_exempt)  # as anymail's own dispatch is: an ESP has no CSRF token
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Before anything reads the form (the signature check does).
        request.upload_handlers = [DiscardFiles(request)]
        response: HttpResponse = super().dispatch(request, *args, **kwargs)
        return response

    def bounded_events(self, request: HttpRequest) -> list[AnymailInboundEvent]:
        form = {key: request.POST.get(key, "") for key in request.POST}
        try:
            bounded = inbound_limits.bounded_mailgun(form)
        except inbound_limits.TooMuch as e:
            material = form.get("body-mime") or (
                form.get("message-headers", "") + form.get("body-plain", "")
            )
            raise Unread(
                e.reason,
                material=material.encode("utf-8", "replace"),
                sender=form.get("sender", ""),
            ) from e
        post = request.POST.copy()
        for name in ("attachment-count", "content-id-map"):  # no attachments are kept
            post.pop(name, None)
        for name, value in bounded.items():
            post[name] = value
        request.POST = post  # type: ignore[assignment]
        events: list[AnymailInboundEvent] = MailgunInboundWebhookView.parse_events(self, request)
        return events


#: The inbound webhooks that can be mounted: ESP name, view, URL patterns.
#: (Mailgun posts raw MIME to a URL ending in "mime", its parsed form otherwise.)
INBOUND_WEBHOOKS: dict[str, tuple[type[BoundedInbound], str]] = {
    "postmark": (PostmarkInbound, r"^postmark/inbound/$"),
    "mailgun": (MailgunInbound, r"^mailgun/inbound(_mime)?/$"),
}


def plain_text(text: str, status: int = 200) -> HttpResponse:
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


#: How a mounted webhook answers one kind of failure: ``(esp, request, error)``.
Answer = Callable[[str, HttpRequest, Exception], HttpResponse]


def _answer_dropped(esp: str, request: HttpRequest, error: Exception) -> HttpResponse:
    assert isinstance(error, Unread)
    inbound.drop_unread(error.material, via=esp, sender=error.sender, reason=error.reason)
    return plain_text(f"Dropped unread: {error.reason}.")


def mounted(
    esp: str,
    view: Callable[..., HttpResponse],
    *,
    label: str = "inbound mail",
    nothing: str = "nothing was done",
    answers: Sequence[tuple[type[Exception], Answer]] = ((Unread, _answer_dropped),),
) -> Callable[..., HttpResponse]:
    """``view`` answering only while ``esp`` is named in ``JUMBULAYA_INBOUND_ESPS``:
    the failures in ``answers`` as they say, an unreadable payload with a 400
    (``nothing`` done), missing settings with a 503, as the module's docstring
    says.  ``label`` names the webhook's kind in answers and the log."""

    @functools.wraps(view)  # keeps anymail's csrf_exempt
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if esp not in settings.JUMBULAYA_INBOUND_ESPS:
            raise Http404(f"{label} from {esp} is not configured here")
        try:
            return view(request, *args, **kwargs)
        except Exception as e:
            for kind, answer in answers:
                if isinstance(e, kind):
                    return answer(esp, request, e)
            if isinstance(e, UNREADABLE):
                log.warning(
                    "%s webhook %s: unreadable payload (%s: %s)",
                    label,
                    request.path,
                    type(e).__name__,
                    str(e)[:200],
                )
                return plain_text(
                    f"This webhook's payload could not be read ({type(e).__name__}); {nothing}.",
                    400,
                )
            if isinstance(e, ImproperlyConfigured):
                log.error(
                    "%s webhook %s: %s is not configured here (%s)", label, request.path, esp, e
                )
                return plain_text(
                    f"{label.capitalize()} is not configured here yet; please try again later.",
                    503,
                )
            raise

    return wrapped


urlpatterns: list[URLPattern] = [
    re_path(pattern, mounted(esp, view.as_view()), name=f"{esp}_inbound_webhook")  # type: ignore[attr-defined]
    for esp, (view, pattern) in INBOUND_WEBHOOKS.items()
]
