"""Waiting, on the event loop, for a game to move past a ``seq``.

A wait looks at the game (one short query, after which its thread's database
connection is given back: a thousand waits hold no connection between looks), and,
if the game has not moved, sleeps until the game's doorbell rings (PostgreSQL,
:mod:`games.live.listener`) or, on SQLite, until it is time to look again (after
:data:`POLL_FIRST` seconds, then less and less often, every :data:`POLL_MOST` at
most).  It never holds a worker: the ASGI server serves other requests meanwhile.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.db import connection

from games.live import doorbell
from games.live.listener import Listener
from games.models import Game

#: How often a wait without a doorbell looks at the game again: from the first to the last.
POLL_FIRST, POLL_MOST = 0.05, 0.5
#: The longest a wait waits for the listening connection before looking now and then instead.
READY_SECONDS = 2.0


@dataclass(frozen=True)
class Position:
    seq: int
    over: bool


def _position(game_id: int) -> Position | None:
    """The game's ``seq`` and whether it is over (``None``: no such game), then its
    connection given back, unless a transaction holds it (tests)."""
    try:
        row = Game.objects.values_list("last_seq", "status").filter(pk=game_id).first()
    finally:
        if not connection.in_atomic_block:
            connection.close()
    return None if row is None else Position(row[0], row[1] == Game.Status.OVER)


async def _moved(game_id: int, after: int) -> bool:
    at = await sync_to_async(_position)(game_id)
    return at is None or at.over or at.seq != after


async def wait_past(game_id: int, after: int, seconds: float) -> bool:
    """Sleep until game ``game_id`` is past ``after`` (or over, or gone), for
    ``seconds`` at most; whether it was seen to move."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    if doorbell.rings():
        listener = Listener.of_this_loop()
        event = listener.watch(game_id)
        try:
            if await listener.ready(min(READY_SECONDS, seconds)):
                while True:
                    event.clear()
                    if await _moved(game_id, after):
                        return True
                    left = until - loop.time()
                    if left <= 0:
                        return False
                    try:
                        await asyncio.wait_for(event.wait(), left)
                    except TimeoutError:
                        return False
        finally:
            listener.unwatch(game_id, event)
    return await _poll(game_id, after, until)


async def _poll(game_id: int, after: int, until: float) -> bool:
    loop = asyncio.get_running_loop()
    pause = POLL_FIRST
    while True:
        if await _moved(game_id, after):
            return True
        left = until - loop.time()
        if left <= 0:
            return False
        await asyncio.sleep(min(pause, left))
        pause = min(pause * 2, POLL_MOST)
