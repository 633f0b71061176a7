"""The ``highcard`` fixture: high card registered as a game kind for one test
(its kind, its presentation and its templates), and taken away after it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from games.kinds.base import GameKind
from games.models import Game

TEMPLATES = Path(__file__).resolve().parent / "templates"


@pytest.fixture
def highcard(settings: Any) -> Iterator[GameKind]:
    """High card, registered beside JUMBULAYA for the test."""
    from games import kinds
    from games.kinds import presentation

    from .kind import HIGH_CARD
    from .presentation import HIGH_CARD_PRESENTATION

    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [*templates[0]["DIRS"], TEMPLATES]
    settings.TEMPLATES = templates  # resets the template engines (setting_changed)
    kinds._KINDS[HIGH_CARD.name] = HIGH_CARD
    presentation._PRESENTATIONS[HIGH_CARD.name] = HIGH_CARD_PRESENTATION
    try:
        yield HIGH_CARD
    finally:
        del kinds._KINDS[HIGH_CARD.name]
        del presentation._PRESENTATIONS[HIGH_CARD.name]


@pytest.fixture
def highcard_without_robots(highcard: GameKind) -> Iterator[GameKind]:
    """High card registered without its robots (so without hints or analyses):
    the service's paths for a kind that has none."""
    from games import kinds

    bare = copy.copy(highcard)
    bare.robots = None
    kinds._KINDS[bare.name] = bare
    try:
        yield bare
    finally:
        kinds._KINDS[bare.name] = highcard


@pytest.fixture
def card_game(highcard: GameKind, make_user: Callable[[str], User]) -> Callable[..., Game]:
    """``card_game(players=2, **options)``: a started game of high card between
    Ann, Bob (, Cy, Di), dealt at random."""
    from tests.contract.play import started_between

    def make(players: int = 2, preset: str = "standard", **options: Any) -> Game:
        return started_between(
            make_user, highcard.name, players, highcard.presets[preset], **options
        )

    return make
