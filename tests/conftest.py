"""Shared pytest configuration. pytest-django reads DJANGO_SETTINGS_MODULE from pyproject.toml."""

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _test_secret_key(settings: Any) -> None:
    """Production settings leave SECRET_KEY empty unless it is set; tests sign
    sessions and links, so they get a key of their own."""
    settings.SECRET_KEY = settings.SECRET_KEY or "test-only-secret-key"
