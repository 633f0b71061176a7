"""Sessions in the database with a cache in front that may be away, kept
alive while they are used.

Django's ``cached_db`` store answers every request with a 500 while its cache
(Redis, in production) is down: after a miss it writes the session back to the
cache unguarded, and so do its ``exists`` and ``delete``.  This store treats a
cache it cannot reach as a miss and skips writes to it, so signing in, turn
links and moves go on while Redis is away; the database holds the truth.

A cached copy lives at most :data:`CACHE_SECONDS`: one that a failed write left
behind (a sign-out during an outage, say) is out of date for that long at most.

A session lasts ``SESSION_COOKIE_AGE`` (30 days) from when it was last written:
:class:`RenewSessionsMiddleware` writes a signed-in session again at its first
request of each day, so it lasts 30 days after its last use, for one write a
day rather than one a request (``SESSION_SAVE_EVERY_REQUEST``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.core.cache.backends.base import BaseCache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

log = logging.getLogger(__name__)

#: The longest a session stays in the cache.
CACHE_SECONDS = 3600


class SessionStore(CachedDBStore):
    _cache: BaseCache

    def _cached(self, method: str, *args: Any) -> Any:
        """``self._cache.<method>(*args)``, or ``None`` when the cache is away."""
        try:
            return getattr(self._cache, method)(*args)
        except Exception as e:  # the database answers instead
            log.warning("session cache unavailable (%s: %s)", type(e).__name__, str(e)[:100])
            return None

    def _cache_age(self, expiry: datetime | None = None) -> int:
        return min(CACHE_SECONDS, self.get_expiry_age(expiry=expiry))

    def load(self) -> dict[str, Any]:
        data = self._cached("get", self.cache_key)
        if data is None:
            row = self._get_session_from_db()  # type: ignore[attr-defined]  # not in the stubs
            if row is None:
                return {}
            data = self.decode(row.session_data)
            self._cached("set", self.cache_key, data, self._cache_age(row.expire_date))
        return dict(data)

    def exists(self, session_key: str | None) -> bool:
        if not session_key:
            return False
        return bool(self._cached("has_key", self.cache_key_prefix + session_key)) or (
            DBStore.exists(self, session_key)
        )

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        session = self._session  # type: ignore[attr-defined]  # not in the stubs
        self._cached("set", self.cache_key, session, self._cache_age())

    def delete(self, session_key: str | None = None) -> None:
        DBStore.delete(self, session_key)
        key = session_key if session_key is not None else self.session_key
        if key is not None:
            self._cached("delete", self.cache_key_prefix + key)


#: Where a session keeps the day it was last renewed.
RENEWED_ON = "accounts.renewed_on"


def renew(request: HttpRequest) -> None:
    """Mark a signed-in session the request used for writing again (which
    starts its age again and sends its cookie afresh), once a day."""
    session = getattr(request, "session", None)
    if session is None or not session.accessed or SESSION_KEY not in session:
        return
    today = timezone.now().date().isoformat()
    if session.get(RENEWED_ON) != today:
        session[RENEWED_ON] = today


class RenewSessionsMiddleware:
    """:func:`renew`, inside ``SessionMiddleware`` (which writes what it
    marks).  It serves sync and async requests alike: under ASGI a sync-only
    middleware would run each request, a long poll's wait and all, in a
    thread of its own."""

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
        renew(request)
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = await self.get_response(request)
        renew(request)
        return response
