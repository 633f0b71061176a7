"""Fixtures for the Tumble-Words engine tests: the ENABLE word list."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

ENABLE_PATH = Path(__file__).resolve().parents[3] / "games" / "engine" / "data" / "enable1.txt.gz"


@pytest.fixture(scope="session")
def enable() -> frozenset[str]:
    """The ENABLE list, upper case."""
    with gzip.open(ENABLE_PATH, "rt") as f:
        return frozenset(line.strip().upper() for line in f if line.strip())
