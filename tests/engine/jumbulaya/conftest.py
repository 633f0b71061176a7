"""Fixtures for the rules-engine tests: word lists and hand-built positions.

Nothing here touches the database: the engine imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_helpers import make_state

from games.engine.jumbulaya import GameState, Lexicon, LexiconStore, lexicon_from_words

SMALL_WORDS = [
    "ACT", "CAT", "FACT", "FACTS", "AT", "TA", "OTHER", "OTHERS", "BATCH", "BATCHES",
    "BATS", "TABS", "STAB", "BEST", "BETS", "EQUAL", "EQUALLY", "SPRINTS", "SPRINT",
    "THE", "HE", "HER", "HERS", "ED", "RED", "REDS", "DOG", "GOD", "DOGS", "GODS",
    "QUIT", "QUITE", "CHAT", "CHATS", "THAT", "HATS", "HAT", "SHOT", "HOST", "HOSTS",
]  # fmt: skip


@pytest.fixture(scope="session")
def small_lex() -> Lexicon:
    return lexicon_from_words(SMALL_WORDS)


@pytest.fixture(scope="session")
def enable(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """The full ENABLE list, built once per test session (it takes seconds)."""
    return LexiconStore(tmp_path_factory.mktemp("wl")).load("default")


@pytest.fixture
def build() -> Callable[..., GameState]:
    """``build(lines, racks, rules=..., bag_front=..., first=...)`` -> a GameState."""
    return make_state
