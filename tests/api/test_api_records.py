"""Records through the API: a finished game's record down, a record up to
replay, as the download and upload pages do."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from django.test import Client

from accounts.models import User
from games.core.records import MAX_UPLOAD_BYTES
from games.engine import PRESETS, deal, lexicon_from_words, write_record
from games.models import Game, RecordUpload
from tests.api.conftest import ApiClient

WORDS = ["ACT", "CAT", "FACT", "FACTS"]


def a_record() -> dict[str, Any]:
    """A dealt game with its own word list: two passes, then a resignation."""
    started = deal(
        ("Zed", "Yolanda"), PRESETS["official"], lexicon_from_words(WORDS), random.Random(7), 0
    )
    record = write_record([started], lexicon={"words": WORDS})
    record["turns"] = [
        {"seat": 0, "move": "pass"},
        {"seat": 1, "move": "pass"},
        {"seat": 0, "move": "resign"},
    ]
    return record


def test_a_record_is_given_once_the_game_is_over_as_the_download_gives_it(
    started_game: Callable[..., Game], seat_api: Callable[..., ApiClient]
) -> None:
    game = started_game()
    api = seat_api(game, 0)
    early = api.get(f"/games/{game.pk}/record")
    assert (early.status, early.json["code"]) == (409, "not_over")
    assert "once the game is over" in early.json["message"]
    assert api.post(f"/games/{game.pk}/resign", {}).status == 200
    record = api.get(f"/games/{game.pk}/record")
    assert record.status == 200 and record.json["format"] == "jumbulaya-record/1"
    page = Client()
    page.force_login(game.seats.get(index=0).user)
    assert json.loads(page.get(f"/games/{game.pk}/record.json").content) == record.json


def test_an_uploaded_record_is_replayed_and_kept_for_its_owner(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    ann = make_user("ann")
    answer = api_for(ann).post("/records", a_record())
    assert answer.status == 201, answer.text
    stored = RecordUpload.objects.get(owner=ann)
    assert answer.json == {
        "id": stored.pk,
        "name": "record.json",
        "players": ["Zed", "Yolanda"],
        "turns": 3,
        "end": "resigned",
        "refusal": None,
        "replay_url": f"/records/{stored.pk}/",
    }


def test_a_record_refused_at_a_turn_is_kept_and_says_which(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    record = a_record()
    record["turns"][1] = {"seat": 0, "move": "pass"}  # seat 1's turn
    answer = api_for(make_user("ann")).post("/records", record)
    assert answer.status == 201
    assert answer.json["refusal"].startswith("Turn 2 of the record, Zed playing “pass”")


def test_a_malformed_or_too_large_record_is_refused_and_nothing_kept(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    api = api_for(make_user("ann"))
    broken = api.post("/records", raw=b"{not json")
    assert (broken.status, broken.json["code"]) == (400, "bad_record")
    other = api.post("/records", {"format": "chess-record/1"})
    assert (other.status, other.json["code"]) == (400, "bad_record")
    big = api.post("/records", raw=b" " * (MAX_UPLOAD_BYTES + 70_000) + b"{}")
    assert (big.status, big.json["code"]) == (413, "too_large")
    assert not RecordUpload.objects.exists()
