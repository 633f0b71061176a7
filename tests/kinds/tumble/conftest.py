"""The ``tumble_game`` fixture: a started game of Tumble-Words between Ann,
Bob (, Cy…), made through the service on the shipped word list, its first
rolls the ones given (the first event and the cached state are rewritten
before any move is made)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from accounts.models import User
from games.models import Game
from tests.contract.play import started_between

#: Cube by cube: red A E C D A P T, black O B R, green X E H.
ROLL = "AECDAPTOBRXEH"
#: CAPED across and CAT down from its C, all red: 10 + 6, seven cubes laid, -6: 10.
ANN_CROSSWORD = ("CAPED", "A....", "T....")
ANN_POINTS = 10
#: HERB across: green H and E, black R and B, mixed: 4, four cubes laid, -9: -5.
BOB_CROSSWORD = ("HERB",)
BOB_POINTS = -5


def rows(crossword: Sequence[str]) -> str:
    """A crossword as typed in a form or a reply: one row a line."""
    return "\n".join(crossword)


@pytest.fixture
def tumble_game(make_user: Callable[[str], User]) -> Callable[..., Game]:
    """``tumble_game(players=2, rolls=None, first=0, preset="standard", **options)``:
    every seat taken by a person; ``rolls`` the first round's (both players'
    with two, the first player's with more), :data:`ROLL` each by default."""
    from games.core.projection import current_state, event_row
    from games.engine import tumble as engine
    from games.kinds.tumble.kind import TUMBLE
    from games.models import Event

    def make(
        players: int = 2,
        rolls: Sequence[str] | None = None,
        first: int = 0,
        preset: str = "standard",
        **options: Any,
    ) -> Game:
        game = started_between(make_user, TUMBLE.name, players, TUMBLE.presets[preset], **options)
        dealt = current_state(game)
        count = 2 if players == 2 else 1
        rolloff = (
            () if players == 2 else ("".join("A" if s == first else "B" for s in range(players)),)
        )
        started = engine.GameStarted(
            dealt.options, dealt.players, rolloff, first, tuple(rolls or (ROLL,) * count)
        )
        old = Event.objects.get(game=game, seq=1)
        row = event_row(game, started, 1, Event.Source.SYSTEM, None)
        Event.objects.filter(pk=old.pk).update(payload=row.payload, private=row.private)
        Game.objects.filter(pk=game.pk).update(
            state=engine.state_to_json(engine.start(started)), turn_seat=first
        )
        game.refresh_from_db()
        return game

    return make
