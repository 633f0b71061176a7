"""Migration 0010 gives every game made before kinds existed its kind: JUMBULAYA."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts.models import User
from games.models import Game

BEFORE = [("games", "0009_claim_outcome")]
AFTER = [("games", "0010_game_kind")]


@pytest.mark.django_db(transaction=True)
def test_existing_games_become_jumbulaya_games() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    Old = executor.loader.project_state(BEFORE).apps.get_model("games", "Game")
    ann = User.objects.create_user(username="ann", email="ann@example.com")
    common = {"created_by_id": ann.pk, "seat_count": 2, "rules": {}, "move_hours": 72}
    games = [Old.objects.create(**common, status=status) for status in ("open", "playing", "over")]
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    New = executor.loader.project_state(AFTER).apps.get_model("games", "Game")
    got = dict(New.objects.values_list("pk", "kind"))
    newest = MigrationExecutor(connection)  # back to the newest migrations, for the rest
    newest.migrate(newest.loader.graph.leaf_nodes())
    assert got == {game.pk: "jumbulaya" for game in games}


def test_a_game_kind_is_one_of_the_registered_kinds() -> None:
    field = Game._meta.get_field("kind")
    assert field.choices == [
        ("jumbulaya", "JUMBULAYA"),
        ("crossword", "Crossword — Bible edition"),
        ("blockers", "Blockers"),
        ("tumble", "Tumble-Words"),
    ]
    with pytest.raises(ValidationError, match="not a valid choice"):
        field.clean("chess", Game(kind="chess"))
