"""The ENABLE DAWG with the bonus words, built once per test session."""

from __future__ import annotations

import pytest

from games.engine.crossword.dawg import Dawg, load_dawg
from games.engine.lexicon import DEFAULT_NAME, LexiconStore

#: A few of the rule sheet's bonus words (the rules engine owns the full table).
BONUS_SAMPLE = {"MARY": 5, "LAW": 5, "EVE": 5, "SAVED": 10, "ZION": 5, "KINGDOM": 15}


@pytest.fixture(scope="session")
def enable_dawg(tmp_path_factory: pytest.TempPathFactory) -> Dawg:
    return load_dawg(LexiconStore(tmp_path_factory.mktemp("xw")), DEFAULT_NAME, BONUS_SAMPLE)
