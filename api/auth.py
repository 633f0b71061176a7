"""Who is asking: a personal access token in ``Authorization: Bearer <token>``
(:mod:`accounts.access_tokens`), counted against that token's rate limit.

A request without a usable token is a 401; one past the token's limit a 429
with ``Retry-After``.  Cookies play no part, so a page on another site cannot
make a signed-in browser act through the API (and the API needs no CSRF
token), and no answer carries ``Access-Control-Allow-Origin``: browsers keep
other sites' scripts from reading it.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer

from accounts import access_tokens
from accounts.models import AccessToken, User
from api.errors import ApiError


class TokenAuth(HttpBearer):
    def __call__(self, request: HttpRequest) -> AccessToken | None:
        """The header read as django-ninja's ``HttpBearer`` reads it, but a
        scheme other than Bearer is refused without a word: in DEBUG, ninja's
        own reading logs the whole header, token and all, at ERROR."""
        scheme, _, token = request.headers.get(self.header, "").partition(" ")
        if scheme.lower() != self.openapi_scheme or not token:
            return None
        return self.authenticate(request, token)

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken | None:
        row = access_tokens.find(token)
        if row is None:
            return None
        wait = access_tokens.take(row)
        if wait is not None:
            limit = access_tokens.per_minute()
            raise ApiError(
                429,
                "rate_limited",
                f"This token may make {limit} requests a minute; try again in {wait} s.",
                {"Retry-After": str(wait)},
            )
        return row


def user_of(request: HttpRequest) -> User:
    """The account whose token the request carries (after :class:`TokenAuth`)."""
    row = request.auth  # type: ignore[attr-defined]  # set by django-ninja
    assert isinstance(row, AccessToken)
    return row.user
