"""Tumble-Words' analysis sets each round against the crossword a hint offers
for the same roll: the strongest search, for its full time, whatever budget
the analysis is given (cut to the analysis' 20 ms it once found a 5-point
crossword where the hint had found 35).  The search's clock is a fake one that
ticks a millisecond at every look, so how far a search gets in its time is
the same in every run and on every machine."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import SimpleNamespace

import pytest

from games.coach import analysis, hints
from games.core import door
from games.core.projection import game_lexicon, load_events
from games.engine.tumble.robots import levels, search
from games.kinds.tumble.robots import TUMBLE_ROBOTS
from games.models import Event, Game

from .conftest import ANN_CROSSWORD, BOB_CROSSWORD, rows


@pytest.fixture
def ticking_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    now = [0.0]

    def perf_counter() -> float:
        now[0] += 0.001
        return now[0]

    fake = SimpleNamespace(perf_counter=perf_counter)
    monkeypatch.setattr(levels, "time", fake)
    monkeypatch.setattr(search, "time", fake)
    yield


def test_the_analysis_compares_each_round_with_the_hint_for_its_roll(
    tumble_game: Callable[..., Game], ticking_clock: None
) -> None:
    game = tumble_game(hints=True)
    offered = {seat: hints.find(game, seat) for seat in (0, 1)}
    assert all(len(h) == 1 for h in offered.values())
    door.submit(game.pk, 0, rows(ANN_CROSSWORD), game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    door.submit(game.pk, 1, rows(BOB_CROSSWORD), game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    # What the service's analysis asks: the strongest level, 20 ms, its own seed.
    found = TUMBLE_ROBOTS.analyse(
        load_events(game),
        game_lexicon(game),
        TUMBLE_ROBOTS.strongest,
        analysis.ROBOT_BUDGET_MS,
        analysis.ROBOT_SEED,
    )
    first = [r for r in found.rounds if r.round == 1]
    assert [r.seat for r in first] == [0, 1]
    for r in first:
        hint = offered[r.seat][0]
        assert (f"submit {r.robot}", r.robot_points) == (hint.notation, hint.points)
    # The roll allows far more than the hand-made crosswords scored.
    assert all(r.difference is not None and r.difference > 0 for r in first)
