"""The contract suite's fixtures: ``kind``, every registered kind and the
example kind high card (tests/kinds/highcard/), so a kind registered in
:mod:`games.kinds` is tested here with no edit; and ``contract_game``, a
started game of it between people, robots or both."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from accounts.models import User
from games import kinds
from games.kinds.base import GameKind
from games.models import Game
from tests.kinds.highcard.conftest import highcard
from tests.kinds.highcard.kind import HIGH_CARD

from .play import started_between

__all__ = ["contract_game", "highcard", "kind"]

#: Every kind the contract runs over: the registered ones, then high card.
KIND_NAMES = [*(k.name for k in kinds.all()), HIGH_CARD.name]
#: The kinds whose every test here takes over a second (Tumble-Words: a move
#: is found by searching the roll's crosswords), left out of the fast tier.
SLOW_KINDS = {"tumble"}


@pytest.fixture(
    params=[
        pytest.param(name, marks=[pytest.mark.slow] if name in SLOW_KINDS else [])
        for name in KIND_NAMES
    ]
)
def kind(request: pytest.FixtureRequest) -> GameKind:
    """One kind of :data:`KIND_NAMES` (high card registered for the test)."""
    if request.param == HIGH_CARD.name:
        found: GameKind = request.getfixturevalue("highcard")
        return found
    return kinds.get(request.param)


@pytest.fixture
def contract_game(kind: GameKind, make_user: Callable[[str], User]) -> Callable[..., Game]:
    """``contract_game(players=None, robots=(), **options)``: a started game of
    ``kind`` from its first preset, its creator Ann in seat 0, people (Bob,
    Cy…) in the seats the robots of ``robots`` (rungs of the ladder) leave;
    ``players`` is the kind's fewest unless given."""

    def make(players: int | None = None, robots: Sequence[str] = (), **options: Any) -> Game:
        rules = next(iter(kind.presets.values()))
        seats = players or kind.min_players
        game = started_between(make_user, kind.name, seats, rules, robots, **options)
        assert game.status == Game.Status.PLAYING
        return game

    return make
