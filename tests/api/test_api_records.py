"""Records through the API: a finished game's record down, a record up to
replay, as the download and upload pages do, within the same limits; one's
uploads listed and deleted."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from django.test import Client

from accounts.models import User
from games.core.records import MAX_UPLOAD_BYTES
from games.engine.jumbulaya import PRESETS, deal, lexicon_from_words, write_record
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
        "size": len(json.dumps(a_record())),
        "uploaded_at": stored.created_at.isoformat(),
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


def test_uploads_past_the_days_limit_are_refused_and_nothing_kept(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    """The review's run: 30 uploads of 300 kB in a row, under the default limits."""
    api = api_for(make_user("ann"))
    body = json.dumps(a_record()).encode()
    padded = body + b" " * (300 * 1024 - len(body))
    answers = [api.post("/records", raw=padded) for _ in range(30)]
    assert [a.status for a in answers] == [201] * 20 + [409] * 10
    refused = answers[-1].json
    assert refused["code"] == "over_limit"
    assert refused["message"].startswith(
        "One account may upload 20 records a day (that many at once, then one every 72 "
        "minutes): you can upload another from "
    )
    assert RecordUpload.objects.count() == 20


def test_an_upload_past_the_room_is_refused_until_one_is_deleted(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient], settings: Any
) -> None:
    settings.JUMBULAYA_RECORD_STORAGE_MB = 1
    api = api_for(make_user("ann"))
    body = json.dumps(a_record()).encode()
    big = body + b" " * (700 * 1024 - len(body))
    first = api.post("/records", raw=big)
    assert first.status == 201 and first.json["size"] == 700 * 1024
    over = api.post("/records", raw=big)
    assert (over.status, over.json["code"]) == (409, "over_limit")
    assert over.json["message"].startswith("Your uploaded records take 700 KB of the 1 MB ")
    assert RecordUpload.objects.count() == 1
    assert api.delete(f"/records/{first.json['id']}").status == 204
    assert api.post("/records", raw=big).status == 201


def test_ones_uploads_are_listed_with_the_limits_and_deleted_by_their_owner_only(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient], settings: Any
) -> None:
    settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY = 5
    settings.JUMBULAYA_RECORD_STORAGE_MB = 2
    ann, eve = api_for(make_user("ann")), api_for(make_user("eve"))
    made = [ann.post("/records", a_record()).json for _ in range(2)]
    listed = ann.get("/records").json
    assert [r["id"] for r in listed["records"]] == [made[1]["id"], made[0]["id"]]
    assert listed["records"][0] == made[1]
    assert listed["stored_bytes"] == 2 * made[0]["size"]
    assert (listed["room_bytes"], listed["uploads_per_day"]) == (2 * 1024 * 1024, 5)
    assert eve.get("/records").json["records"] == []
    refused = eve.delete(f"/records/{made[0]['id']}")
    assert (refused.status, refused.json["code"]) == (404, "not_found")
    assert ann.delete(f"/records/{made[0]['id']}").status == 204
    again = ann.delete(f"/records/{made[0]['id']}")
    assert (again.status, again.json["code"]) == (404, "not_found")
    assert [r["id"] for r in ann.get("/records").json["records"]] == [made[1]["id"]]
