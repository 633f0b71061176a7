"""One ladder of robot levels for every game: each kind's own levels placed
on its rungs, an account for every rung, and the robot accounts of levels no
longer on the ladder still playing the seats they hold."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games import kinds
from games.core import lobby
from games.core.door import submit
from games.models import Event, Game, RobotTurn, SeatChange
from games.robots import owed, turns

pytestmark = pytest.mark.django_db


def test_every_rung_has_its_robot_account() -> None:
    assert kinds.LADDER == ("beginner", "casual", "club", "expert")
    for rung in kinds.LADDER:
        robot = owed.robot(rung)
        assert robot is not None and robot.is_robot and not robot.is_active
        assert robot.public_name == f"Robot {rung.title()}"


@pytest.mark.parametrize("kind", kinds.all(), ids=lambda kind: kind.name)
def test_each_kinds_levels_stand_on_the_ladder_weakest_first(kind: kinds.GameKind) -> None:
    robots = kind.robots
    assert robots is not None
    rungs = kinds.robot_levels(kind)
    # The ends and the default are in every game; the rungs keep the ladder's order.
    assert rungs[0] == "beginner" and rungs[-1] == "expert" and kinds.DEFAULT_RUNG in rungs
    assert [r for r in kinds.LADDER if r in rungs] == list(rungs)
    own = list(robots.levels)
    placed = [own.index(robots.ladder[rung]) for rung in rungs]
    assert placed == sorted(set(placed)), "each rung a stronger level of the kind's own"
    assert robots.ladder["expert"] == robots.strongest
    for rung in rungs:
        assert robots.playing(rung) == robots.ladder[rung]


def test_robots_of_levels_off_the_ladder_play_their_own_level() -> None:
    jumbulaya, crossword, blockers, tumble = kinds.all()
    assert [r.playing("greedy") for r in (jumbulaya.robots, crossword.robots, blockers.robots)] == [  # type: ignore[union-attr]
        "greedy",
        "greedy",
        "greedy",
    ]
    assert crossword.robots.playing("strong") == "strong"  # type: ignore[union-attr]
    assert crossword.robots.playing("club") == "greedy"  # type: ignore[union-attr]
    assert blockers.robots.playing("casual") == "greedy"  # type: ignore[union-attr]
    assert tumble.robots.playing("club") == "strong"  # type: ignore[union-attr]


def test_an_old_games_robot_greedy_plays_its_turn(make_user: Callable[[str], User]) -> None:
    """A game made before the ladder, Robot Greedy seated: its turns are played."""
    ann = make_user("ann")
    game = lobby.play_against_robot(ann, "casual")
    greedy = owed.robot("greedy")
    assert greedy is not None
    game.seats.filter(index=1).update(user=greedy)
    RobotTurn.objects.filter(game=game).delete()
    game.refresh_from_db()
    if game.turn_seat == 1:
        owed.owe(game, [1], game.last_seq)
    else:
        submit(game.pk, ann, "pass", game.last_seq, Event.Source.WEB)
    assert turns.sweep() == 1
    moved = Event.objects.filter(game=game, source=Event.Source.ROBOT)
    assert moved.count() == 1


@pytest.mark.parametrize(
    ("kind", "chosen", "robot"),
    [
        ("crossword", "strong", "expert"),
        ("crossword", "greedy", "club"),
        ("jumbulaya", "greedy", "greedy"),
    ],
)
def test_an_old_games_takeover_level_still_seats_a_robot(
    kind: str, chosen: str, robot: str, make_user: Callable[[str], User]
) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    rules = next(iter(kinds.get(kind).presets.values()))
    game = lobby.create_game(
        ann,
        kind=kind,
        seat_count=2,
        rules=rules,
        invite_emails=[bob.email],
        takeover_level="casual",
    )
    lobby.join_game(game.pk, bob)
    Game.objects.filter(pk=game.pk).update(takeover_level=chosen)  # as an older game stored it
    game.refresh_from_db()
    submit(game.pk, bob, "resign", game.last_seq, Event.Source.WEB)
    change = SeatChange.objects.get(game=game)
    assert change.left == bob and change.took_over.robot_level == robot
