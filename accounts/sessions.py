"""Sessions in the database with a cache in front that may be away.

Django's ``cached_db`` store answers every request with a 500 while its cache
(Redis, in production) is down: after a miss it writes the session back to the
cache unguarded, and so do its ``exists`` and ``delete``.  This store treats a
cache it cannot reach as a miss and skips writes to it, so signing in, turn
links and moves go on while Redis is away; the database holds the truth.

A cached copy lives at most :data:`CACHE_SECONDS`: one that a failed write left
behind (a sign-out during an outage, say) is out of date for that long at most.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.core.cache.backends.base import BaseCache

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
