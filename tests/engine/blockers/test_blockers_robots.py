"""The Blockers robots: legal answers from the seat view alone, and a ladder in
which each level beats the one below by a clear margin over a fixed-seed match
(the seats rotated: a level seated once among two of the other, so equal levels
would win a third of the games)."""

from __future__ import annotations

import random

import pytest

from games.engine.blockers import decide, read_view, replay, seat_view
from games.engine.blockers.robots import LEVELS, match, play_game


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_plays_whole_games_legally(level: str) -> None:
    # play_game applies every answer through decide: a refused one raises.
    g = play_game([LEVELS[level], LEVELS["beginner"], LEVELS["greedy"]], seed=4, budget_ms=2)
    assert g.state.over and g.state.turns_taken == (24, 24, 24)


def test_a_robot_waits_off_turn_and_answers_from_the_view_only() -> None:
    g = play_game([LEVELS["beginner"]] * 3, seed=9)
    events = list(g.events[:10])
    state = replay(events)
    seat = state.turn
    assert seat is not None
    other = (seat + 1) % 3
    for level in LEVELS.values():
        assert level.answer(read_view(seat_view(events, state, other)), random.Random(1)) == "wait"
        answer = level.answer(read_view(seat_view(events, state, seat)), random.Random(1), 2)
        assert decide(state, seat, answer)


def test_greedy_beats_beginner_clearly() -> None:
    result = match(LEVELS["greedy"], LEVELS["beginner"], deals=4, seed=1)
    assert result.played == 12
    assert result.interval[0] > 2 * result.fair_share, result.summary()


@pytest.mark.slow
def test_strong_beats_greedy_clearly() -> None:
    # A budget it never reaches: it always takes its full count of samples, so the
    # match is the same on any machine.  Twelve deals: with six, the draws being
    # picked at random (issue 27) left strong at 44% [24.6%-66.3%] on this seed.
    result = match(LEVELS["strong"], LEVELS["greedy"], deals=12, seed=3, budget_ms=10_000)
    assert result.played == 36
    assert result.interval[0] > result.fair_share, result.summary()
    assert result.average_scores[0] < result.average_scores[1], result.summary()
