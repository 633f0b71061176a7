"""The shortest time per move: an hour unless the operator chooses less
(``JUMBULAYA_MIN_MOVE_MINUTES``), held by the create form and the service; the database
holds every game to a minute at least and two weeks at most (issue 21, point 4)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from accounts.models import User
from games.core import lobby, projection
from games.engine.jumbulaya import PRESETS
from games.models import Game
from games.timing import deadlines
from tests.service.test_lobby_create import form_data

CREATE = "/games/new/"


@pytest.fixture
def ann_client(make_user: Callable[[str], User]) -> Client:
    client = Client()
    client.force_login(make_user("ann"))
    return client


@pytest.mark.django_db
def test_an_hour_is_the_shortest_by_default(make_user: Callable[[str], User]) -> None:
    ann = make_user("ann")
    with pytest.raises(projection.ServiceError, match="The time per move is 1 to 336 hours"):
        lobby.create_game(ann, seat_count=2, rules=PRESETS["official"], move_minutes=59)
    game = lobby.create_game(ann, seat_count=2, rules=PRESETS["official"], move_hours=1)
    assert (game.move_minutes, game.move_hours, game.move_time) == (60, 1, "1 hour")


@pytest.mark.django_db
def test_an_operator_may_allow_shorter_games(
    make_user: Callable[[str], User], settings: Any
) -> None:
    settings.JUMBULAYA_MIN_MOVE_MINUTES = 15
    ann = make_user("ann")
    game = lobby.create_game(ann, seat_count=2, rules=PRESETS["official"], move_minutes=15)
    game.refresh_from_db()
    assert (game.move_minutes, game.move_hours, game.move_time) == (15, 0.25, "15 minutes")
    with pytest.raises(projection.ServiceError, match="is 15 minutes to 336 hours"):
        lobby.create_game(ann, seat_count=2, rules=PRESETS["official"], move_minutes=14)
    with pytest.raises(projection.ServiceError, match="is 15 minutes to 336 hours"):
        lobby.create_game(ann, seat_count=2, rules=PRESETS["official"], move_hours=337)
    # A deadline 15 minutes of counting time away, warned a third of it before.
    now = datetime(2026, 3, 4, 9, tzinfo=UTC)
    due = deadlines.deadline_after(game, 0, now)
    assert due == now + timedelta(minutes=15)
    assert deadlines.deadline_fields(game, due)["warn_at"] == due - timedelta(minutes=5)


@pytest.mark.slow
@pytest.mark.django_db
def test_the_create_form_holds_to_the_operators_minimum(ann_client: Client, settings: Any) -> None:
    page = ann_client.get(CREATE).content.decode()
    assert 'name="move_hours" value="72"' in page and 'min="1"' in page
    refused = ann_client.post(CREATE, form_data(move_hours="0.5"))
    assert refused.status_code == 400 and "Enter a whole number" in refused.content.decode()

    settings.JUMBULAYA_MIN_MOVE_MINUTES = 10
    page = ann_client.get(CREATE).content.decode()
    assert 'min="0.17"' in page and "0.17 (10 minutes) to 336 (two weeks)" in page
    refused = ann_client.post(CREATE, form_data(move_hours="0.1"))
    assert "greater than or equal to 0.17" in refused.content.decode()
    assert not Game.objects.exists()
    made = ann_client.post(CREATE, form_data(move_hours="0.25"))
    assert made.status_code == 302, made.content.decode()[:2000]
    assert Game.objects.get().move_minutes == 15

    settings.JUMBULAYA_MIN_MOVE_MINUTES = 120  # an operator may ask for more, too
    refused = ann_client.post(CREATE, form_data(move_hours="1"))
    assert "greater than or equal to 2" in refused.content.decode()
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_the_database_holds_every_game_to_a_minute_and_two_weeks(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    for minutes in (0, 14 * 24 * 60 + 1):
        with pytest.raises(IntegrityError), transaction.atomic():
            Game.objects.filter(pk=game.pk).update(move_minutes=minutes)
    Game.objects.filter(pk=game.pk).update(move_minutes=1)  # the operator's choice


BEFORE = [("games", "0012_hints_and_analysis")]
AFTER = [("games", "0013_move_minutes")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_each_games_time_and_back() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    Old = executor.loader.project_state(BEFORE).apps.get_model("games", "Game")
    ann = User.objects.create_user(username="ann", email="ann@example.com")
    common = {"created_by_id": ann.pk, "seat_count": 2, "rules": {}}
    ids = [Old.objects.create(**common, move_hours=hours).pk for hours in (1, 6, 72, 336)]
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    New = executor.loader.project_state(AFTER).apps.get_model("games", "Game")
    minutes = dict(New.objects.values_list("pk", "move_minutes"))
    New.objects.filter(pk=ids[0]).update(move_minutes=15)  # a game shorter than an hour
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)  # and back: whole hours, rounded up
    hours = dict(Old.objects.values_list("pk", "move_hours"))
    newest = MigrationExecutor(connection)  # back to the newest migrations, for the rest
    newest.migrate(newest.loader.graph.leaf_nodes())
    assert [minutes[pk] for pk in ids] == [60, 360, 4320, 20160]
    assert [hours[pk] for pk in ids] == [1, 6, 72, 336]
