from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from games.engine import Lexicon, LexiconStore


@pytest.fixture(scope="session")
def default_lexicon_resolver(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Lexicon]:
    store = LexiconStore(Path(tmp_path_factory.mktemp("wordlists")))
    return store.load
