"""Fixtures of the crossword kind's tests: a started game with the racks and
the bag's front chosen (the rest of the 100 tiles follow in face order), on
the shipped ENABLE list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from accounts.models import User
from games.models import Game
from tests.contract.play import started_between


@pytest.fixture
def xw_game(make_user: Callable[[str], User]) -> Callable[..., Game]:
    """``xw_game(racks, first=0, bag_front="", preset="standard", **options)``:
    a started crossword game between Ann, Bob (, Cy, Di) with those racks."""
    from games.core.projection import current_state, event_row
    from games.engine.crossword.deal import full_set
    from games.engine.crossword.events import GameStarted
    from games.engine.crossword.fold import start
    from games.engine.crossword.state import state_to_json
    from games.kinds import get
    from games.mail_out import outbox
    from games.models import Event, Notification

    kind = get("crossword")

    def make(
        racks: Sequence[str],
        first: int = 0,
        bag_front: str = "",
        preset: str = "standard",
        rules: Any = None,
        **options: Any,
    ) -> Game:
        game = started_between(
            make_user, kind.name, len(racks), rules or kind.presets[preset], **options
        )
        dealt = current_state(game)
        rest = Counter(full_set())
        rest.subtract("".join(racks) + bag_front)
        assert all(n >= 0 for n in rest.values()), "more of a tile than the set holds"
        old = Event.objects.get(game=game, seq=1)
        started = GameStarted(
            options=dealt.options,
            lexicon=old.payload["lexicon"],
            players=dealt.players,
            draws=(),
            first=first,
            racks=tuple(racks),
            bag=bag_front + "".join(rest.elements()),
            board=old.payload["board"],
        )
        row = event_row(game, started, 1, Event.Source.SYSTEM, None)
        Event.objects.filter(pk=old.pk).update(payload=row.payload, private=row.private)
        Game.objects.filter(pk=game.pk).update(state=state_to_json(start(started)), turn_seat=first)
        # The "your turn" email goes to the seat the rigged deal gives the first move.
        Notification.objects.filter(game=game, kind=Notification.Kind.YOUR_TURN).delete()
        outbox.owe(
            game, Notification.Kind.YOUR_TURN, users=[game.seats.get(index=first).user_id], seq=1
        )
        game.refresh_from_db()
        return game

    return make
