"""The create page's robots: robot seats, the pace and takeover options, and
"Play against a robot now"; the one-click games against a robot of the home
page and the dashboard, for every game; one ladder of levels in every game;
robots named as robots on the pages."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import unquote

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from games import kinds
from games.core import lobby, projection
from games.models import Game
from tests.service.test_lobby_create import form_data

pytestmark = pytest.mark.django_db

KINDS = [kind.name for kind in kinds.all()]


class _Forms(HTMLParser):
    """Every form of a page: its action, and what it sends as shown (hidden
    and text inputs, checked boxes and radios, each select's chosen option)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self.select: str | None = None
        self.first: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append((a.get("action", ""), {}))
        elif not self.forms:
            return
        sent = self.forms[-1][1]
        if tag == "input" and a.get("name"):
            if a.get("type") in ("radio", "checkbox") and "checked" not in a:
                return
            sent[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select, self.first = a.get("name"), None
        elif tag == "option" and self.select:
            if self.first is None:
                self.first = a.get("value", "")
                sent.setdefault(self.select, self.first)
            if "selected" in a:
                sent[self.select] = a.get("value", "")


def forms_to(html: str, action: str) -> list[dict[str, str]]:
    """What each form of ``html`` that posts to ``action`` sends as shown."""
    parser = _Forms()
    parser.feed(html)
    return [sent for to, sent in parser.forms if to == action]


@pytest.fixture
def ann(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("ann")
    client.force_login(user)
    return user


def test_the_create_page_offers_the_ladder_and_says_what_each_level_means_in_each_game(
    ann: User, client: Client
) -> None:
    page = client.get(reverse("games:create")).content.decode()
    assert "Play against a robot now" in page
    for name in ("Robot Beginner", "Robot Casual", "Robot Club", "Robot Expert"):
        assert name in page
    # The levels no longer on the ladder are offered nowhere.
    assert "Robot Greedy" not in page and "Robot Strong" not in page
    assert 'name="robots"' in page and 'name="takeover_level"' in page
    for kind in kinds.all():
        assert kind.robots is not None
        assert f'<h2 class="robot-levels-game">{kind.label}</h2>' in page
        for rung, own in kind.robots.ladder.items():
            assert escape(kind.robots.levels[own].description) in page, (kind.name, rung)
    assert "Blockers has no Club robot." in page and "Tumble-Words has no Club robot." in page


def test_the_create_pages_robot_form_as_set_by_default_starts_a_game(
    ann: User, client: Client
) -> None:
    """It preselected "strong" and answered "There is no robot of the level 'strong'"."""
    page = client.get(reverse("games:create")).content.decode()
    [shown] = forms_to(page, reverse("games:play_robot"))
    assert (shown["kind"], shown["level"]) == (kinds.DEFAULT, kinds.DEFAULT_RUNG)
    response = client.post(reverse("games:play_robot"), shown)
    game = Game.objects.get()
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert game.status == Game.Status.PLAYING and game.rated
    robot = game.seats.get(index=1).user
    assert robot is not None and robot.public_name == "Robot Casual"


@pytest.mark.parametrize("kind", KINDS)
def test_one_click_on_the_dashboard_starts_a_game_against_a_robot_of_each_kind(
    kind: str, ann: User, client: Client
) -> None:
    dashboard = client.get(reverse("games:dashboard")).content.decode()
    buttons = forms_to(dashboard, reverse("games:play_robot"))
    assert [b["kind"] for b in buttons] == KINDS
    [sent] = [b for b in buttons if b["kind"] == kind]
    assert set(sent) == {"csrfmiddlewaretoken", "kind", "level"}
    label = kinds.get(kind).label
    assert f">Play {label}</button>" in dashboard
    response = client.post(reverse("games:play_robot"), sent)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    fewest = max(2, kinds.get(kind).min_players)  # Blockers: three
    assert (game.kind, game.status, game.seat_count) == (kind, Game.Status.PLAYING, fewest)
    seats = list(game.seats.order_by("index").select_related("user"))
    assert seats[0].user == ann
    levels = [s.user.robot_level for s in seats[1:] if s.user is not None]
    assert levels == ["casual", "beginner"][: fewest - 1]
    page = client.get(response["Location"]).content.decode()
    assert "Robot Casual" in page
    assert "Robot Casual" in client.get(reverse("games:dashboard")).content.decode()


@pytest.mark.parametrize("kind", KINDS)
def test_the_home_page_offers_each_game_and_asks_a_visitor_to_sign_in_first(
    kind: str, client: Client
) -> None:
    home = client.get(reverse("games:home")).content.decode()
    buttons = forms_to(home, reverse("games:play_robot"))
    assert [b["kind"] for b in buttons] == KINDS
    assert all("csrfmiddlewaretoken" in b for b in buttons)
    [sent] = [b for b in buttons if b["kind"] == kind]
    response = client.post(reverse("games:play_robot"), sent)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:sign_in"))
    assert not Game.objects.exists()
    # Signed in, the link it was sent on lands on the create page with that game chosen.
    back = response["Location"].partition("next=")[2]
    assert unquote(back) == f"{reverse('games:create')}?robot={kind}"
    user = User.objects.create_user(username="zed", email="zed@example.com", display_name="Zed")
    client.force_login(user)
    page = client.get(unquote(back)).content.decode()
    [shown] = forms_to(page, reverse("games:play_robot"))
    assert shown["kind"] == kind


def test_a_level_a_game_lacks_is_refused_naming_its_levels(ann: User, client: Client) -> None:
    response = client.post(
        reverse("games:play_robot"), {"kind": "tumble", "level": "club"}, follow=True
    )
    assert not Game.objects.exists()
    page = response.content.decode()
    assert "Tumble-Words has no Club robot: its robots are Beginner, Casual and Expert." in page
    with pytest.raises(
        projection.ServiceError, match="its robot levels are beginner, casual, club and expert"
    ):
        lobby.play_against_robot(ann, "greedy", kind="crossword")
    assert not Game.objects.exists()


def test_a_created_game_seats_the_robots_chosen(ann: User, client: Client) -> None:
    form = form_data(seat_count="3", robots=["club"], robot_pace="human", takeover_level="expert")
    response = client.post(reverse("games:create"), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    seats = list(game.seats.order_by("index"))
    assert [s.user for s in seats[:2]] == [ann, User.objects.get(robot_level="club")]
    assert seats[2].invited_email == "bob@example.com"
    assert (game.robot_pace, game.takeover_level) == ("human", "expert")
    assert game.status == Game.Status.OPEN


def test_a_level_off_the_ladder_is_refused_by_the_create_form(ann: User, client: Client) -> None:
    response = client.post(reverse("games:create"), form_data(robots=["greedy"]))
    assert response.status_code == 400
    assert not Game.objects.exists()
