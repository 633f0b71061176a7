"""Every conformance record replays through the registry of game kinds (as
``manage.py replay`` reads it, by its ``format``) exactly as through the engine."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games import kinds
from games.engine import Lexicon
from games.engine import jumbulaya as engine

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_the_kind_replays_the_case_as_the_engine_does(
    path: Path, default_lexicon_resolver: Callable[[str], Lexicon]
) -> None:
    text = json.dumps(json.loads(path.read_text())["record"])
    want = engine.replay_json(text, default_lexicon_resolver)
    got = kinds.replay_json(text, lambda kind: default_lexicon_resolver)  # JUMBULAYA's lists
    assert (got.exit_code, without_message(got.to_json())) == (
        want.exit_code,
        without_message(want.to_json()),
    )


def without_message(output: dict[str, Any]) -> dict[str, Any]:
    """The output with its error's message left out (the cases compare its turn
    and code: a record of no known format is told so in words that name every
    kind's format, not JUMBULAYA's alone)."""
    error = output.get("error")
    if isinstance(error, dict):
        return output | {"error": {k: v for k, v in error.items() if k != "message"}}
    return output
