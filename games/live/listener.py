"""One ``LISTEN`` connection per process, shared by every wait in it.

Each wait registers an :class:`asyncio.Event` for its game; the listener sets the
events of a game whose doorbell rang (:mod:`games.live.doorbell`).  The connection
is opened by the first wait, kept while any wait is registered and for
:data:`LINGER_SECONDS` after the last, and opened again after a failure (PostgreSQL
restarted, the network dropped); when it is (re)established every registered wait
is woken, so a ring missed while it was down is caught by the waits' own look at
the game.  A thousand waits cost one database connection, not a thousand.

It lives on the event loop that made it (the ASGI server's, one per process).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from django.db import connections

from games.live.doorbell import CHANNEL

log = logging.getLogger(__name__)

#: How long the connection stays open after the last wait left.
LINGER_SECONDS = 60.0
#: The pauses before connecting again after a failure, the last one repeated.
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)
#: Django's own keys among a PostgreSQL database's OPTIONS (the rest are libpq's).
DJANGO_OPTIONS = {
    "pool",
    "server_side_binding",
    "isolation_level",
    "assume_role",
    "cursor_factory",
    "context",
    "prepare_threshold",
}

_listeners: WeakKeyDictionary[asyncio.AbstractEventLoop, Listener] = WeakKeyDictionary()


def connection_params() -> dict[str, Any]:
    """libpq's parameters for the default database, as Django's settings give them
    (the test database's name in tests)."""
    s = connections["default"].settings_dict
    params: dict[str, Any] = {
        "dbname": s.get("NAME") or "postgres",
        "user": s.get("USER"),
        "password": s.get("PASSWORD"),
        "host": s.get("HOST"),
        "port": s.get("PORT"),
        "connect_timeout": 5,
    }
    params |= {k: v for k, v in (s.get("OPTIONS") or {}).items() if k not in DJANGO_OPTIONS}
    return {k: v for k, v in params.items() if v not in (None, "")}


class Listener:
    """The waits of one event loop and the connection that wakes them."""

    def __init__(self) -> None:
        self._waiters: dict[int, set[asyncio.Event]] = {}
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._failures = 0

    @classmethod
    def of_this_loop(cls) -> Listener:
        loop = asyncio.get_running_loop()
        found = _listeners.get(loop)
        if found is None:
            found = _listeners[loop] = cls()
        return found

    @property
    def waits(self) -> int:
        return sum(len(events) for events in self._waiters.values())

    def watch(self, game_id: int) -> asyncio.Event:
        """An event set whenever game ``game_id`` rings (or the connection comes back)."""
        event = asyncio.Event()
        self._waiters.setdefault(game_id, set()).add(event)
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._task is None or self._task.done():
            self._ready.clear()
            self._task = asyncio.get_running_loop().create_task(self._listen())
        return event

    def unwatch(self, game_id: int, event: asyncio.Event) -> None:
        events = self._waiters.get(game_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._waiters[game_id]
        if not self._waiters and self._idle is None:
            self._idle = asyncio.get_running_loop().call_later(LINGER_SECONDS, self._stop_if_idle)

    async def ready(self, timeout: float) -> bool:
        """Whether the connection is listening, waiting up to ``timeout`` seconds for it."""
        if not self._ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), timeout)
        return self._ready.is_set()

    def _stop_if_idle(self) -> None:
        self._idle = None
        if not self._waiters and self._task is not None:
            self._task.cancel()
            self._task = None
            self._ready.clear()

    def _wake_all(self) -> None:
        for events in self._waiters.values():
            for event in events:
                event.set()

    def _ring(self, payload: str) -> None:
        game, _, _seq = payload.partition(":")
        try:
            events = self._waiters.get(int(game), ())
        except ValueError:
            return
        for event in events:
            event.set()

    async def _listen(self) -> None:
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(**connection_params(), autocommit=True)
            except (psycopg.Error, OSError) as e:
                await self._failed(e)
                continue
            try:
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self._failures:
                        log.warning(
                            "live updates: listening again after %d failures", self._failures
                        )
                    self._failures = 0
                    self._ready.set()
                    self._wake_all()  # a ring may have been missed while away
                    async for note in conn.notifies():
                        self._ring(note.payload)
            except (psycopg.Error, OSError) as e:
                self._ready.clear()
                await self._failed(e)

    async def _failed(self, error: BaseException) -> None:
        """Say so once per outage, wake every wait (each looks at its game, and falls
        back to looking now and then), and pause before connecting again."""
        if self._failures == 0:
            log.warning("live updates: the listening connection failed (%s)", type(error).__name__)
        self._failures += 1
        self._wake_all()
        pause = RETRY_SECONDS[min(self._failures, len(RETRY_SECONDS)) - 1]
        await asyncio.sleep(pause)
