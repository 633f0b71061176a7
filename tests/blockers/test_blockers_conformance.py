"""Replays every Blockers conformance case (``tests/conformance/blockers/*.json``)
and compares the fields its ``expect`` names with the replay output.

A case is ``{"name", "about", "record", "expect"}``; ``expect`` holds ``exit``
and any subset of the output; racks are compared as multisets, an expected
``error`` on ``turn`` and ``code`` only (messages are for people).  Each case
tests one rule, its expectations worked out by hand from the rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.blockers import replay_json

CASES = sorted((Path(__file__).parents[1] / "conformance" / "blockers").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = json.loads(path.read_text())
    expect = case["expect"]
    result = replay_json(json.dumps(case["record"]))
    out = result.to_json()
    assert result.exit_code == expect["exit"], out["error"]
    for key, want in expect.items():
        if key == "exit":
            continue
        got = out[key]
        if key == "racks" and want is not None:
            got = [sorted(r) for r in got]
            want = [sorted(r) for r in want]
        if key == "error" and want is not None:
            assert got is not None, "expected a refusal"
            got = {k: got[k] for k in want}
        assert got == want, f"{key}: {case['about']}"


def test_cases_exist() -> None:
    assert len(CASES) >= 25
