"""The self-play runner: games from views only, seats swapped, results summed."""

from __future__ import annotations

import random

import pytest

from games.engine.jumbulaya import Lexicon, replay
from games.engine.jumbulaya.robots import LEVELS
from games.engine.jumbulaya.robots.base import Level, fallback
from games.engine.jumbulaya.robots.match import (
    RobotError,
    match,
    percentile,
    play_game,
    wilson_interval,
)
from games.engine.jumbulaya.state import GameState
from games.engine.jumbulaya.view import SeatView

GREEDY = LEVELS["greedy"]


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(60, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.5020, 0.6906)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    lo, hi = wilson_interval(5, 10)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-12
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_percentile() -> None:
    assert percentile([3, 1, 2], 50) == 2.0
    assert percentile([], 95) == 0.0
    assert percentile(list(range(101)), 95) == 95.0


def test_a_game_replays_from_its_events(small_lex: Lexicon) -> None:
    game = play_game([GREEDY, GREEDY], small_lex, seed=3, max_turns=60)
    assert replay(game.events).scores() == game.state.scores()
    assert game.turns <= 60
    assert game.capped or game.state.over
    assert all(d.ms >= 0 for d in game.decisions)


def test_the_same_seed_deals_the_same_game_with_the_seats_swapped(small_lex: Lexicon) -> None:
    one = play_game([GREEDY, GREEDY], small_lex, seed=5, max_turns=4)
    two = play_game([GREEDY, GREEDY], small_lex, seed=5, max_turns=4)
    assert one.events[0] == two.events[0]
    assert one.events == two.events


def _passer(view: SeatView, state: GameState, lex: Lexicon, rng: random.Random, b: object) -> str:
    return "pass"


PASSER = Level("passer", "Always passes.", _passer)


def test_match_swaps_seats_and_sums_from_as_side(small_lex: Lexicon) -> None:
    calls: list[tuple[int, int]] = []
    result = match(
        GREEDY, PASSER, 4, seed=1, lexicon=small_lex, progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert result.a_seat == (0, 1, 0, 1)
    assert [g.levels for g in result.games] == [("greedy", "passer"), ("passer", "greedy")] * 2
    # each deal is played twice: the same start
    assert result.games[0].events[0].lines == result.games[1].events[0].lines
    points = sum(g.result(s) for g, s in zip(result.games, result.a_seat, strict=True))
    assert result.points == points
    assert result.wins + result.draws + result.losses == 4
    assert result.win_rate == points / 4
    sa, sb = result.average_scores
    assert sa == sum(g.scores[s] for g, s in zip(result.games, result.a_seat, strict=True)) / 4
    assert sb == sum(g.scores[1 - s] for g, s in zip(result.games, result.a_seat, strict=True)) / 4
    assert result.times["greedy"].count > 0 and result.times["passer"].count > 0
    assert "greedy vs passer: 4 games" in result.summary()


def test_a_capped_game_is_a_draw(small_lex: Lexicon) -> None:
    result = match(PASSER, PASSER, 2, seed=2, lexicon=small_lex, max_turns=10)
    assert result.capped == 2 and result.draws == 2 and result.win_rate == 0.5
    assert all(g.turns == 10 for g in result.games)


def _cheat(view: SeatView, state: GameState, lex: Lexicon, rng: random.Random, b: object) -> str:
    return "1 ZZZZZ"


def test_a_refused_answer_is_a_robot_bug(small_lex: Lexicon) -> None:
    bad = Level("cheat", "Plays words it does not have.", _cheat)
    with pytest.raises(RobotError) as caught:
        play_game([bad, GREEDY], small_lex, seed=1)
    assert caught.value.answer == "1 ZZZZZ"
    assert caught.value.view["format"] == "jumbulaya-view/1"


def test_fallback_exchanges_while_the_bag_allows() -> None:
    class V:
        rack = ("A", "B")
        bag = 1

    assert fallback(V()) == "pass"  # type: ignore[arg-type]
    V.bag = 2
    assert fallback(V()) == "exchange all"  # type: ignore[arg-type]
