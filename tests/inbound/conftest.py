"""Fixtures of the reply-by-email tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.models import Game


@pytest.fixture
def two_player(started_game: Callable[..., Game]) -> Game:
    return started_game(players=2)
