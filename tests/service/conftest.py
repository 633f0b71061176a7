"""Fixtures for the service tests: users and started games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games.engine import PRESETS, Rules
from games.models import Game
from games.services import create_game, join_game


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(name: str) -> User:
        return User.objects.create_user(
            username=name, email=f"{name}@example.com", display_name=name.title()
        )

    return make


@pytest.fixture
def started_game(make_user: Callable[..., User]) -> Callable[..., Game]:
    """``started_game(players=2, rules=...)``: a game whose seats are all taken."""

    def make(players: int = 2, rules: Rules = PRESETS["official"], **options: Any) -> Game:
        users = [make_user(n) for n in ("ann", "bob", "cy", "di")[:players]]
        game = create_game(
            users[0],
            seat_count=players,
            rules=rules,
            invite_emails=[u.email for u in users[1:]],
            **options,
        )
        for user in users[1:]:
            join_game(game.pk, user)
        game.refresh_from_db()
        return game

    return make
