"""Replays every case in ``tests/conformance/crossword/`` and compares the
fields its ``expect`` names with the replay's output (``exit`` is the exit
code; an expected ``error`` is compared on ``turn`` and ``code``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine.crossword.record import replay_json
from tests.conformance.cases_check import check_case

CASES = sorted((Path(__file__).parents[2] / "conformance" / "crossword").glob("*.json"))


def _no_installed_lists(name: str) -> frozenset[str]:
    raise LookupError(name)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    check_case(path, lambda text: replay_json(text, _no_installed_lists))


def test_the_set_covers_each_rule() -> None:
    names = {p.stem for p in CASES}
    for part in (
        "bonus-five",
        "bonus-ten",
        "bonus-fifteen",
        "double-letter",
        "triple-letter",
        "triple-word",
        "centre-star",
        "withdraws",
        "fails",
        "sharing",
        "translating",
        "last-play-accepted",
        "last-play-withdrawn",
        "last-play-wrong-challenge",
        "last-play-timeout",
    ):
        assert any(part in n for n in names), part
