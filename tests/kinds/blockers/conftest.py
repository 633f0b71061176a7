"""The ``blockers_game`` fixture: a started game of Blockers between Ann, Bob,
Cy (, Di, Ed), dealt at random, made through the service."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from accounts.models import User
from games.engine import blockers as engine
from games.kinds.blockers.kind import BLOCKERS
from games.models import Game
from tests.contract.play import started_between


@pytest.fixture
def blockers_game(make_user: Callable[[str], User]) -> Callable[..., Game]:
    """``blockers_game(players=3, **options)``: every seat taken by a person."""

    def make(players: int = 3, **options: Any) -> Game:
        return started_between(make_user, BLOCKERS.name, players, BLOCKERS.presets["standard"],
                               **options)  # fmt: skip

    return make


def pile(*front: str) -> tuple[str, ...]:
    """A colour's 28 tiles in draw order: ``front`` first (the first five are
    the starting rack), then the rest in the canonical order."""
    return (*front, *(t for t in engine.TILE_SET if t not in front))


@pytest.fixture
def rigged_blockers(blockers_game: Callable[..., Game]) -> Callable[..., Game]:
    """``rigged_blockers(piles, first=0, **options)``: a started game whose deal
    is the one given (each seat's whole pile, rack first); the first event and
    the cached state are rewritten before any move is made."""
    from games.core.projection import current_state, event_row
    from games.models import Event

    def make(piles: Sequence[Sequence[str]], first: int = 0, **options: Any) -> Game:
        game = blockers_game(players=len(piles), **options)
        dealt = current_state(game)
        started = engine.GameStarted(
            options=dealt.options,
            players=dealt.players,
            first=first,
            racks=tuple(tuple(p[: engine.RACK_SIZE]) for p in piles),
            piles=tuple(tuple(p[engine.RACK_SIZE :]) for p in piles),
        )
        old = Event.objects.get(game=game, seq=1)
        row = event_row(game, started, 1, Event.Source.SYSTEM, None)
        Event.objects.filter(pk=old.pk).update(payload=row.payload, private=row.private)
        state = engine.state_to_json(engine.start(started))
        Game.objects.filter(pk=game.pk).update(state=state, turn_seat=first)
        game.refresh_from_db()
        return game

    return make


@pytest.fixture
def after_ann_s_1(rigged_blockers: Callable[..., Game]) -> Game:
    """A game with hints whose deal gives Ann 1 to 5, Bob A to E and Cy 6 to 9
    and F, after Ann's 1 at A1: a lone tile Bob's A may take; Bob to move."""
    from games.core import door
    from games.models import Event

    piles = [pile("1", "2", "3", "4", "5"), pile("A", "B", "C", "D", "E"),
             pile("6", "7", "8", "9", "F")]  # fmt: skip
    game = rigged_blockers(piles, hints=True)
    door.submit(game.pk, 0, "1 at A1", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    return game
