"""The API serves a kind without robots (high card) as it serves JUMBULAYA: its
state as its presentation's seat view, its moves through the one door, its
log without private fields, and no answer shows another seat's hand."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from accounts import access_tokens
from accounts.models import User
from games.models import Event, Game
from tests import leaks
from tests.api.conftest import ApiClient


def api_of(game: Game, seat: int) -> ApiClient:
    user = game.seats.get(index=seat).user
    assert user is not None
    return ApiClient(access_tokens.make(user, "test").token)


def values(data: Any) -> list[Any]:
    """Every list and scalar in a JSON value, depth first."""
    if isinstance(data, dict):
        return [v for value in data.values() for v in [value, *values(value)]]
    if isinstance(data, list):
        return [v for value in data for v in [value, *values(value)]]
    return []


def test_a_card_game_is_viewed_and_played_through_the_api(
    card_game: Callable[..., Game],
) -> None:
    game = card_game()
    seat = game.turn_seat
    assert seat is not None
    api = api_of(game, seat)
    view = api.get(f"/games/{game.pk}/view").json
    assert view["format"] == "highcard-board" and view["seat"] == seat and view["seq"] == 1
    assert [str(c) for c in view["board"]["hand"]] == list(leaks.hands(game)[seat])
    move = leaks.legal_moves(game, seat)[0]
    assert api.post(f"/games/{game.pk}/preview", {"move": move}).json["refused"] is False
    made = api.post(f"/games/{game.pk}/moves", {"move": move, "expected_seq": 1})
    assert made.status == 200, made.text
    assert Event.objects.get(game=game, seq=2).source == Event.Source.API
    log = api.get(f"/games/{game.pk}/events").json
    assert [e["type"] for e in log["events"]] == ["dealt", "played"]
    assert "hands" not in log["events"][0]["payload"]
    refused = api.post(f"/games/{game.pk}/moves", {"move": move, "expected_seq": 2})
    assert refused.status == 422 and set(refused.json) == {"code", "message"}


def test_no_api_answer_shows_another_seats_hand(
    card_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = card_game(players=3, is_public=True)
    hidden = leaks.hands(game)
    viewers: list[tuple[int | None, ApiClient]] = [(s, api_of(game, s)) for s in range(3)]
    eve = make_user("eve")
    viewers.append((None, ApiClient(access_tokens.make(eve, "test").token)))
    base = f"/games/{game.pk}"
    for seat, api in viewers:
        others = {s: hand for s, hand in hidden.items() if s != seat}
        answers = [api.get(p).json for p in ("/games", base, f"{base}/view", f"{base}/events")]
        answers.append(api.post(f"{base}/preview", {"move": "pass"}).json)
        answers.append(api.post(f"{base}/moves", {"move": "play 99", "expected_seq": 1}).json)
        for answer in answers:
            text = json.dumps(answer)
            assert not leaks.leaks(text, others), (seat, text)
            held = [sorted(str(c) for c in v) for v in values(answer) if isinstance(v, list)]
            for hand in others.values():
                assert sorted(hand) not in held, (seat, text)
        view = answers[2]
        if seat is None:
            assert view["board"]["hand"] is None
        else:  # the check above would see a hand: the seat's own is in its view
            assert tuple(str(c) for c in view["board"]["hand"]) == hidden[seat]
            held = [sorted(str(c) for c in v) for v in values(view) if isinstance(v, list)]
            assert sorted(hidden[seat]) in held
