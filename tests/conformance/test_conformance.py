"""Replays every case in ``cases/`` and compares the fields its ``expect`` names
with the output of ``manage.py replay`` (the same code, in-process).

A case is ``{"name", "about", "record", "expect"}``; ``expect`` holds ``exit``
and any subset of the replay output.  Racks are compared as multisets and an
expected ``error`` is compared on ``turn`` and ``code`` (messages are for
people).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.engine.jumbulaya import replay_json
from tests.conformance.cases_check import check_case

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path, default_lexicon_resolver: Any) -> None:
    check_case(path, lambda text: replay_json(text, default_lexicon_resolver), multisets=("racks",))


def test_cases_exist() -> None:
    assert len(CASES) >= 50
