"""The API's errors: every answer that is not a success is JSON
``{"code": ..., "message": ...}`` with its status, whatever raised it.

=====  ==========================================================
400    ``bad_request``: a malformed request (a field missing or of the wrong type)
401    ``unauthorized``: no token, or one that is unknown, revoked or malformed
403    ``not_yours``: the game may be seen but not played by this account
404    ``not_found``: no such game or record (or one this account may not see)
409    ``stale``, ``duplicate`` and the service's other refusals (``cannot_join``…)
413    ``too_large``: a record upload over its limit
422    the rules' refusal codes (``bad_line``, ``not_your_turn``…), as on the web
429    ``rate_limited``, with ``Retry-After``
500    ``server_error``: logged with its traceback; the client gets none
503    ``unavailable``: the database is away (said once in the log), with ``Retry-After``
=====  ==========================================================
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from jumbulaya_site import outage
from jumbulaya_site.middleware import RETRY_AFTER_SECONDS

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An answer other than success, raised by an endpoint."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> HttpResponse:
    response = JsonResponse({"code": code, "message": message}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return error_response(exc.status, exc.code, exc.message, exc.headers)


def _unauthorized(request: HttpRequest, exc: Any) -> HttpResponse:
    return error_response(
        401,
        "unauthorized",
        "Send a personal access token as 'Authorization: Bearer <token>'. Tokens are made "
        "on your profile page; this one is missing, unknown, revoked or malformed.",
        {"WWW-Authenticate": 'Bearer realm="api"'},
    )


def _where(location: Any) -> str:
    parts = [str(p) for p in location if p not in ("body", "payload", "query", "path")]
    return ".".join(parts) or "the request"


def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    problems = [f"{_where(e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in exc.errors]
    return error_response(400, "bad_request", "; ".join(problems) or "The request is malformed.")


def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    code = {400: "bad_request", 405: "method_not_allowed"}.get(exc.status_code, "error")
    return error_response(exc.status_code, code, str(exc))


def _not_found(request: HttpRequest, exc: Any) -> HttpResponse:
    return error_response(404, "not_found", "There is no such game or record here.")


def _server_error(request: HttpRequest, exc: Any) -> HttpResponse:
    if outage.found_away(f"{request.method} {request.path}", exc):
        # As DatabaseOutageMiddleware answers pages: django-ninja catches the error first.
        away = error_response(
            503,
            "unavailable",
            "The service is briefly unavailable; try again in a few minutes.",
            {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"},
        )
        away._database_away = True  # type: ignore[attr-defined]  # the middleware's mark
        away._has_been_logged = True  # type: ignore[attr-defined]  # said once by outage
        return away
    log.exception("API request %s %s failed", request.method, request.path)
    return error_response(
        500, "server_error", "Something went wrong on our side; nothing more is said here."
    )


def install(api: NinjaAPI) -> None:
    """Answer every error of ``api`` as JSON ``{"code", "message"}``."""
    api.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    api.add_exception_handler(AuthenticationError, _unauthorized)
    api.add_exception_handler(ValidationError, _invalid)  # type: ignore[arg-type]
    api.add_exception_handler(HttpError, _http_error)  # type: ignore[arg-type]
    api.add_exception_handler(Http404, _not_found)
    api.add_exception_handler(Exception, _server_error)


def not_found_view(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under ``/api/``: a JSON 404, not the site's page."""
    return error_response(404, "not_found", "There is no such endpoint; see /api/v1/docs.")
