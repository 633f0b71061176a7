"""Robots' names and the bot mark belong to the site: no person may type
"Robot Expert" or "Ann (bot)", a name stored before that rule is shown as
``player <id>``, and a robot's name opens the robot's page, never a person's."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from accounts import services
from accounts.models import User
from accounts.names import clean_name, shown_name
from games import kinds
from games.core.lobby import create_game, join_game
from games.core.tokens import invite_token
from games.engine.jumbulaya import PRESETS
from games.models import Game

pytestmark = pytest.mark.django_db

PROFILE = reverse("accounts:profile")


def robot(level: str) -> User:
    return User.objects.get(robot_level=level)


def store_name(user: User, name: str) -> None:
    """A row from before the rule: written past the service's checks."""
    User.objects.filter(pk=user.pk).update(display_name=name)


def every_robot_level() -> list[str]:
    return sorted({level for kind in kinds.all() for level in kinds.robot_levels(kind)})


@pytest.mark.parametrize(
    "typed",
    [
        "Robot Expert",
        "robot greedy",
        "ROBOT CLUB",
        "R0bot Beginner",  # a zero for the o
        "Robot",
        "Robot Ann",  # the word Robot followed by anything
        "Robot-Expert",
        "RobotExpert",
        "  Robot   Strong ",
        "\uff32obot Casual",  # a fullwidth R, NFKC
        "Ann (bot)",
        "Ann (BOT)",
        "Ann(bot)",
        "Ann [b0t]",
        "Ann ( bot )",
        "(bot) Ann",
        "Ann \uff08bot\uff09",  # fullwidth brackets, NFKC
    ],
)
def test_robot_names_and_the_bot_mark_are_refused(typed: str) -> None:
    with pytest.raises(ValidationError) as refused:
        clean_name(typed)
    assert refused.value.code == "reserved"
    assert refused.value.messages[0].endswith(".")


@pytest.mark.parametrize("level", every_robot_level())
def test_every_robots_name_of_every_kind_is_refused(level: str) -> None:
    name = robot(level).public_name
    assert name == f"Robot {level.title()}"
    for typed in (name, name.upper(), name.lower()):
        with pytest.raises(ValidationError):
            clean_name(typed)


@pytest.mark.parametrize("typed", ["Robotham", "Jane Robotham", "Abbot", "Talbot", "Ann Bot"])
def test_names_that_merely_hold_the_letters_are_accepted(typed: str) -> None:
    assert clean_name(typed) == typed


def test_the_refusals_say_why() -> None:
    with pytest.raises(ValidationError) as robot_name:
        clean_name("Robot Expert")
    assert "robot players" in robot_name.value.messages[0]
    with pytest.raises(ValidationError) as bot_mark:
        clean_name("Ann (bot)")
    assert "This account is a bot" in bot_mark.value.messages[0]


def test_robots_and_bots_keep_their_names(make_user: Callable[[str], User]) -> None:
    """The rule is about what people type: the site's own robots are shown by
    their names, and a bot's name with its mark."""
    assert robot("greedy").public_name == "Robot Greedy"
    bot = make_user("botty")
    User.objects.filter(pk=bot.pk).update(is_bot=True)
    bot.refresh_from_db()
    assert bot.public_name == "Botty (bot)"


def test_a_game_page_names_a_bot_and_a_robot(make_user: Callable[[str], User]) -> None:
    ann, bot = make_user("ann"), make_user("botty")
    User.objects.filter(pk=bot.pk).update(is_bot=True)
    game = create_game(ann, seat_count=3, rules=PRESETS["official"], invite_emails=[bot.email])
    game.seats.filter(index=2).update(user=robot("greedy"))
    join_game(game.pk, bot)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Botty (bot)" in page and "Robot Greedy" in page
    assert "Seat 2" not in page and "Seat 3" not in page


@pytest.mark.parametrize("stored", ["Robot Expert", "Ann (bot)"])
def test_a_stored_name_that_breaks_the_rule_is_shown_as_the_player(
    make_user: Callable[[str], User], stored: str
) -> None:
    ann = make_user("ann")
    store_name(ann, stored)
    ann.refresh_from_db()
    assert shown_name(stored) is None
    assert ann.public_name == f"player {ann.pk}"


def test_the_profile_page_and_the_service_refuse_them(
    client: Client, make_user: Callable[[str], User]
) -> None:
    ann = make_user("ann")
    client.force_login(ann)
    for typed in ("Robot Expert", "Ann (bot)"):
        response = client.post(
            PROFILE,
            {"action": "profile", "profile-display_name": typed, "profile-time_zone": "UTC"},
        )
        assert response.status_code == 400
        with pytest.raises(ValidationError):
            services.update_profile(ann, display_name=typed, time_zone="UTC")
    ann.refresh_from_db()
    assert ann.display_name == "Ann"


def test_a_new_player_cannot_take_a_robots_name_on_an_invitation(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    game = create_game(ann, seat_count=2, rules=PRESETS["official"], invite_emails=["x@ex.com"])
    url = reverse("games:accept_invite", args=[invite_token(game.pk, "x@ex.com")])
    response = Client().post(url, {"display_name": "Robot Expert"})
    assert response.status_code == 400
    assert "robot players" in response.content.decode()
    assert not User.objects.filter(email="x@ex.com").exists()


@pytest.mark.parametrize("who", ["Robot Expert", "robot expert", "R0bot Expert"])
def test_a_robots_name_opens_the_robots_page_never_a_persons(
    make_user: Callable[[str], User], who: str
) -> None:
    ann, impostor = make_user("ann"), make_user("imp")
    store_name(impostor, "Robot Expert")
    expert = robot("expert")
    client = Client()
    client.force_login(ann)
    page = client.get(f"/players/{who}/")
    assert page.status_code == 200
    assert page.context["player"] == expert
    assert "<h1>Robot Expert" in page.content.decode()


def test_a_robots_page_opens_by_its_number_and_a_hidden_name_finds_nobody(
    make_user: Callable[[str], User],
) -> None:
    ann, impostor = make_user("ann"), make_user("imp")
    store_name(impostor, "Ann (bot)")
    client = Client()
    client.force_login(ann)
    expert = robot("expert")
    assert client.get(f"/players/{expert.pk}/").context["player"] == expert
    # The person is "player <id>" to everyone: the name they stored finds nobody.
    assert client.get("/players/Ann (bot)/").status_code == 404
    assert client.get("/players/Robot Nobody/").status_code == 404
    shown = client.get(f"/players/{impostor.pk}/").content.decode()
    assert f"<h1>player {impostor.pk}" in shown and "Ann (bot)" not in shown
