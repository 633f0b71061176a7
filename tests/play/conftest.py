"""Fixtures for the game page tests: signed-in clients and a reader of tile
markup (``make_user``, ``started_game`` and ``rigged_game`` come from
tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from tests.markup import Scan, scan_html


@pytest.fixture
def client_for() -> Callable[[User], Client]:
    """A test client signed in as ``user``."""

    def make(user: User) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def seat_client(client_for: Callable[[User], Client]) -> Callable[[Game, int], Client]:
    """A client signed in as the player in ``seat`` of ``game``."""

    def make(game: Game, seat: int) -> Client:
        user = game.seats.get(index=seat).user
        assert user is not None
        return client_for(user)

    return make


@pytest.fixture
def scan() -> Callable[[str], Scan]:
    return scan_html
