"""Replays every case in ``cases/`` and compares the fields its ``expect`` names
with the output of ``manage.py replay`` (the same code, in-process).

A case is ``{"name", "about", "record", "expect"}``; ``expect`` holds ``exit``
and any subset of the replay output.  Racks are compared as multisets and an
expected ``error`` is compared on ``turn`` and ``code`` (messages are for
people).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import replay_json

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


def _no_installed_lists(name: str) -> Any:
    raise LookupError(name)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path, default_lexicon_resolver: Any) -> None:
    case = json.loads(path.read_text())
    expect = case["expect"]
    result = replay_json(json.dumps(case["record"]), default_lexicon_resolver)
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
    assert len(CASES) >= 50
