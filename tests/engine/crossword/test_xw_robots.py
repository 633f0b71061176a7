"""Crossword robots: what they see, that they answer legally, how each level
chooses, the leave table's shape, and the match runner."""

from __future__ import annotations

import random

import pytest

from games.engine.crossword.dawg import Dawg
from games.engine.crossword.leave import leave_value, terms
from games.engine.crossword.movegen import EMPTY_BOARD, Move, legal_moves
from games.engine.crossword.robots import LEVELS, Exchange, Pass, Position, UnknownLevel, robot
from games.engine.crossword.robots.base import Answer, unseen_tiles
from games.engine.crossword.robots.match import GameResult, RobotError, match, play_game

BONUS = {"MARY": 5, "LAW": 5, "EVE": 5, "SAVED": 10, "ZION": 5, "KINGDOM": 15}
CAT_BOARD = tuple(row if r != 7 else ".....CAT......." for r, row in enumerate(EMPTY_BOARD))


def test_unseen_tiles_are_the_set_less_the_board_and_the_rack() -> None:
    board = tuple(row if r != 7 else ".....CaT......." for r, row in enumerate(EMPTY_BOARD))
    # Two Cs in the set: one on the board leaves one for a rack.
    with pytest.raises(ValueError, match="more tiles"):
        unseen_tiles(board, "CC")
    unseen = unseen_tiles(board, "T?")
    assert len(unseen) == 100 - 3 - 2
    assert "?" not in unseen and unseen.count("C") == 1 and unseen.count("T") == 4


def test_a_position_refuses_what_a_seat_cannot_see() -> None:
    with pytest.raises(ValueError, match="seat 2"):
        Position.of(EMPTY_BOARD, "ABC", 86, (0, 0), 2)
    with pytest.raises(ValueError, match="bag"):
        Position(EMPTY_BOARD, "ABC", 10, "DEF", (0, 0), 0)
    p = Position.of(EMPTY_BOARD, "ABC", 86, (0, 0), 0, bonus={"EVE": 5})
    assert p.exchange_allowed and p.bonus_words == {"EVE": 5} and len(p.unseen) == 97


def test_unknown_levels_are_refused(enable_dawg: Dawg) -> None:
    with pytest.raises(UnknownLevel, match="levels: beginner, casual, greedy, strong"):
        robot("expert", enable_dawg)


class Checked:
    """Plays as ``inner``; checks each answer against the legal moves."""

    def __init__(self, name: str, dawg: Dawg) -> None:
        self.inner = robot(name, dawg)
        self.name = name
        self.dawg = dawg
        self.answers: list[Answer] = []

    def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
        answer = self.inner.choose(position, rng, budget_ms)
        if isinstance(answer, Move):
            legal = legal_moves(
                position.board,
                position.rack,
                self.dawg,
                bingo_sizes=position.bingo_sizes,
                bonus=position.bonus_words,
            )
            assert answer in legal
        elif isinstance(answer, Exchange):
            assert position.exchange_allowed and len(answer.tiles) <= position.bag
        self.answers.append(answer)
        return answer


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LEVELS))
def test_every_level_answers_legally_through_a_game(enable_dawg: Dawg, name: str) -> None:
    me, other = Checked(name, enable_dawg), Checked("greedy", enable_dawg)
    game = play_game([me, other], seed=11, bonus=BONUS)
    assert not game.capped
    assert any(isinstance(a, Move) for a in me.answers)
    assert len(game.moves) == game.turns


@pytest.mark.slow
def test_sharing_the_word_racks_hold_nine(enable_dawg: Dawg) -> None:
    seen: list[int] = []

    class Watch(Checked):
        def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
            seen.append(len(position.rack))
            return super().choose(position, rng, budget_ms)

    play_game(
        [Watch("strong", enable_dawg), Watch("greedy", enable_dawg)],
        seed=3,
        rack_size=9,
        bingo_sizes=frozenset({7, 8, 9}),
    )
    assert seen[:2] == [9, 9] and max(seen) == 9


def test_greedy_takes_the_top_score_and_beginner_a_short_low_one(enable_dawg: Dawg) -> None:
    p = Position.of(CAT_BOARD, "EIRSTXQ", 80, (10, 0), 1)
    moves = legal_moves(p.board, p.rack, enable_dawg)
    top = max(m.score for m in moves)
    for i in range(5):
        g = robot("greedy", enable_dawg).choose(p, random.Random(i), None)
        assert isinstance(g, Move) and g.score == top
        b = robot("beginner", enable_dawg).choose(p, random.Random(i), None)
        short = sorted(m.score for m in moves if len(m.word) <= 5)
        assert isinstance(b, Move) and len(b.word) <= 5
        assert b.score <= short[(len(short) - 1) // 2]


def test_with_no_move_the_robots_exchange_or_pass(enable_dawg: Dawg) -> None:
    # No word takes Q, J and V with the C, A and T of the board's only word.
    stuck = Position.of(CAT_BOARD, "QJV", 40, (0, 0), 0)
    assert legal_moves(stuck.board, stuck.rack, enable_dawg) == []
    for name in LEVELS:
        answer = robot(name, enable_dawg).choose(stuck, random.Random(0), None)
        assert isinstance(answer, Exchange) and answer.notation.startswith("exchange ")
    low_bag = Position.of(CAT_BOARD, "QJV", 6, (0, 0), 0)
    for name in LEVELS:
        assert robot(name, enable_dawg).choose(low_bag, random.Random(0), None) == Pass()


def test_the_leave_table_prefers_flexible_tiles() -> None:
    assert leave_value("") == 0.0
    assert leave_value("?") > leave_value("S") > 0 > leave_value("V")
    assert leave_value("Q") < leave_value("QU") - leave_value("U")  # a U helps a Q
    assert leave_value("EEE") < 3 * leave_value("E")  # duplicates cost
    assert terms("AEIOS") == {"A": 1, "E": 1, "I": 1, "O": 1, "S": 1, "vowel_heavy": 2}
    assert terms("BCDFGA")["consonant_heavy"] == 2


def test_strong_goes_out_when_the_bag_is_empty(enable_dawg: Dawg) -> None:
    # AX (A on the board, X on 9G, a double letter) scores 17 and keeps the
    # blank; AXe scores 17 too and goes out, winning the opponent's Q and Z twice.
    p = Position(CAT_BOARD, "X?", 0, "QZ", (100, 100), 0)
    answer = robot("strong", enable_dawg).choose(p, random.Random(0), None)
    assert isinstance(answer, Move) and answer.tiles in ("X?", "?X")


def test_a_robot_that_cheats_is_caught(enable_dawg: Dawg) -> None:
    class Cheat:
        name = "cheat"

        def choose(self, position: Position, rng: random.Random, budget_ms: float | None) -> Answer:
            return Move(7, 7, True, "ZZ", "ZZ", 40)

    with pytest.raises(RobotError, match="without a Z"):
        play_game([Cheat(), robot("greedy", enable_dawg)], seed=1)


def test_the_end_counts_unplayed_letters_and_ties() -> None:
    game = GameResult(1, ("a", "b"), (50, 50), (48, 52), 10, False, ((), ()), ())
    assert game.winners == [1]  # tied after the letters: the higher score before wins
    shared = GameResult(1, ("a", "b"), (50, 50), (50, 50), 10, False, ((), ()), ())
    assert shared.winners == [0, 1] and shared.result(0) == 0.5


def test_a_match_plays_each_deal_with_the_seats_swapped(enable_dawg: Dawg) -> None:
    greedy = robot("greedy", enable_dawg)
    result = match(greedy, robot("beginner", enable_dawg), 2, seed=5)
    first, second = result.games
    assert result.a_seat == (0, 1)
    # The same bag: the first answers differ only because the seats' robots differ.
    assert first.levels == ("greedy", "beginner") and second.levels == ("beginner", "greedy")
    assert result.played == 2 and result.wins + result.draws + result.losses == 2


@pytest.mark.slow
def test_strong_beats_greedy_and_greedy_beats_beginner(enable_dawg: Dawg) -> None:
    """Each deal twice with the seats swapped, a fixed seed: the stronger side's
    win rate has a 95% interval wholly above one half."""
    strong, greedy = robot("strong", enable_dawg), robot("greedy", enable_dawg)
    upper = match(strong, greedy, 60, seed=1)
    assert upper.interval[0] > 0.5, upper.summary()
    assert sum(upper.spreads) > 0
    lower = match(greedy, robot("beginner", enable_dawg), 10, seed=1)
    assert lower.interval[0] > 0.5, lower.summary()
