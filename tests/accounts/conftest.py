"""Fixtures for the accounts tests: users, and a clean cache (the mail limit
lives there) for every test."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from django.core.cache import cache
from django.core.mail import EmailMessage

from accounts.models import User


@pytest.fixture(autouse=True)
def clear_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


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
