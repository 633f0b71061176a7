"""Every kind through the API: a game created by API (open, and against
robots where the kind has them), viewed as the seat's own view, previewed,
moved, its log read without private fields, a refusal answered with a code,
and no answer to any viewer showing another seat's hand."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from accounts import access_tokens
from accounts.models import User
from games import kinds
from games.core.projection import kind_of, load_events
from games.kinds.base import GameKind
from games.models import Event, Game
from tests import leaks
from tests.api.conftest import ApiClient

from .play import a_move, seat_user, to_move

pytestmark = pytest.mark.django_db


def api_of(user: User) -> ApiClient:
    return ApiClient(access_tokens.make(user, "contract").token)


def values(data: Any) -> list[Any]:
    """Every list and scalar in a JSON value, depth first."""
    if isinstance(data, dict):
        return [v for value in data.values() for v in [value, *values(value)]]
    if isinstance(data, list):
        return [v for value in data for v in [value, *values(value)]]
    return []


def test_a_game_is_created_by_api_open_and_against_robots(
    kind: GameKind, make_user: Callable[[str], User]
) -> None:
    api = api_of(make_user("ann"))
    opened = api.post("/games", {"kind": kind.name, "seats": kind.min_players, "open": True})
    assert opened.status == 201, opened.text
    assert opened.json["kind"] == kind.name and opened.json["status"] == "open"
    robots = list(kinds.robot_levels(kind))[: kind.min_players - 1]
    if len(robots) < kind.min_players - 1:
        pytest.skip(f"{kind.label} has too few robot levels to fill a game")
    made = api.post("/games", {"kind": kind.name, "seats": kind.min_players, "robots": robots})
    assert made.status == 201, made.text
    assert made.json["status"] == "playing" and made.json["your_seat"] == 0
    view = api.get(f"/games/{made.json['id']}/view")
    assert view.status == 200 and view.json["seat"] == 0


def test_a_game_is_viewed_previewed_and_moved_by_api(
    contract_game: Callable[..., Game],
) -> None:
    game = contract_game()
    seat = to_move(game)
    api = api_of(seat_user(game, seat))
    base = f"/games/{game.pk}"
    view = api.get(f"{base}/view").json
    assert view["seat"] == seat and view["seq"] == game.last_seq
    move = a_move(game, seat)
    assert api.post(f"{base}/preview", {"move": move}).json["refused"] is False
    made = api.post(f"{base}/moves", {"move": move, "expected_seq": game.last_seq})
    assert made.status == 200, made.text
    assert game.events.order_by("seq").last().source == Event.Source.API  # type: ignore[union-attr]
    log = api.get(f"{base}/events").json
    assert len(log["events"]) == game.events.count()
    kind = kind_of(game)
    for shown, event in zip(log["events"], load_events(game), strict=True):
        assert not set(kind.private_fields(event)) & set(shown["payload"]), shown
    game.refresh_from_db()
    refused = api.post(f"{base}/moves", {"move": "not a move", "expected_seq": game.last_seq})
    assert refused.status == 422 and set(refused.json) == {"code", "message"}


def test_no_api_answer_shows_another_seat_s_hand(
    contract_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = contract_game(is_public=True)
    hidden = leaks.hands(game)
    viewers: list[tuple[int | None, ApiClient]] = [
        (s, api_of(seat_user(game, s))) for s in range(game.seat_count)
    ]
    viewers.append((None, api_of(make_user("eve"))))
    base = f"/games/{game.pk}"
    for seat, api in viewers:
        others = {s: hand for s, hand in hidden.items() if s != seat}
        answers = [api.get(p).json for p in ("/games", base, f"{base}/view", f"{base}/events")]
        answers.append(api.post(f"{base}/preview", {"move": "pass"}).json)
        answers.append(api.post(f"{base}/moves", {"move": "not a move", "expected_seq": 1}).json)
        for answer in answers:
            text = json.dumps(answer)
            assert not leaks.leaks(text, others), (seat, text)
            held = [sorted(str(c) for c in v) for v in values(answer) if isinstance(v, list)]
            for hand in others.values():
                assert len(hand) < 2 or sorted(hand) not in held, (seat, text)
        if seat is not None and len(hidden[seat]) >= 2:  # the check sees hands: the own is there
            view = answers[2]
            held = [sorted(str(c) for c in v) for v in values(view) if isinstance(v, list)]
            strings = [v for v in values(view) if isinstance(v, str)]
            own = hidden[seat]
            assert sorted(own) in held or sorted("".join(own)) in [sorted(v) for v in strings]
