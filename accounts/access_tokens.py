"""Personal access tokens for the API: made and revoked on the profile page,
checked on every API request, counted against their account's rate limit.

A token reads ``jmb_<prefix>_<secret>``.  The prefix (12 hex digits) finds
its row; the secret (43 URL-safe characters, 256 bits) is kept only as its
SHA-256, compared in constant time.  The plain token exists once, in the
answer to the request that made it.

The rate limit is the account's, whichever of its tokens a request carries
(an account may hold :data:`MAX_TOKENS`, and could mint more): the generic cell
rate algorithm of :mod:`accounts.limits`, ``JUMBULAYA_API_REQUESTS_PER_MINUTE``
requests at once, then one every ``60 / that`` seconds, checked and counted by
one conditional UPDATE in the database, so the limit holds across every web
process and host, with or without Redis.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts import limits
from accounts.models import AccessToken, User

#: What every token starts with, so that one pasted in the wrong place is recognisable.
SCHEME = "jmb"
#: The tokens one account may hold at once.
MAX_TOKENS = 20
#: A token's name, as typed on the profile page.
MAX_NAME = 60
#: How often a token's "last used" is written (not on every request: one query saved).
USED_EVERY = timedelta(minutes=1)

_SHAPE = re.compile(rf"{SCHEME}_([0-9a-f]{{12}})_([A-Za-z0-9_-]{{43}})")


class TokenError(Exception):
    """A token that cannot be made; ``message`` is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Made:
    """A new token's row and the token itself, to be shown once."""

    row: AccessToken
    token: str


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def make(user: User, name: str) -> Made:
    """A new token for ``user`` called ``name`` (:class:`TokenError` for an
    empty or over-long name, or past :data:`MAX_TOKENS`)."""
    name = " ".join(name.split())
    if not name:
        raise TokenError("Give the token a name, such as the program that will use it.")
    if len(name) > MAX_NAME:
        raise TokenError(f"Keep a token's name to {MAX_NAME} characters or fewer.")
    if AccessToken.objects.filter(user=user).count() >= MAX_TOKENS:
        raise TokenError(
            f"An account may hold {MAX_TOKENS} tokens at once: revoke one you no longer use."
        )
    prefix, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
    row = AccessToken.objects.create(
        user=user,
        name=name,
        prefix=prefix,
        secret_sha256=_digest(secret),
    )
    return Made(row, f"{SCHEME}_{prefix}_{secret}")


def revoke(user: User, token_id: int) -> bool:
    """Delete ``user``'s token ``token_id``; False when they hold no such token."""
    deleted, _ = AccessToken.objects.filter(user=user, pk=token_id).delete()
    return deleted > 0


def tokens_of(user: User) -> list[AccessToken]:
    return list(AccessToken.objects.filter(user=user))


def find(token: str) -> AccessToken | None:
    """The live token ``token`` names, with its user, or ``None`` for a token
    of the wrong shape, an unknown or revoked one, or a wrong secret, or one
    whose account can no longer sign in."""
    shape = _SHAPE.fullmatch(token.strip())
    if shape is None:
        return None
    prefix, secret = shape.groups()
    row = AccessToken.objects.select_related("user").filter(prefix=prefix).first()
    if row is None or not hmac.compare_digest(row.secret_sha256, _digest(secret)):
        return None
    if not row.user.is_active:
        return None
    return row


def per_minute() -> int:
    return int(settings.JUMBULAYA_API_REQUESTS_PER_MINUTE)


def take(row: AccessToken) -> int | None:
    """Count one request of ``row``'s account against the account's rate limit
    (:func:`accounts.limits.api_account_limit`: every token of an account draws
    on one allowance, so minting tokens buys nothing) and note the token as
    used.  ``None`` when it may go ahead; else the whole seconds until one more
    request is let through (``Retry-After``)."""
    refusal = limits.take([limits.api_account_limit(row.user_id)])
    if refusal is not None:
        return max(1, math.ceil(refusal.wait.total_seconds()))
    now = timezone.now()
    if row.last_used_at is None or now - row.last_used_at >= USED_EVERY:
        AccessToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return None
