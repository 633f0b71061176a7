"""A game's live stream: what an open game page listens to (server-sent events).

The stream says ``changed`` with the game's version (:func:`version_of`: its last
move, whether it is over, its claim window, its newest message) each time that
version moves, and nothing else: the page then fetches its own live part, as the
viewer may see it (the stream itself carries nothing a spectator may not know).
It wakes on the game's doorbell (PostgreSQL), or looks every :data:`POLL_SECONDS`
(SQLite); it says it is still there every :data:`KEEPALIVE_SECONDS` (a comment
line, so proxies keep it open), and after :data:`STREAM_SECONDS` says ``bye`` and
ends: the page opens a new one, saying whether its player was active, which keeps
them present (:mod:`games.live.presence`).  Like a long poll, a stream sleeps on
the event loop and holds no worker and, between its looks, no database connection.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.db import connection
from django.db.models import Max

from games.live import doorbell
from games.live.listener import Listener
from games.models import Game, Message, SeatChange

#: How long one stream lasts before the page opens the next.
STREAM_SECONDS = 120.0
#: How often a stream says it is still there.
KEEPALIVE_SECONDS = 15.0
#: Without a doorbell (SQLite): how often a stream looks at the game.
POLL_SECONDS = 1.0
#: How long the browser waits before opening a stream again after a cut.
RETRY_MS = 2000


def version_of(game: Game, newest_message: int | None, newest_seat_change: int | None) -> str:
    """What an open page compares to know it shows the game as it is."""
    window = game.window_closes_at.timestamp() if game.window_closes_at else 0
    return (
        f"{game.last_seq}.{game.status}.{window:.0f}.{newest_message or 0}"
        f".{newest_seat_change or 0}"
    )


def _newest_seat_change(game_id: int) -> int | None:
    """A seat taken over (a robot for a player who left) writes no event."""
    found: int | None = SeatChange.objects.filter(game_id=game_id).aggregate(newest=Max("pk"))[
        "newest"
    ]
    return found


def page_version(game: Game, messages: bool) -> str:
    """The version of ``game`` as a page about to show it sees it (within the
    request: its connection stays)."""
    newest = None
    if messages:
        newest = Message.objects.filter(game=game).aggregate(newest=Max("pk"))["newest"]
    return version_of(game, newest, _newest_seat_change(game.pk))


def current_version(game_id: int, messages: bool = True) -> str:
    """The game's version now (an empty string for a game that is gone); without
    ``messages`` (a spectator's), its messages left out.  The connection is given
    back after, unless a transaction holds it (tests)."""
    try:
        game = Game.objects.filter(pk=game_id).only("last_seq", "status", "window_closes_at")
        found = game.first()
        if found is None:
            return ""
        newest = None
        if messages:
            newest = Message.objects.filter(game_id=game_id).aggregate(newest=Max("pk"))["newest"]
        return version_of(found, newest, _newest_seat_change(game_id))
    finally:
        if not connection.in_atomic_block:
            connection.close()


def event(name: str, data: str = "") -> str:
    return f"event: {name}\ndata: {data}\n\n"


async def follow(
    game_id: int, seen: str, *, messages: bool = True, seconds: float = STREAM_SECONDS
) -> AsyncIterator[str]:
    """The stream of game ``game_id`` for a page that shows version ``seen``
    (``messages``: whether its viewer may know of the players' messages)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    yield f"retry: {RETRY_MS}\n\n"
    listener = Listener.of_this_loop() if doorbell.rings() else None
    watched = listener.watch(game_id) if listener is not None else None
    try:
        bell = watched
        if listener is not None and not await listener.ready(2.0):
            bell = None  # no bell now: look now and then instead
        shown = seen
        said_at = loop.time()
        while True:
            if bell is not None:
                bell.clear()
            now = await sync_to_async(current_version)(game_id, messages)
            if now != shown:
                shown = now
                said_at = loop.time()
                yield event("changed", now)
            left = until - loop.time()
            if left <= 0:
                break
            if loop.time() - said_at >= KEEPALIVE_SECONDS:
                said_at = loop.time()
                yield ": still here\n\n"
            if bell is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(bell.wait(), min(left, KEEPALIVE_SECONDS))
            else:
                await asyncio.sleep(min(left, POLL_SECONDS))
        yield event("bye")
    finally:
        if listener is not None and watched is not None:
            listener.unwatch(game_id, watched)
