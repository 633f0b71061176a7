"""The API's long poll (``GET /games/<id>/events?after=S&wait=W``): it answers when the
game moves, woken by the game's doorbell (PostgreSQL's NOTIFY; SQLite: it looks again
now and then), gives up after its wait, never waits when the client is behind, and an
account holds only so many waits at once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections

from accounts.models import User
from games.core.door import submit
from games.live import holds, waits
from games.models import Game
from tests.api.conftest import ApiClient


@pytest.mark.django_db(transaction=True)
def test_the_long_poll_answers_as_soon_as_the_game_moves(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    waiting = seat_api(game, 1 - game.turn_seat)

    # The other player passes while the request waits (its wait is 20 s: an answer
    # that comes with the pass came because the game moved, not because time ran out).
    def other_player_passes() -> None:
        try:
            submit(game.pk, game.turn_seat, "pass", 1, "web", "a-pass")
        finally:
            connections.close_all()  # this thread's own connection

    mover = threading.Timer(0.5, other_player_passes)
    mover.start()
    try:
        log = waiting.get(f"/games/{game.pk}/events", after=1, wait=20).json
    finally:
        mover.join()
    assert log["seq"] == 2 and [e["type"] for e in log["events"]] == ["passed"]
    assert log["turn"] == 1 - game.turn_seat


def test_the_long_poll_gives_up_after_its_wait_with_no_events(
    started_game: Callable[..., Game],
    seat_api: Callable[..., ApiClient],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    settings.JUMBULAYA_API_MAX_WAIT_SECONDS = 1
    game = started_game()
    asked: list[float] = []
    real = waits.wait_past

    async def wait_past(game_id: int, after: int, seconds: float) -> bool:
        asked.append(seconds)
        return await real(game_id, after, seconds)

    monkeypatch.setattr(waits, "wait_past", wait_past)
    log = seat_api(game, 0).get(f"/games/{game.pk}/events", after=1, wait=3600).json
    assert asked == [1.0]  # capped at the setting
    assert log["events"] == [] and log["log"] == [] and log["seq"] == 1


def test_the_long_poll_answers_at_once_when_the_client_is_behind(
    started_game: Callable[..., Game],
    seat_api: Callable[..., ApiClient],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = started_game()

    async def wait_past(*args: Any) -> bool:
        pytest.fail("it waited")

    monkeypatch.setattr(waits, "wait_past", wait_past)
    log = seat_api(game, 0).get(f"/games/{game.pk}/events", after=0, wait=20).json
    assert [e["type"] for e in log["events"]] == ["game_started"]
    deal = log["events"][0]["payload"]
    assert "racks" not in deal and "bag" not in deal


def test_an_account_holds_only_so_many_waits_at_once(
    started_game: Callable[..., Game],
    seat_api: Callable[..., ApiClient],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    settings.JUMBULAYA_WAITS_PER_ACCOUNT = 2
    game = started_game()
    ann = game.seats.get(index=0).user
    assert ann is not None
    held = [holds.take(ann.pk, 20), holds.take(ann.pk, 20)]  # two waits elsewhere
    assert None not in held

    async def wait_past(*args: Any) -> bool:
        pytest.fail("it waited past the cap")

    monkeypatch.setattr(waits, "wait_past", wait_past)
    refused = seat_api(game, 0).get(f"/games/{game.pk}/events", after=1, wait=20)
    assert refused.status == 429 and refused.json["code"] == "too_many_waits"
    assert refused.headers["Retry-After"] == "20"
    # A look without a wait is not a wait; another account's waits are its own.
    assert seat_api(game, 0).get(f"/games/{game.pk}/events", after=1).status == 200
    monkeypatch.undo()
    settings.JUMBULAYA_WAITS_PER_ACCOUNT = 2
    settings.JUMBULAYA_API_MAX_WAIT_SECONDS = 1
    assert seat_api(game, 1).get(f"/games/{game.pk}/events", after=1, wait=1).status == 200
    holds.give_back(held[0])
    again = seat_api(game, 0).get(f"/games/{game.pk}/events", after=1, wait=1)
    assert again.status == 200 and again.json["seq"] == 1
    holds.give_back(held[1])


def test_a_finished_wait_gives_its_slot_back(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient], settings: Any
) -> None:
    settings.JUMBULAYA_WAITS_PER_ACCOUNT = 1
    settings.JUMBULAYA_API_MAX_WAIT_SECONDS = 1
    game = started_game()
    for _ in range(2):  # the second would be refused if the first kept its slot
        assert seat_api(game, 0).get(f"/games/{game.pk}/events", after=1, wait=0.2).status == 200
    ann: User | None = game.seats.get(index=0).user
    assert ann is not None
    slot = holds.take(ann.pk, 1)
    assert slot is not None
    holds.give_back(slot)
