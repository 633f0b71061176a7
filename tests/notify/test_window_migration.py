"""Migration 0023 names a game's off-turn window in the core's words and renames
the stored kinds of the two emails it owes, both ways, keeping every row."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User

BEFORE = [("games", "0022_notification_taken_at")]
AFTER = [("games", "0023_off_turn_window")]
CLOSES = datetime(2026, 1, 2, 12, tzinfo=UTC)


def migrate(to: list[tuple[str, str]]) -> tuple[type, type]:
    executor = MigrationExecutor(connection)
    executor.migrate(to)
    apps = executor.loader.project_state(to).apps
    return apps.get_model("games", "Game"), apps.get_model("games", "Notification")


@pytest.mark.django_db(transaction=True)
def test_the_window_and_its_emails_are_renamed_both_ways() -> None:
    Game, Notification = migrate(BEFORE)
    ann = User.objects.create_user(username="ann", email="ann@example.com")
    common = {"created_by_id": ann.pk, "seat_count": 2, "rules": {}}
    on = Game.objects.create(**common, claim_window=True, claims_close_at=CLOSES)
    off = Game.objects.create(**common, claim_window=False)
    for kind in ("claims_open", "claims_closed", "your_turn"):
        Notification.objects.create(kind=kind, user_id=ann.pk, game_id=on.pk)
    try:
        Game, Notification = migrate(AFTER)
        games = {g.pk: (g.window_on, g.window_closes_at) for g in Game.objects.all()}
        after = sorted(Notification.objects.values_list("kind", flat=True))
        Game, Notification = migrate(BEFORE)
        back = sorted(Notification.objects.values_list("kind", flat=True))
    finally:
        newest = MigrationExecutor(connection)  # back to the newest migrations, for the rest
        newest.migrate(newest.loader.graph.leaf_nodes())
    assert games == {on.pk: (True, CLOSES), off.pk: (False, None)}
    assert after == ["window_closed", "window_open", "your_turn"]
    assert back == ["claims_closed", "claims_open", "your_turn"]
