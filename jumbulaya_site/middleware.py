"""Site-wide middleware."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader

from jumbulaya_site import outage

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
            message = (
                f"This request's body is {length:,} bytes; this address takes at most "
                f"{limit:,}. Nothing was done."
            )
            if request.path_info.startswith("/api/"):  # the API answers in JSON
                return JsonResponse({"code": "too_large", "message": message}, status=413)
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


#: What a 503 asks clients and ESPs to wait before trying again, in seconds.
RETRY_AFTER_SECONDS = 30


class DatabaseOutageMiddleware:
    """While the database is away, a 503 with ``Retry-After`` instead of a 500 and a
    traceback per request: a short page that says the service will be back, or for an
    ESP's webhook (``/anymail/``) a line of text, so the ESP posts again (its posts are
    deduplicated).  The log says once that the database is away and once that it is back
    (:mod:`jumbulaya_site.outage`); these 503s are not logged one by one.

    The view's failure arrives in :meth:`process_exception`; the call around the rest
    notices that the database is back: while it was away, the first request that ends
    without this middleware's 503 asks the database a trivial question."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        ours = getattr(response, "_database_away", False)
        if outage.is_away() and not ours and outage.answers():
            outage.back(f"{request.method} {request.path}")
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not outage.found_away(f"{request.method} {request.path}", exception):
            return None
        response: HttpResponse
        if request.path_info.startswith("/anymail/"):
            response = HttpResponse(
                "The service is briefly unavailable; please post this again later.",
                status=503,
                content_type="text/plain; charset=utf-8",
            )
        else:
            # Rendered without the request: the user, the session and the messages would
            # each ask the database.
            response = HttpResponse(
                loader.render_to_string("503.html"),
                status=503,
                content_type="text/html; charset=utf-8",
            )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        response._database_away = True  # type: ignore[attr-defined]
        # Said once by outage.away, not once per request by django.request.
        response._has_been_logged = True  # type: ignore[attr-defined]
        return response
