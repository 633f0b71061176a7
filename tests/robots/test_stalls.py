"""No game ever waits on a robot: games of every kind, robot against robot and
a person against robots (JUMBULAYA with its claim window on and off), played
to their end through the one door, each robot turn by its task's function
(:mod:`games.robots.stalls`; ``python -m bench stalls`` plays hundreds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import kinds
from games.core import rebuild
from games.models import Event, Game, RobotTurn, Seat
from games.robots import owed, stalls, turns
from tests.claims.test_claims_window import play
from tests.conftest import CLAIM_THE_BOARD

#: Games of each kind in the suite: robot against robot and a person against
#: robots in turn, the kind's presets and seat counts in turn.
PER_KIND = 8
SEED = 29


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("kind", [kind.name for kind in kinds.all()])
def test_no_game_of_any_kind_waits_on_a_robot(kind: str, settings: Any) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 0
    games = [s for s in stalls.setups(PER_KIND, SEED, levels=2) if s.kind == kind]
    assert len(games) == PER_KIND and any(s.person for s in games)
    if kinds.get(kind).window is not None:
        assert {s.claim_window for s in games} == {True, False}
    report = stalls.check(games, SEED)
    assert report.stalls == []
    assert len(report.games) == PER_KIND
    for played in report.games:
        game = Game.objects.get(pk=played.game_id)
        assert game.status == Game.Status.OVER, played.setup.label
        assert not RobotTurn.objects.filter(game=game, done_at__isnull=True).exists()
        assert not rebuild.rebuild_projection(game, write=False)


def robot_opposite(board_game: Callable[..., Game], **options: Any) -> Game:
    """The board game with Bob's seat a robot's, one move before the window's
    conditions hold (Ann's "9 CUT" makes a JUMBULAYA callable, the robot to move)."""
    game = board_game(**options)
    play(game, CLAIM_THE_BOARD[:-1])
    Seat.objects.filter(game=game, index=1).update(user=owed.robot("casual"))
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("window", [True, False])
def test_a_robot_that_finds_a_jumbulaya_on_its_turn_ends_the_game(
    board_game: Callable[..., Game], window: bool
) -> None:
    """The robot calls on its own turn: judged at once, the call ends the game
    (with the window open it used to be sealed, and the game waited for days)."""
    game = robot_opposite(board_game, claim_window=window)
    play(game, CLAIM_THE_BOARD[-1:])
    game.refresh_from_db()
    assert (game.window_closes_at is not None) == window and game.turn_seat == 1
    row = RobotTurn.objects.get(game=game, seq=game.last_seq, seat=1)
    assert turns.play(row.pk) == "moved"
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    assert game.window_closes_at is None
    made = Event.objects.get(game=game, type="jumbulaya_verified")
    assert (made.seat, made.source) == (1, Event.Source.ROBOT)


@pytest.mark.django_db
def test_the_stall_check_finds_a_robot_that_does_not_move(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check itself: a robot whose turn is played without a move is a stall."""
    settings.JUMBULAYA_GAMES_PER_DAY = 0
    monkeypatch.setattr(
        turns, "play", lambda row_id: turns._done(RobotTurn.objects.get(pk=row_id), "wait")
    )
    setup = stalls.Setup("jumbulaya", "official", ("beginner", "casual"), False, True)
    report = stalls.check([setup], SEED)
    assert report.games == []
    assert len(report.stalls) == 1 and "did not move on" in report.stalls[0]


@pytest.mark.django_db
def test_the_stall_check_finds_a_robot_owed_no_turn(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.JUMBULAYA_GAMES_PER_DAY = 0
    monkeypatch.setattr(owed, "owe", lambda game, seats, seq: [])
    setup = stalls.Setup("crossword", "standard", ("beginner", "casual"), True, False)
    report = stalls.check([setup], SEED)
    assert len(report.stalls) == 1 and "owed no turn" in report.stalls[0]
