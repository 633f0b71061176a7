"""Migration 0008 arms the warnings of games already in play."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User

BEFORE = [("games", "0007_no_invitations")]
AFTER = [("games", "0008_game_warn_at")]


@pytest.mark.django_db(transaction=True)
def test_games_in_play_get_the_time_of_their_pending_warning() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    Game = executor.loader.project_state(BEFORE).apps.get_model("games", "Game")
    ann = User.objects.create_user(username="ann", email="ann@example.com")  # accounts as is
    due = datetime(2026, 3, 5, 9, tzinfo=UTC)
    common = {"created_by_id": ann.pk, "seat_count": 2, "rules": {}, "status": "playing"}
    pending = Game.objects.create(**common, move_hours=72, deadline_at=due)
    short = Game.objects.create(**common, move_hours=6, deadline_at=due)
    warned = Game.objects.create(**common, move_hours=72, deadline_at=due, warned_at=due)
    over = Game.objects.create(**{**common, "status": "over"}, move_hours=72)
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    Game = executor.loader.project_state(AFTER).apps.get_model("games", "Game")
    warn_at = dict(Game.objects.values_list("pk", "warn_at"))
    newest = MigrationExecutor(connection)  # back to the newest migrations, for the rest
    newest.migrate(newest.loader.graph.leaf_nodes())
    assert warn_at[pending.pk] == due - timedelta(hours=24)
    assert warn_at[short.pk] == due - timedelta(hours=2)
    assert warn_at[warned.pk] is None and warn_at[over.pk] is None
