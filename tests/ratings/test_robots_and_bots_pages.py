"""Robots and bots on the leaderboards and players' pages: robots of rated
games are ranked with the people ("robots' included"), every robot's page
opens by its name, a bot's by its name as shown ("Botty (bot)"), and the
opponents a player's page lists are links to theirs."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

import pytest
from django.test import Client

from accounts.models import User
from games import kinds
from games.core import door, lobby
from games.models import Event, Game
from games.robots import owed, turns

pytestmark = pytest.mark.django_db

KINDS = [kind.name for kind in kinds.all()]


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def lost_to_robots(ann: User, kind: str) -> Game:
    """A rated game of ``kind`` against the robots, which Ann resigns at once;
    the robots play on to its end (Blockers seats two)."""
    game = lobby.play_against_robot(ann, kind=kind)
    door.submit(game.pk, ann, "resign", game.last_seq, Event.Source.WEB)
    for _ in range(500):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            return game
        assert turns.sweep() > 0, "a robot turn is owed while the game goes on"
    raise AssertionError("the robots did not finish the game")


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_robots_of_rated_games_are_on_the_leaderboard_and_linked(
    kind: str, make_user: Callable[[str], User]
) -> None:
    ann = make_user("ann")
    game = lost_to_robots(ann, kind)
    robot = owed.robot("casual")
    assert robot is not None
    board = signed_in(ann).get(f"/leaderboard/{kind}/").content.decode()
    table = board.split('<table class="leaderboard">')[1]
    assert f'<a href="/players/{robot.pk}/">Robot Casual</a> (robot)' in table
    assert f'<a href="/players/{ann.pk}/">Ann</a>' in table
    # Ann's page names the robot she played, as a link to its page.
    page = signed_in(ann).get(f"/players/{ann.pk}/").content.decode()
    recent = page.split('<table class="recent-games">')[1]
    assert f'<a href="/games/{game.pk}/">' in recent
    assert f'<a href="/players/{robot.pk}/">Robot Casual</a>' in recent


@pytest.mark.parametrize("level", ["beginner", "casual", "club", "expert", "greedy", "strong"])
def test_every_robots_page_opens_by_its_name(level: str, make_user: Callable[[str], User]) -> None:
    robot = owed.robot(level)
    assert robot is not None
    client = signed_in(make_user("ann"))
    for who in (robot.public_name, robot.public_name.lower(), str(robot.pk)):
        page = client.get(f"/players/{quote(who)}/")
        assert page.status_code == 200, who
        assert f"<h1>{robot.public_name}" in page.content.decode()


def test_a_bots_page_opens_by_its_name_as_shown(make_user: Callable[[str], User]) -> None:
    ann, botty = make_user("ann"), make_user("botty")
    User.objects.filter(pk=botty.pk).update(is_bot=True)
    botty.refresh_from_db()
    assert botty.public_name == "Botty (bot)"
    client = signed_in(ann)
    for who in ("Botty (bot)", "botty (bot)", "Botty(bot)", "Botty"):
        page = client.get(f"/players/{quote(who)}/")
        assert page.status_code == 200, who
        assert "<h1>Botty (bot)" in page.content.decode()
    # A person of the same name is not a bot: "(bot)" names the bot alone.
    User.objects.create_user(username="botty2", email="b2@example.com", display_name="Botty")
    page = client.get(f"/players/{quote('Botty (bot)')}/")
    assert page.status_code == 200 and "<h1>Botty (bot)" in page.content.decode()
