"""The create page's robots: robot seats, the pace and takeover options, and
"Play against a robot now"; robots named as robots on the pages."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from tests.service.test_lobby_create import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("ann")
    client.force_login(user)
    return user


def test_the_create_page_offers_robots(ann: User, client: Client) -> None:
    page = client.get(reverse("games:create")).content.decode()
    assert "Play against a robot now" in page
    assert "Robot Greedy" in page
    assert 'name="robots"' in page and 'name="takeover_level"' in page


def test_play_against_a_robot_now_starts_a_game_and_lands_on_it(ann: User, client: Client) -> None:
    response = client.post(reverse("games:play_robot"), {"level": "greedy"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert game.status == Game.Status.PLAYING
    page = client.get(response["Location"]).content.decode()
    assert "Robot Greedy" in page
    dashboard = client.get(reverse("games:dashboard")).content.decode()
    assert "Robot Greedy" in dashboard


def test_a_created_game_seats_the_robots_chosen(ann: User, client: Client) -> None:
    form = form_data(seat_count="3", robots=["greedy"], robot_pace="human", takeover_level="greedy")
    response = client.post(reverse("games:create"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    seats = list(game.seats.order_by("index"))
    assert [s.user for s in seats[:2]] == [ann, User.objects.get(robot_level="greedy")]
    assert seats[2].invited_email == "bob@example.com"
    assert (game.robot_pace, game.takeover_level) == ("human", "greedy")
    assert game.status == Game.Status.OPEN
