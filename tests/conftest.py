"""Shared pytest configuration and fixtures. pytest-django reads DJANGO_SETTINGS_MODULE
from pyproject.toml."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from accounts.models import User
    from games.engine import Rules
    from games.models import Game


def pytest_configure(config: pytest.Config) -> None:
    """Production settings leave SECRET_KEY empty unless it is set; tests sign
    sessions and links, so they get a key of their own."""
    from django.conf import settings

    settings.SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "test-only-secret-key"


@pytest.fixture
def make_user(db: None) -> Callable[[str], User]:
    """``make_user("ann")``: a user ann@example.com called Ann."""
    from accounts.models import User

    def make(name: str) -> User:
        return User.objects.create_user(
            username=name, email=f"{name}@example.com", display_name=name.title()
        )

    return make


@pytest.fixture
def started_game(make_user: Callable[[str], User]) -> Callable[..., Game]:
    """``started_game(players=2, rules=...)``: a game between Ann, Bob (, Cy, Di)
    whose seats are all taken, so it has started with a random deal."""
    from games.engine import PRESETS
    from games.services import create_game, join_game

    def make(players: int = 2, rules: Rules | None = None, **options: Any) -> Game:
        users = [make_user(n) for n in ("ann", "bob", "cy", "di")[:players]]
        game = create_game(
            users[0],
            seat_count=players,
            rules=rules or PRESETS["official"],
            invite_emails=[u.email for u in users[1:]],
            **options,
        )
        for user in users[1:]:
            join_game(game.pk, user)
        game.refresh_from_db()
        return game

    return make


def pytest_sessionstart(session: pytest.Session) -> None:
    """Tests talk to an in-memory broker unless a test asks for a real one: the
    outbox nudges after every commit."""
    from jumbulaya_site.celery import app

    app.conf.broker_url = "memory://"
    app.conf.broker_transport_options = {}
