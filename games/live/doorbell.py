"""The doorbell a game rings when its log grows or its status changes.

On PostgreSQL it is ``NOTIFY``: sent in the transaction that wrote the change, so it
reaches the listeners (:mod:`games.live.listener`) when that transaction commits, and
never for one that rolls back.  On SQLite (the embedded default, one machine) there
is no bell: waiters look at the game again now and then (:mod:`games.live.waits`).
"""

from __future__ import annotations

from django.db import connection

#: The PostgreSQL channel every game rings on; the payload is ``"<game id>:<seq>"``.
CHANNEL = "jumbulaya_games"


def rings() -> bool:
    """Whether this database has a bell (PostgreSQL's ``LISTEN``/``NOTIFY``)."""
    return connection.vendor == "postgresql"


def ring(game_id: int, seq: int) -> None:
    """Say, once the current transaction commits, that game ``game_id`` is at ``seq``."""
    if rings():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game_id}:{seq}"])
