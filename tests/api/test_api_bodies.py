"""Request bodies: JSON objects of the documented shape, sent as
``application/json``.  Anything else is a 4xx JSON answer with a stable code
and changes nothing: a body sent as text/plain or a form (415), a body that
is not JSON, not an object, or holds a field the route does not know or a
number out of range (400)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Event, Game, RecordUpload
from tests.api.conftest import API, ApiClient


def moves_of(game: Game) -> list[str]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("type", flat=True))


@pytest.mark.parametrize(
    "body",
    [b"[null, null]", b'"please"', b"5", b"null", b"true", b'{"expected_seq": 1, "why": "bored"}'],
)
def test_a_resignation_whose_body_is_not_the_documented_object_is_refused(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient], body: bytes
) -> None:
    game = started_game()
    answer = seat_api(game, 0).post(f"/games/{game.pk}/resign", raw=body)
    assert (answer.status, answer.json["code"]) == (400, "bad_request"), answer.text
    assert moves_of(game) == ["game_started"]
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


@pytest.mark.parametrize("body", [b"", b"{}", b'{"expected_seq": 1}'])
def test_a_resignation_with_no_body_or_the_documented_one_resigns(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient], body: bytes
) -> None:
    game = started_game()
    client = seat_api(game, 0)
    answer = client._answer(
        client.client.post(
            f"{API}/games/{game.pk}/resign",
            body,
            content_type="application/json",
            headers=client._headers(None),
        )
    )
    assert answer.status == 200, answer.text
    assert moves_of(game)[-1] == "resigned"


def test_the_refusals_say_what_is_wrong(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, 0)
    said = {
        body: api.post(f"/games/{game.pk}/resign", raw=body).json["message"]
        for body in (b"[1]", b'{"why": 1}', b"{not json", b'{"expected_seq": 9223372036854775808}')
    }
    assert said == {
        b"[1]": "the body: send a JSON object, as the docs show",
        b'{"why": 1}': "why: there is no such field",
        b"{not json": "The body is not JSON.",
        b'{"expected_seq": 9223372036854775808}': (
            "expected_seq: Input should be less than or equal to 9223372036854775807"
        ),
    }


def routes_with_bodies(game: Game) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"/games/{game.pk}/moves", {"move": "pass", "expected_seq": 1}),
        (f"/games/{game.pk}/resign", {}),
        (f"/games/{game.pk}/preview", {"move": "pass"}),
        (f"/games/{game.pk}/invite", {"emails": ["zed@example.com"]}),
        ("/games", {"seats": 2, "open": True}),
        ("/records", {"format": "jumbulaya-record/1"}),
    ]


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/xml", "application/jsonx"],
)
def test_a_body_sent_as_anything_but_json_is_a_415_on_every_route_that_takes_one(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient], content_type: str
) -> None:
    game = started_game()
    api = seat_api(game, 0)
    for path, body in routes_with_bodies(game):
        answer = api.client.post(
            f"{API}{path}",
            json.dumps(body),
            content_type=content_type,
            headers=api._headers(None),
        )
        assert answer.status_code == 415, (path, answer.content)
        assert answer.json()["code"] == "unsupported_media_type"
        assert "application/json" in answer.json()["message"]
    assert moves_of(game) == ["game_started"]
    assert Game.objects.count() == 1 and not RecordUpload.objects.exists()


def test_json_with_a_charset_is_json(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, 0)
    answer = api.client.post(
        f"{API}/games/{game.pk}/resign",
        b"{}",
        content_type="Application/JSON; charset=utf-8",
        headers=api._headers(None),
    )
    assert answer.status_code == 200, answer.content


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("moves", {"move": "pass", "expected_seq": 2**63}),
        ("moves", {"move": "pass", "expected_seq": -1}),
        ("moves", {"move": ["pass"], "expected_seq": 1}),
        ("moves", {"move": "pass", "expected_seq": 1, "seat": 1}),
        ("preview", {"move": 7}),
        ("invite", {"emails": "zed@example.com"}),
        ("resign", {"expected_seq": 10**30}),
    ],
)
def test_a_field_of_the_wrong_type_or_range_is_a_400(
    started_game: Callable[..., Game],
    seat_api: Callable[..., ApiClient],
    path: str,
    body: dict[str, Any],
) -> None:
    game = started_game()
    answer = seat_api(game, game.turn_seat).post(f"/games/{game.pk}/{path}", body)
    assert (answer.status, answer.json["code"]) == (400, "bad_request"), answer.text
    assert moves_of(game) == ["game_started"]


@pytest.mark.parametrize(
    "body",
    [
        {"seats": 2**63, "open": True},
        {"seats": "two", "open": True},
        {"seats": 2, "open": True, "timeout_limit": 2**70},
        {"seats": 2, "open": True, "move_hours": 1e308},
        {"seats": 2, "open": True, "options": {"rack_limit": 2**70}},
        {"seats": 2, "open": True, "options": "official"},
        {"seats": 2, "open": True, "invite": "zed@example.com"},
        {"seats": 2, "open": True, "players": 2},
    ],
)
def test_a_game_asked_for_with_a_wrong_field_is_a_400(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient], body: dict[str, Any]
) -> None:
    answer = api_for(make_user("ann")).post("/games", body)
    assert (answer.status, answer.json["code"]) == (400, "bad_request"), answer.text
    assert not Game.objects.exists()


def test_without_a_token_a_body_sent_as_text_is_a_401_first(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    answer = Client().post(f"{API}/games/{game.pk}/resign", "x", content_type="text/plain")
    assert answer.status_code == 401 and answer.json()["code"] == "unauthorized"
