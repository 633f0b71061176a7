"""Sweeps and moves racing for the same game, on real connections."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.core import timeouts
from games.core.door import submit
from games.core.projection import ServiceError
from games.models import Event, Game

pytestmark = pytest.mark.django_db(transaction=True)


def _race(*jobs: Callable[[], object]) -> list[object]:
    barrier = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(i: int, job: Callable[[], object]) -> None:
        try:
            barrier.wait()
            results[i] = job()
        except Exception as e:  # the outcome is what the test looks at
            results[i] = e
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def _overdue(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))


def test_two_sweeps_at_once_time_out_once(started_game: Callable[..., Game]) -> None:
    game = started_game(move_hours=24)
    _overdue(game)
    results = _race(timeouts.sweep_deadlines, timeouts.sweep_deadlines)
    assert sorted(results) == [0, 1], results  # type: ignore[type-var]
    assert Event.objects.filter(game=game, type="timed_out").count() == 1
    game.refresh_from_db()
    assert game.last_seq == 2


@pytest.mark.parametrize("attempt", range(3))
def test_a_move_racing_the_sweep_wins_or_is_refused(
    started_game: Callable[..., Game], attempt: int
) -> None:
    game = started_game(move_hours=24)
    seat = game.turn_seat
    assert seat is not None
    _overdue(game)
    swept, moved = _race(timeouts.sweep_deadlines, lambda: submit(game.pk, seat, "pass", 1, "web"))
    types = list(Event.objects.filter(game=game).order_by("seq").values_list("type", flat=True))
    assert len(types) == 2, types  # never both, never a double
    if types[1] == "passed":
        assert swept == 0
        assert not isinstance(moved, Exception)
    else:
        assert types[1] == "timed_out"
        assert swept == 1
        assert isinstance(moved, ServiceError)
