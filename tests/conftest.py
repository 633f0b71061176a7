"""Shared pytest configuration. pytest-django reads DJANGO_SETTINGS_MODULE from pyproject.toml."""

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Production settings leave SECRET_KEY empty unless it is set; tests sign
    sessions and links, so they get a key of their own."""
    from django.conf import settings

    settings.SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or "test-only-secret-key"
