"""Who is asking: a personal access token in ``Authorization: Bearer <token>``
(:mod:`accounts.access_tokens`), counted against its account's rate limit.

A request without a usable token is a 401, counted against its client's
address (so guessing tokens is as slow as using one); one past either limit a
429 with ``Retry-After``.  Cookies play no part, so a page on another site cannot
make a signed-in browser act through the API (and the API needs no CSRF
token), and no answer carries ``Access-Control-Allow-Origin``: browsers keep
other sites' scripts from reading it.
"""

from __future__ import annotations

import math

from django.http import HttpRequest
from ninja.security import HttpBearer

from accounts import access_tokens, limits
from accounts.models import AccessToken, User
from api.errors import ApiError


class TokenAuth(HttpBearer):
    def __call__(self, request: HttpRequest) -> AccessToken | None:
        """The header read as django-ninja's ``HttpBearer`` reads it, but a
        scheme other than Bearer is refused without a word: in DEBUG, ninja's
        own reading logs the whole header, token and all, at ERROR."""
        scheme, _, token = request.headers.get(self.header, "").partition(" ")
        row = None
        if scheme.lower() == self.openapi_scheme and token:
            row = self.authenticate(request, token)
        if row is None:
            _count_client(request)
        return row

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken | None:
        row = access_tokens.find(token)
        if row is None:
            return None
        wait = access_tokens.take(row)
        if wait is not None:
            raise ApiError(
                429,
                "rate_limited",
                f"An account may make {access_tokens.per_minute()} requests a minute, "
                f"whichever of its tokens it uses; try again in {wait} s.",
                {"Retry-After": str(wait)},
            )
        return row


def _count_client(request: HttpRequest) -> None:
    """Count a request without a usable token against its client's address."""
    limit = limits.api_client_limit(limits.client_address(request))
    if limit is None:
        return
    refusal = limits.take([limit])
    if refusal is not None:
        wait = max(1, math.ceil(refusal.wait.total_seconds()))
        raise ApiError(
            429,
            "rate_limited",
            f"This address may make {access_tokens.per_minute()} requests a minute without "
            f"a usable token; try again in {wait} s.",
            {"Retry-After": str(wait)},
        )


def user_of(request: HttpRequest) -> User:
    """The account whose token the request carries (after :class:`TokenAuth`)."""
    row = request.auth  # type: ignore[attr-defined]  # set by django-ninja
    assert isinstance(row, AccessToken)
    return row.user
