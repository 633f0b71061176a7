"""``POST /games/{id}/invite``: the game page's invitation box through the API,
with the API's error shapes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from accounts.models import User
from games.core.lobby import create_game, join_game
from games.engine.jumbulaya import PRESETS
from games.mail_out import outbox
from games.models import Game
from tests.api.conftest import ApiClient


def open_game(creator: User, seats: int = 3, public: bool = False) -> Game:
    return create_game(
        creator, seat_count=seats, rules=PRESETS["official"], is_open=True, is_public=public
    )


def test_a_player_invites_and_the_invitation_is_emailed(
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
    mailoutbox: list[Any],
) -> None:
    ann = make_user("ann")
    game = open_game(ann)
    answer = api_for(ann).post(f"/games/{game.pk}/invite", {"emails": ["Bob@example.com"]})
    assert answer.status == 200, answer.text
    assert answer.json["id"] == game.pk and answer.json["status"] == "open"
    assert [s.invited_email for s in game.seats.order_by("index")] == ["", "bob@example.com", ""]
    assert outbox.sweep() == 1
    assert mailoutbox[0].to == ["bob@example.com"]
    bob = make_user("bob")
    assert [i["by"] for i in api_for(bob).get("/games").json["invitations"]] == ["Ann"]


def test_refusals_are_the_apis_errors(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient], settings: Any
) -> None:
    ann = make_user("ann")
    game = open_game(ann, seats=3, public=True)
    api = api_for(ann)
    path = f"/games/{game.pk}/invite"

    bad = api.post(path, {"emails": ["nobody"]})
    assert (bad.status, bad.json["code"]) == (400, "bad_request")
    assert "is not an email address" in bad.json["message"]
    assert api.post(path, {}).status == 400  # no "emails"

    full = api.post(path, {"emails": ["a@example.com", "b@example.com", "c@example.com"]})
    assert (full.status, full.json["code"]) == (409, "cannot_invite")

    settings.JUMBULAYA_INVITATIONS_PER_DAY = 1
    api.post(path, {"emails": ["a@example.com"]})
    over = api.post(path, {"emails": ["b@example.com"]})
    assert (over.status, over.json["code"]) == (409, "over_limit")

    eve = api_for(make_user("eve"))
    watching = eve.post(path, {"emails": ["b@example.com"]})
    assert (watching.status, watching.json["code"]) == (403, "not_yours")
    private = open_game(ann)
    hidden = eve.post(f"/games/{private.pk}/invite", {"emails": ["b@example.com"]})
    assert (hidden.status, hidden.json["code"]) == (404, "not_found")

    join_game(game.pk, make_user("cy"))
    join_game(game.pk, make_user("a"))  # the last seat: the game starts
    started = api.post(path, {"emails": ["b@example.com"]})
    assert (started.status, started.json["code"]) == (409, "cannot_invite")
    assert "has started" in started.json["message"]
    assert ApiClient(None).post(path, {"emails": ["b@example.com"]}).status == 401


def test_the_openapi_document_has_the_invitation(api_for: Callable[[User], ApiClient]) -> None:
    spec = ApiClient(None).get("/openapi.json").json
    operation = spec["paths"]["/api/v1/games/{game_id}/invite"]["post"]
    assert set(operation["responses"]) >= {"200", "400", "401", "403", "404", "409", "429"}
