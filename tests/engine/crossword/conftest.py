"""The ENABLE DAWG with the rule sheet's bonus words, built once per test session."""

from __future__ import annotations

import pytest

from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.dawg import Dawg, load_dawg
from games.engine.lexicon import DEFAULT_NAME, LexiconStore


@pytest.fixture(scope="session")
def enable_dawg(tmp_path_factory: pytest.TempPathFactory) -> Dawg:
    return load_dawg(LexiconStore(tmp_path_factory.mktemp("xw")), DEFAULT_NAME, BONUS_WORDS)
