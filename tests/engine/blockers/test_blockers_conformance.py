"""Replays every Blockers conformance case (``tests/conformance/blockers/*.json``)
and compares the fields its ``expect`` names with the replay output.

A case is ``{"name", "about", "record", "expect"}``; ``expect`` holds ``exit``
and any subset of the output; racks are compared as multisets, an expected
``error`` on ``turn`` and ``code`` only (messages are for people).  Each case
tests one rule, its expectations worked out by hand from the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.blockers import replay_json
from tests.conformance.cases_check import check_case

CASES = sorted((Path(__file__).parents[2] / "conformance" / "blockers").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    check_case(path, replay_json, multisets=("racks",))


def test_cases_exist() -> None:
    assert len(CASES) >= 25
