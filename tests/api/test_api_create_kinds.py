"""Creating a game of every registered kind through the API, as the new-game
page does: each kind's form has its own fields (no word list for Blockers,
no claim window but JUMBULAYA's), and a field a kind has no use for is refused
rather than ignored."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games import kinds
from games.kinds.base import GameKind
from games.models import Event, Game
from tests.api.conftest import ApiClient

KINDS = [pytest.param(kind, id=kind.name) for kind in kinds.all()]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_an_open_game_of_every_kind_is_created(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient], kind: GameKind
) -> None:
    answer = api_for(make_user("ann")).post(
        "/games", {"kind": kind.name, "seats": kind.min_players, "open": True}
    )
    assert answer.status == 201, answer.text
    assert answer.json["kind"] == kind.name and answer.json["status"] == "open"
    game = Game.objects.get(pk=answer.json["id"])
    assert game.kind == kind.name and game.seats.count() == kind.min_players


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_game_of_every_kind_with_robots_starts_and_is_played_by_api(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient], kind: GameKind
) -> None:
    api = api_for(make_user("ann"))
    robots = list(kinds.robot_levels(kind))[: kind.min_players - 1]
    made = api.post("/games", {"kind": kind.name, "seats": kind.min_players, "robots": robots})
    assert made.status == 201, made.text
    assert made.json["status"] == "playing" and made.json["your_seat"] == 0
    assert len(made.json["players"]) == kind.min_players
    game_id = made.json["id"]
    view = api.get(f"/games/{game_id}/view")
    assert view.status == 200 and view.json["seat"] == 0
    resigned = api.post(f"/games/{game_id}/resign", {})
    assert resigned.status == 200, resigned.text
    last = Event.objects.filter(game_id=game_id).order_by("seq").last()
    assert last is not None and (last.type, last.seat) == ("resigned", 0)


def kinds_without(option: str) -> list[GameKind]:
    return [
        kind
        for kind in kinds.all()
        if {"lexicon": kind.uses_word_list, "claim_window": kind.window is not None}[option]
        is False
    ]


@pytest.mark.parametrize(
    ("field", "value", "kind"),
    [
        pytest.param(field, value, kind, id=f"{field}-{kind.name}")
        for field, value in (("lexicon", "default"), ("claim_window", False))
        for kind in kinds_without(field)
    ],
)
def test_a_field_the_kind_has_no_use_for_is_refused(
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
    field: str,
    value: object,
    kind: GameKind,
) -> None:
    answer = api_for(make_user("ann")).post(
        "/games", {"kind": kind.name, "seats": kind.min_players, "open": True, field: value}
    )
    assert (answer.status, answer.json["code"]) == (400, "bad_request")
    assert answer.json["message"] == f"A game of {kind.label} has no {field}: leave it out."
    assert not Game.objects.exists()


def test_every_case_above_has_kinds_to_run_on() -> None:
    """Blockers plays no words, and only JUMBULAYA seals calls."""
    assert {k.name for k in kinds_without("lexicon")} >= {"blockers"}
    assert {k.name for k in kinds_without("claim_window")} >= {"crossword", "blockers", "tumble"}
