"""Site-wide middleware."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)


class RequestSizeLimitMiddleware:
    """Refuses a request body larger than the site takes, before anything reads it.

    Django's own bound on a body (``DATA_UPLOAD_MAX_MEMORY_SIZE``) is one
    number for the whole site.  The ESPs' inbound webhooks must take what an
    ESP posts (a reply with a photo attached: tens of MB), every other page
    needs far less; so Django's bound is set to the webhooks' and this holds
    every other path to ``JUMBULAYA_REQUEST_MAX_BYTES``.  A body sent without
    a ``Content-Length`` is not read by Django at all.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads no body it cannot measure
        if request.path_info.startswith("/anymail/"):
            limit = settings.JUMBULAYA_WEBHOOK_MAX_BYTES
        else:
            limit = settings.JUMBULAYA_REQUEST_MAX_BYTES
        if length > limit:
            log.warning("%s %s: a body of %d bytes refused", request.method, request.path, length)
            return HttpResponse(
                f"This request's body is {length:,} bytes; this address takes at most "
                f"{limit:,}. Nothing was done.",
                status=413,
                content_type="text/plain; charset=utf-8",
            )
        return self.get_response(request)
