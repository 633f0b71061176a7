"""The API's errors: every answer that is not a success is JSON
``{"code": ..., "message": ...}`` with its status, whatever raised it.

=====  ==========================================================
400    ``bad_request``: a malformed request (a field missing, unknown or of the wrong
       type, a body that is not a JSON object)
401    ``unauthorized``: no token, or one that is unknown, revoked or malformed
403    ``not_yours``: the game may be seen but not played by this account
404    ``not_found``: no such game, record or endpoint (or one this account may not see)
405    ``method_not_allowed``: with ``Allow``
409    ``stale``, ``duplicate``, ``over_limit`` and the service's other refusals
       (``cannot_join``…)
413    ``too_large``: a record upload over its limit
415    ``unsupported_media_type``: a body sent as anything but ``application/json``
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
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from jumbulaya_site import outage
from jumbulaya_site.middleware import RETRY_AFTER_SECONDS

log = logging.getLogger(__name__)

#: What a client is told of a failure of ours, and of the database being away.
SERVER_ERROR = "Something went wrong on our side; nothing more is said here."
UNAVAILABLE = "The service is briefly unavailable; try again in a few minutes."
#: What a path that names nothing here is told.
NOTHING_HERE = "There is no such endpoint, or no such game or record; see /api/v1/docs."


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


#: Pydantic's error types for a body that is not a JSON object.
NOT_AN_OBJECT = {"model_attributes_type", "model_type", "dict_type"}


def _problem(error: dict[str, Any]) -> str:
    if error.get("type") in NOT_AN_OBJECT:
        where = _where(error.get("loc", ()))
        where = "the body" if where == "the request" else where
        return f"{where}: send a JSON object, as the docs show"
    if error.get("type") == "extra_forbidden":
        return f"{_where(error.get('loc', ()))}: there is no such field"
    return f"{_where(error.get('loc', ()))}: {error.get('msg', 'invalid')}"


def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    problems = [_problem(e) for e in exc.errors]
    return error_response(400, "bad_request", "; ".join(problems) or "The request is malformed.")


#: The codes of the statuses an error may have without saying its own.
CODES = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
    500: "server_error",
    503: "unavailable",
}


def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if isinstance(exc.__cause__, ApiError):
        # django-ninja answers any failure to read a body as its own 400; the
        # body parser's (api.bodies) says what was wrong.
        return _api_error(request, exc.__cause__)
    return error_response(exc.status_code, CODES.get(exc.status_code, "error"), str(exc))


def _not_found(request: HttpRequest, exc: Any) -> HttpResponse:
    return error_response(404, "not_found", "There is no such game or record here.")


def _server_error(request: HttpRequest, exc: Any) -> HttpResponse:
    if outage.found_away(f"{request.method} {request.path}", exc):
        # As DatabaseOutageMiddleware answers pages: django-ninja catches the error first.
        away = error_response(
            503,
            "unavailable",
            UNAVAILABLE,
            {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"},
        )
        away._database_away = True  # type: ignore[attr-defined]  # the middleware's mark
        away._has_been_logged = True  # type: ignore[attr-defined]  # said once by outage
        return away
    log.exception("API request %s %s failed", request.method, request.path)
    return error_response(500, "server_error", SERVER_ERROR)


def install(api: NinjaAPI) -> None:
    """Answer every error of ``api`` as JSON ``{"code", "message"}``."""
    api.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    api.add_exception_handler(AuthenticationError, _unauthorized)
    api.add_exception_handler(ValidationError, _invalid)  # type: ignore[arg-type]
    api.add_exception_handler(HttpError, _http_error)  # type: ignore[arg-type]
    api.add_exception_handler(Http404, _not_found)
    api.add_exception_handler(Exception, _server_error)


# The API takes no cookies (api.auth), so it needs no CSRF token, on any path:
# else a POST to an unknown path would be answered by the CSRF failure page.
@csrf_exempt
def not_found_view(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under ``/api/``, whatever the method: a JSON 404, not
    the site's page.  An id too long to be a row's (``games.web.converters``)
    matches no route, so it comes here too."""
    return error_response(404, "not_found", NOTHING_HERE)
