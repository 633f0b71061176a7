"""Reading games through the API: my games, a game, its seat view, its public
log and the long poll; creating and joining games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games.engine.jumbulaya.view import read_view
from games.models import Game
from tests.api.conftest import ApiClient


def test_my_games_lists_mine_to_move_first_and_my_invitations(
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    first = started_game()
    ann = first.seats.get(index=0).user
    assert ann is not None
    # A second game where Ann is to move, and one that invites her.
    second = started_game_of(ann, make_user("zed"))
    cy = make_user("cy")
    api_for(cy).post("/games", {"seats": 2, "invite": [ann.email]})
    listed = api_for(ann).get("/games").json
    ids = [g["id"] for g in listed["games"]]
    assert set(ids) == {first.pk, second.pk}
    mine = [g for g in listed["games"] if g["your_turn"]]
    assert ids[: len(mine)] == [g["id"] for g in mine]
    assert [i["by"] for i in listed["invitations"]] == ["Cy"]
    assert all("rack" not in str(g) for g in listed["games"])


def started_game_of(a: User, b: User) -> Game:
    from games.core.lobby import create_game, join_game
    from games.engine.jumbulaya import PRESETS

    game = create_game(a, seat_count=2, rules=PRESETS["official"], invite_emails=[b.email])
    join_game(game.pk, b)
    game.refresh_from_db()
    return game


def test_a_game_and_its_seat_view_as_the_robot_protocol_reads_it(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, 1)
    head = api.get(f"/games/{game.pk}").json
    assert head["your_seat"] == 1 and head["seq"] == 1 and head["status"] == "playing"
    assert [p["name"] for p in head["players"]] == ["Ann", "Bob"]
    view = api.get(f"/games/{game.pk}/view").json
    assert view["format"] == "jumbulaya-view/1" and view["seat"] == 1 and view["seq"] == 1
    read = read_view(view)  # the robots' own reader takes it, seq and all
    assert len(read.rack) == 5 and read.seat == 1


def test_a_spectator_sees_a_public_game_without_a_rack(
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    game = started_game(is_public=True)
    eve = api_for(make_user("eve"))
    assert eve.get(f"/games/{game.pk}").json["your_seat"] is None
    view = eve.get(f"/games/{game.pk}/view").json
    assert view["seat"] is None and view["rack"] is None


def test_a_game_waiting_for_players_has_no_view_yet(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    ann = api_for(make_user("ann"))
    made = ann.post("/games", {"seats": 2, "open": True})
    assert made.status == 201 and made.json["status"] == "open"
    answer = ann.get(f"/games/{made.json['id']}/view")
    assert (answer.status, answer.json["code"]) == (409, "not_started")


def test_the_log_since_a_seq_gives_public_events_and_their_words(
    canary_game: Callable[[], Any], seat_api: Callable[..., ApiClient]
) -> None:
    game = canary_game().game
    api = seat_api(game, 0)
    log = api.get(f"/games/{game.pk}/events", after=2).json
    assert log["seq"] == 5 and log["status"] == "playing"
    assert [e["seq"] for e in log["events"]] == [3, 4, 5]
    assert [e["type"] for e in log["events"]] == ["word_built", "exchanged", "passed"]
    exchanged = log["events"][1]
    assert exchanged["seat"] == 2 and "tiles" not in exchanged["payload"]
    assert "drawn" not in str(log["events"])
    assert [line["seq"] for line in log["log"]] == [3, 4, 5]
    assert "Bob played CATS on line 1" in log["log"][0]["words"]


def test_a_game_created_with_a_robot_starts_at_once(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    ann = api_for(make_user("ann"))
    made = ann.post(
        "/games",
        {"seats": 2, "robots": ["casual"], "preset": "boardspace", "options": {"rack_limit": 3}},
    )
    assert made.status == 201, made.text
    game = Game.objects.get(pk=made.json["id"])
    assert game.status == "playing" and game.rules["preset"] == "boardspace"
    assert game.rules["rack_limit"] == 3
    assert [p["name"] for p in made.json["players"]] == ["Ann", "Robot Casual"]


def test_a_rated_game_is_created_rated_and_says_so(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    ann = api_for(make_user("ann"))
    made = ann.post("/games", {"seats": 2, "robots": ["casual"], "rated": True})
    assert made.status == 201, made.text
    assert made.json["rated"] is True and made.json["hints"] is False
    assert Game.objects.get(pk=made.json["id"]).rated
    casual = ann.post("/games", {"seats": 2, "robots": ["casual"], "hints": True}).json
    assert casual["rated"] is False and casual["hints"] is True
    assert not Game.objects.get(pk=casual["id"]).rated
    assert ann.get(f"/games/{made.json['id']}").json["rated"] is True


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": 5, "open": True}, "seat_count"),
        ({"seats": 2}, "invite more friends"),
        ({"seats": 2, "open": True, "options": {"colour": "red"}}, "no option colour"),
        ({"seats": 2, "open": True, "preset": "chess"}, "no preset 'chess'"),
        ({"seats": 2, "open": True, "kind": "chess"}, "no game kind 'chess'"),
        ({"seats": 2, "invite": ["not an address"]}, "not an email address"),
        ({"seats": 2, "open": True, "move_hours": 0}, "move_hours"),
        ({"seats": 2, "robots": ["grandmaster"]}, "robots"),
        ({"seats": 2, "open": True, "rated": True, "hints": True}, "Hints are off in rated"),
    ],
)
def test_a_game_the_new_game_page_would_refuse_is_a_400(
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
    body: dict[str, Any],
    words: str,
) -> None:
    answer = api_for(make_user("ann")).post("/games", body)
    assert answer.status == 400 and answer.json["code"] == "bad_request"
    assert words in answer.json["message"]
    assert not Game.objects.exists()


def test_an_invited_bot_joins_and_the_game_starts(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    bot = make_user("botty")
    User.objects.filter(pk=bot.pk).update(is_bot=True)
    ann = api_for(make_user("ann"))
    made = ann.post("/games", {"seats": 2, "invite": [bot.email]}).json
    bot_api = api_for(bot)
    assert bot_api.get("/games").json["invitations"][0]["game"] == made["id"]
    joined = bot_api.post(f"/games/{made['id']}/join")
    assert joined.status == 200, joined.text
    assert joined.json["status"] == "playing" and joined.json["your_seat"] == 1
    assert joined.json["players"][1]["name"] == "Botty (bot)"
    again = bot_api.post(f"/games/{made['id']}/join")
    assert (again.status, again.json["code"]) == (409, "cannot_join")


def test_a_game_with_no_seat_for_you_is_a_404_to_join(
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
) -> None:
    game = started_game()
    eve = api_for(make_user("eve"))
    for pk in (game.pk, 999_999):
        answer = eve.post(f"/games/{pk}/join")
        assert (answer.status, answer.json["code"]) == (404, "not_found")
