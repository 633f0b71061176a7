"""A timeout is the deadline sweep's move: no other source may send one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.core.door import submit
from games.core.projection import ServiceError
from games.models import Event, Game


def test_only_the_deadline_may_time_a_player_out(started_game: Callable[..., Game]) -> None:
    game = started_game()
    seat = game.turn_seat
    for source in ("web", "email", "link", "api", "robot"):
        with pytest.raises(ServiceError, match="deadline"):
            submit(game.pk, seat, "timeout", 1, source)
    done = submit(game.pk, seat, "timeout", 1, Event.Source.DEADLINE)
    assert done.events[0].type == "timed_out"
