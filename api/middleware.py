"""Every answer under ``/api/`` that is not a success is JSON ``{"code",
"message"}``, made by the API's own handlers (:mod:`api.errors`) or, for the
few made elsewhere, rewritten here: django-ninja's plain-text 405 for a
method a route does not take, and whatever Django answers before or around a
view (a Host it does not serve, a failure in another middleware, the database
away).  The status is kept, and the headers a client acts on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse

from api.errors import CODES, NOTHING_HERE, SERVER_ERROR, UNAVAILABLE, error_response

#: The headers of the answer replaced that the JSON answer keeps.
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Cache-Control")
#: Marks other parts of the site set on an answer, kept too (the log's and
#: DatabaseOutageMiddleware's).
KEPT_MARKS = ("_has_been_logged", "_database_away")
MESSAGES = {
    400: "The request is malformed.",
    403: "This request is refused.",
    404: NOTHING_HERE,
    413: "This request's body is too large.",
    429: "Too many requests; try again later.",
    500: SERVER_ERROR,
    503: UNAVAILABLE,
}


def _message(request: HttpRequest, response: HttpResponse) -> str:
    if response.status_code == 405:
        allowed = response.get("Allow", "")
        return f"This endpoint does not take {request.method}; it takes {allowed}."
    if response.status_code in MESSAGES:
        return MESSAGES[response.status_code]
    try:
        return f"{HTTPStatus(response.status_code).phrase}."
    except ValueError:
        return "The request was refused."


def as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response``, or for a failure under ``/api/`` that is not JSON, its JSON
    answer."""
    if (
        not request.path_info.startswith("/api/")
        or response.status_code < 400
        or response.get("Content-Type", "").startswith("application/json")
    ):
        return response
    status = response.status_code
    answer = error_response(status, CODES.get(status, "error"), _message(request, response))
    for header in KEPT_HEADERS:
        if header in response:
            answer[header] = response[header]
    for mark in KEPT_MARKS:
        if hasattr(response, mark):
            setattr(answer, mark, getattr(response, mark))
    return answer


class JsonAnswersMiddleware:
    """Put first in ``MIDDLEWARE``, so that it sees every answer, the other
    middleware's too.  It serves sync and async requests alike (Django's
    pattern): under ASGI a sync-only middleware would run each request, a long
    poll's wait and all, in a thread of its own."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponse | Awaitable[HttpResponse]:
        if self.is_async:
            return self._acall(request)
        response: HttpResponse = self.get_response(request)
        return as_json(request, response)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        return as_json(request, await self.get_response(request))
