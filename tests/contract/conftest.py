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

__all__ = ["contract_game", "highcard", "kind"]

#: Every kind the contract runs over: the registered ones, then high card.
KIND_NAMES = [*(k.name for k in kinds.all()), HIGH_CARD.name]
#: The kinds whose every test here takes over a second (Tumble-Words: a move
#: is found by searching the roll's crosswords), left out of the fast tier.
SLOW_KINDS = {"tumble"}
NAMES = ("ann", "bob", "cy", "di", "ed")


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
    from games.core.lobby import create_game, join_game

    def make(players: int | None = None, robots: Sequence[str] = (), **options: Any) -> Game:
        seats = players or kind.min_players
        people = [make_user(n) for n in NAMES[: seats - len(robots)]]
        game = create_game(
            people[0],
            kind=kind.name,
            seat_count=seats,
            rules=next(iter(kind.presets.values())),
            invite_emails=[u.email for u in people[1:]],
            robots=robots,
            **options,
        )
        for user in people[1:]:
            join_game(game.pk, user)
        game.refresh_from_db()
        assert game.status == Game.Status.PLAYING
        return game

    return make
