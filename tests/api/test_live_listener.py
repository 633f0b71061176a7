"""The listening connection behind the waits (games/live/listener.py), on PostgreSQL:
a wait is woken by the move's NOTIFY, and when the listening connection is cut (the
database restarted, the network dropped) it comes back by itself and wakes its waits,
so a move made after the cut still wakes them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest
from django.db import connection

from games.core.door import submit
from games.live import waits
from games.live.listener import Listener
from games.models import Game
from tests.threads import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


def terminate_listeners() -> int:
    """End every other session that LISTENs (as a restart of the database would)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND query LIKE 'LISTEN %%'"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def test_a_cut_listening_connection_comes_back_and_still_wakes_its_waits(
    started_game: Callable[..., Game], caplog: pytest.LogCaptureFixture
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's (DATABASE_URL=postgres://...)")
    game = started_game()
    mover = game.turn_seat

    async def scenario() -> tuple[bool, int]:
        listener = Listener.of_this_loop()
        waiting = asyncio.create_task(waits.wait_past(game.pk, 1, 30))
        while listener.waits == 0 or not await listener.ready(5):
            await asyncio.sleep(0.05)
        cut = await asyncio.to_thread(terminate_listeners)
        await asyncio.sleep(0.5)  # the listener notices, pauses, connects again
        assert await listener.ready(10), "the listening connection did not come back"
        await asyncio.to_thread(
            in_thread, lambda: submit(game.pk, mover, "pass", 1, "web", "after-the-cut")
        )
        return await asyncio.wait_for(waiting, 30), cut

    with caplog.at_level(logging.WARNING, logger="games.live.listener"):
        woken, cut = asyncio.run(scenario())
    assert cut == 1
    assert woken is True
    said = [r.getMessage() for r in caplog.records]
    assert any("failed" in m for m in said) and any("listening again" in m for m in said)
