"""Every conformance record replays through the registry of game kinds (as
``manage.py replay`` reads it, by its ``format``) exactly as through the engine."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from games import engine, kinds
from games.engine import Lexicon

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_the_kind_replays_the_case_as_the_engine_does(
    path: Path, default_lexicon_resolver: Callable[[str], Lexicon]
) -> None:
    text = json.dumps(json.loads(path.read_text())["record"])
    want = engine.replay_json(text, default_lexicon_resolver)
    got = kinds.replay_json(text, lambda kind: default_lexicon_resolver)  # JUMBULAYA's lists
    assert (got.exit_code, got.to_json()) == (want.exit_code, want.to_json())
