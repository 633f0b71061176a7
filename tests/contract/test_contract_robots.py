"""Every kind's robots: a robot seat plays its owed turn through the worker's
function, ``manage.py robot`` answers the kind's seat views and plays a
match, and a robot's account comes into being when its level is first needed
(no migration a level name), even in a database flushed of the migrations'
rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from unittest import mock

import pytest
from django.core.management import call_command

from accounts import robots as robot_accounts
from accounts.models import ROBOT_DOMAIN, User
from games import kinds
from games.core.lobby import play_against_robot
from games.core.projection import current_state, game_lexicon, load_events
from games.kinds.base import GameKind
from games.models import Event, Game, RobotTurn
from games.robots import owed, turns

from .play import play_one

pytestmark = pytest.mark.django_db


def rungs(kind: GameKind) -> tuple[str, ...]:
    found = kinds.robot_levels(kind)
    assert found, f"{kind.label} has no robots"
    return found


def robot_seats(game: Game) -> set[int]:
    return {s.index for s in game.seats.select_related("user") if s.user and s.user.robot_level}


def play_until_a_robot_moves(game: Game) -> Event:
    """The people's moves until a robot's owed turn is played (the worker's
    function, as the sweep plays it); the robot's event."""
    seats = robot_seats(game)
    for _ in range(6):
        turns.sweep()
        made = game.events.filter(seat__in=seats, source=Event.Source.ROBOT).first()
        if made is not None:
            return made
        play_one(game)
    raise AssertionError("no robot moved")


@pytest.mark.slow
def test_a_robot_seat_plays_its_turn(kind: GameKind, contract_game: Callable[..., Game]) -> None:
    game = contract_game(robots=rungs(kind)[: kind.min_players - 1])
    made = play_until_a_robot_moves(game)
    assert RobotTurn.objects.filter(game=game, seat=made.seat, outcome="moved").exists()


def test_the_robot_command_answers_the_kind_s_seat_views(
    kind: GameKind, contract_game: Callable[..., Game]
) -> None:
    """``manage.py robot`` reads seat views one a line: the mover's is
    answered with a move the rules accept, a waiting seat's with ``wait``, a
    view that names only its format and a line that is no JSON with errors."""
    robots = kind.robots
    assert robots is not None, f"{kind.label} has no robots"
    game = contract_game(players=min(3, kind.max_players))
    state = current_state(game)
    movers = kind.progress(state).to_move
    waiting = [s for s in range(game.seat_count) if s not in movers]
    events = load_events(game)
    views = [robots.seat_view(events, state, s, lexicon=game.lexicon_name) for s in movers[:1]]
    views += [robots.seat_view(events, state, s, lexicon=game.lexicon_name) for s in waiting[:1]]
    assert all(view["format"] == robots.view_format for view in views)
    lines = [*map(json.dumps, views), json.dumps({"format": robots.view_format}), "not json"]
    out = StringIO()
    stdin = StringIO("\n".join(lines) + "\n")
    call_command("robot", "--kind", kind.name, "--seed", "1", stdin=stdin, stdout=out)
    answers = out.getvalue().splitlines()
    assert len(answers) == len(lines)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    assert kind.decide(state, movers[0], answers[0], lexicon)  # the rules accept it
    if waiting:
        assert answers[1] == "wait"
    assert answers[-2].startswith("error: ")
    assert answers[-1].startswith("error: this line is not JSON")


@pytest.mark.slow
def test_robot_match_prints_each_level_s_results(kind: GameKind) -> None:
    """``manage.py robot match`` between the kind's two weakest levels."""
    robots = kind.robots
    assert robots is not None, f"{kind.label} has no robots"
    a, b = list(robots.levels)[:2]
    out = StringIO()
    call_command(
        "robot", "--kind", kind.name, "match", "--levels", f"{a},{b}", "--games", "2",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    table = out.getvalue().splitlines()
    assert table[0].split()[:3] == ["level", "games", "won"]
    assert [row.split()[0] for row in table[1:3]] == [a, b]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_flushed_database_gets_its_robots_when_first_needed(
    kind: GameKind, make_user: Callable[[str], User]
) -> None:
    User.objects.filter(robot_level__gt="").delete()
    game = play_against_robot(make_user("ann"), rungs(kind)[0], kind=kind.name)
    made = robot_seats(game)
    assert made and game.status == Game.Status.PLAYING
    for level in rungs(kind):
        account = owed.robot(level)
        assert account.email == f"robot-{level}@{ROBOT_DOMAIN}" and not account.is_active
        assert owed.robot(level) == account  # found, not made again
    assert User.objects.filter(robot_level__gt="").count() == len(
        {*rungs(kind), *(s.user.robot_level for s in game.seats.select_related("user") if s.user)}
        - {""}
    )


@pytest.mark.django_db(transaction=True)
def test_a_robot_made_by_another_transaction_meanwhile_is_fetched() -> None:
    """Two first needs at once: the one that loses the race meets the unique
    address and fetches the other's row (its own transaction goes on)."""
    User.objects.filter(robot_level="casual").delete()
    free = robot_accounts._free_username

    def raced(base: str) -> str:
        winner = User.objects.create(
            username="robot-casual-first", email=robot_accounts.robot_email("casual"),
            robot_level="casual", display_name="Robot Casual", is_active=False,
        )  # fmt: skip
        assert winner.pk
        return free(base)

    with mock.patch.object(robot_accounts, "_free_username", raced):
        found = robot_accounts.robot_account("casual")
    assert found.username == "robot-casual-first"
    assert User.objects.filter(robot_level="casual").count() == 1


def test_a_person_s_handle_is_never_a_robot_s(make_user: Callable[[str], User]) -> None:
    User.objects.filter(robot_level="club").delete()
    person = User.objects.create(username="robot-club", email="robot-club@example.com")
    robot = owed.robot("club")
    assert robot.pk != person.pk and robot.username == "robot-club2"
    assert robot.email == f"robot-club@{ROBOT_DOMAIN}" and robot.robot_level == "club"
