"""Fixtures for the API tests: tokens, and a client that sends one."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from accounts import access_tokens
from accounts.models import User

API = "/api/v1"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def json(self) -> Any:
        return json.loads(self.text)


class ApiClient:
    """Django's test client speaking to the API with one token."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.token = token

    def _headers(self, headers: dict[str, str] | None) -> dict[str, str]:
        out = dict(headers or {})
        if self.token is not None:
            out.setdefault("Authorization", f"Bearer {self.token}")
        return out

    def _answer(self, response: Any) -> Answer:
        return Answer(response.status_code, dict(response.headers), response.content.decode())

    def get(self, path: str, headers: dict[str, str] | None = None, **query: Any) -> Answer:
        return self._answer(self.client.get(f"{API}{path}", query, headers=self._headers(headers)))

    def delete(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._answer(self.client.delete(f"{API}{path}", headers=self._headers(headers)))

    def post(
        self, path: str, body: Any = None, headers: dict[str, str] | None = None, raw: bytes = b""
    ) -> Answer:
        data = raw if raw else json.dumps({} if body is None else body)
        return self._answer(
            self.client.post(
                f"{API}{path}",
                data,
                content_type="application/json",
                headers=self._headers(headers),
            )
        )


@pytest.fixture
def token_for() -> Callable[[User], str]:
    def make(user: User, name: str = "test") -> str:
        return access_tokens.make(user, name).token

    return make


@pytest.fixture
def api_for(token_for: Callable[[User], str]) -> Callable[[User], ApiClient]:
    """``api_for(user)``: a client with a new token of ``user``'s."""

    def make(user: User) -> ApiClient:
        return ApiClient(token_for(user))

    return make


@pytest.fixture
def seat_api(api_for: Callable[[User], ApiClient]) -> Callable[..., ApiClient]:
    """``seat_api(game, seat)``: a client for the player in ``seat``."""

    def make(game: Any, seat: int) -> ApiClient:
        user = game.seats.get(index=seat).user
        assert user is not None
        return api_for(user)

    return make
