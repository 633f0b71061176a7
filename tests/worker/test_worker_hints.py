"""A seat's hints through a real worker on the embedded default's broker
(kombu's filesystem transport, polled once a second, as ``make run`` uses it
without Redis): the move that makes it Bob's turn rings the task after its
commit, and the worker stores his hints within seconds, once."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.core import door
from games.models import Event, Game, SeatHints

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.slow
def test_the_worker_stores_the_hints_of_the_seat_to_move_within_seconds(
    board_game: Callable[..., Game], kit: Any, tmp_path: Path
) -> None:
    game = board_game(hints=True)
    queue = tmp_path / "queue"
    queue.mkdir()
    options = {"data_folder_in": str(queue), "data_folder_out": str(queue)}
    with (
        kit.use_broker("filesystem://localhost/", broker_transport_options=options),
        kit.running_worker(),
    ):
        began = time.monotonic()
        door.submit(game.pk, 0, "1 STRANGE", game.last_seq, Event.Source.WEB)
        game.refresh_from_db()
        stored = SeatHints.objects.filter(game=game, seat=1, seq=game.last_seq)
        kit.wait_for(stored.exists, "the worker to store Bob's hints")
        took = time.monotonic() - began
    assert took < 5, f"{took:.1f} s"
    assert list(SeatHints.objects.filter(game=game).values_list("seat", "seq")) == [
        (1, game.last_seq)
    ]
