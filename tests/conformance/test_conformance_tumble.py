"""Replays every Tumble-Words case in ``tumble/`` and compares the fields its
``expect`` names with the replay's output (an expected ``error`` on ``turn``
and ``code`` only).  The cases' expectations were worked out by hand from the
rule sheet and the spec's readings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.tumble import replay_json

CASES = sorted((Path(__file__).parent / "tumble").glob("*.json"))


def _no_installed_lists(name: str) -> frozenset[str]:
    raise LookupError(name)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text())
    expect = case["expect"]
    result = replay_json(json.dumps(case["record"]), _no_installed_lists)
    out = result.to_json()
    assert result.exit_code == expect["exit"], out["error"]
    for key, want in expect.items():
        if key == "exit":
            continue
        got = out[key]
        if key == "error" and want is not None:
            assert got is not None, "expected a refusal"
            got = {k: got[k] for k in want}
        assert got == want, f"{key}: {case['about']}"


def test_every_rule_has_a_case() -> None:
    assert len(CASES) >= 20
