"""Fixtures for the accounts tests: users, the links in their mail, and a
Redis that is away."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
import redis
from django.core.cache import caches
from django.core.mail import EmailMessage
from django.test import override_settings

from accounts.models import User


@pytest.fixture
def account(db: None) -> Callable[..., User]:
    """``account("ann")``: a user ann@example.com called Ann."""

    def make(name: str, **fields: object) -> User:
        fields.setdefault("email", f"{name}@example.com")
        fields.setdefault("display_name", name.title())
        return User.objects.create_user(username=name, **fields)  # type: ignore[arg-type]

    return make


@pytest.fixture
def link_in() -> Callable[[EmailMessage], str]:
    """``link_in(message)``: the first site link in a mail's text, as a path
    the test client can follow."""
    from django.conf import settings

    def find(message: EmailMessage) -> str:
        pattern = re.escape(settings.JUMBULAYA_SITE_URL) + r"(/\S*)"
        urls = re.findall(pattern, str(message.body))
        assert urls, message.body
        return urls[0]

    return find


#: A Redis nobody listens to (the discard port is closed here).
AWAY = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


@pytest.fixture
def redis_away() -> Iterator[None]:
    with override_settings(CACHES=AWAY):
        with pytest.raises(redis.exceptions.ConnectionError):  # the cache really is away
            caches["default"].get("probe")
        yield
