"""Request bodies: JSON, sent as ``application/json``.  A body sent as
anything else (``text/plain``, a form) is refused with 415
``unsupported_media_type`` rather than read as JSON all the same, and a body
that is not JSON is a 400 saying so."""

from __future__ import annotations

import json
from typing import Any, cast

from django.http import HttpRequest
from ninja.parser import Parser

from api.errors import ApiError

MEDIA_TYPE = "application/json"


def check_json(request: HttpRequest) -> None:
    """Refuse (415) a request whose body is sent as anything but JSON."""
    sent = (request.content_type or "").lower()
    if request.body and sent != MEDIA_TYPE:
        said = f"as {sent}" if sent else "without a Content-Type"
        raise ApiError(
            415,
            "unsupported_media_type",
            f"This body was sent {said}; send it as JSON, with 'Content-Type: {MEDIA_TYPE}'.",
        )


class JsonParser(Parser):
    """django-ninja's parser, for JSON sent as JSON only.  Its refusals reach
    the client through :func:`api.errors._http_error` (ninja wraps whatever a
    parser raises in a 400 of its own)."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        check_json(request)
        try:
            return cast(dict[str, Any], json.loads(request.body))
        except (ValueError, RecursionError):
            raise ApiError(400, "bad_request", "The body is not JSON.") from None
