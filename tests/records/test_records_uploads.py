"""Uploading a game record and replaying it."""

from __future__ import annotations

import html
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import games.engine.jumbulaya.record as record_module
from accounts.models import User
from games.core.records import (
    MAX_INLINE_LETTERS,
    MAX_INLINE_WORDS,
    MAX_UPLOAD_BYTES,
    MAX_UPLOAD_REQUEST_BYTES,
)
from games.engine.jumbulaya import PRESETS, WordListText, deal, lexicon_from_words, write_record
from games.models import RecordUpload

WORDS = ["ACT", "CAT", "FACT", "FACTS"]


def text(response: Any) -> str:
    """The page as a reader sees it (entities such as &#x27; decoded)."""
    return html.unescape(response.content.decode())


@pytest.fixture
def ann(client: Client, make_user: Callable[[str], User]) -> User:
    user = make_user("ann")
    client.force_login(user)
    return user


def a_record(seed: int = 7) -> dict[str, Any]:
    """A dealt game with an inline word list: two passes, then a resignation."""
    started = deal(
        ("Zed", "Yolanda"), PRESETS["official"], lexicon_from_words(WORDS), random.Random(seed), 0
    )
    record = write_record([started], lexicon={"words": WORDS})
    record["turns"] = [
        {"seat": 0, "move": "pass"},
        {"seat": 1, "move": "pass"},
        {"seat": 0, "move": "resign"},
    ]
    return record


def post(client: Client, data: bytes | dict[str, Any], name: str = "game.json") -> Any:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    upload = SimpleUploadedFile(name, body, content_type="application/json")
    return client.post(reverse("games:upload"), {"record": upload})


def test_the_upload_page_has_a_file_form(client: Client, ann: User) -> None:
    response = client.get(reverse("games:upload"))
    assert response.status_code == 200
    page = text(response)
    assert 'enctype="multipart/form-data"' in page and 'type="file"' in page
    assert "at most 1 MB (1,024 KB)" in page
    assert "lists its own words: at most 300 words of 2,000 letters in all." in page


def test_a_valid_record_is_stored_and_replayed(client: Client, ann: User) -> None:
    response = post(client, a_record())
    assert response.status_code == 302
    stored = RecordUpload.objects.get()
    assert response["Location"] == reverse("games:uploaded_replay", args=[stored.pk])
    assert stored.owner == ann and stored.name == "game.json"
    assert stored.players == ["Zed", "Yolanda"]
    assert stored.turn_count == 3 and stored.end == "resigned" and stored.refusal == ""

    page = text(client.get(response["Location"]))
    assert "Step 0 of 3" in page and "The deal." in page
    assert "Zed passed." in page and "Yolanda passed." in page and "Zed resigned." in page
    assert "The game is over:" in page and "Won by Yolanda" in page
    last = text(client.get(response["Location"], {"step": "3"}))
    assert "Step 3 of 3" in last
    assert "game.json" in text(client.get(reverse("games:upload")))


def test_a_downloaded_game_can_be_uploaded_again(
    client: Client, ann: User, make_user: Callable[[str], User]
) -> None:
    from games.core.door import submit
    from games.core.lobby import create_game, join_game

    bob = make_user("bob")
    game = create_game(ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email])
    join_game(game.pk, bob)
    game.refresh_from_db()
    submit(game.pk, game.turn_seat, "pass", game.last_seq, "web")  # type: ignore[arg-type]
    game.refresh_from_db()
    submit(game.pk, 0, "resign", game.last_seq, "web")
    record = client.get(reverse("games:download", args=[game.pk])).content
    response = post(client, record, name=f"jumbulaya-game-{game.pk}.json")
    assert response.status_code == 302
    page = text(client.get(response["Location"]))
    assert "Step 0 of 2" in page and "Ann resigned." in page


def test_a_record_refused_at_some_turn_is_stored_and_says_so(client: Client, ann: User) -> None:
    record = a_record()
    record["turns"][1] = {"seat": 0, "move": "pass"}  # not Zed's turn any more
    response = post(client, record)
    assert response.status_code == 302
    stored = RecordUpload.objects.get()
    assert stored.turn_count == 1 and stored.end == ""
    assert "Turn 2" in stored.refusal and "not_your_turn" in stored.refusal
    assert len(stored.record["turns"]) == 2  # kept up to the refused turn
    page = text(client.get(response["Location"]))
    assert "Step 0 of 1" in page
    assert "The record ends before the game is over." in page
    assert "Turn 2 of the record, Zed playing “pass”, was refused" in page


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not valid JSON"),
        (b"[]", "a record is a JSON object"),
        (json.dumps({"format": "jumbulaya-record/2"}).encode(), "'format' must be exactly"),
    ],
)
def test_a_malformed_file_is_refused_and_nothing_is_stored(
    client: Client, ann: User, body: bytes, words: str
) -> None:
    response = post(client, body)
    assert response.status_code == 400
    page = text(response)
    assert "This file is not a game record that can be replayed" in page
    assert words in page and "Nothing was stored." in page
    assert 'type="file"' in page  # the form again, with the message by it
    assert not RecordUpload.objects.exists()


def test_a_bad_record_is_refused(client: Client, ann: User) -> None:
    record = a_record()
    record["setup"]["bag"] = record["setup"]["bag"][1:]
    response = post(client, record)
    assert response.status_code == 400
    assert "exactly the 100-tile set" in text(response)
    assert not RecordUpload.objects.exists()


def test_a_malformed_turn_is_refused(client: Client, ann: User) -> None:
    record = a_record()
    record["turns"][1] = {"seat": 1}
    response = post(client, record)
    assert response.status_code == 400
    assert "(turn 2)" in text(response)
    assert not RecordUpload.objects.exists()


@pytest.mark.parametrize("name", ["nosuchlist", "No Such List!"])
def test_a_word_list_that_is_not_installed_is_a_bad_record(
    client: Client, ann: User, name: str
) -> None:
    record = a_record()
    record["lexicon"] = name
    del record["lexicon_sha256"]
    response = post(client, record)
    assert response.status_code == 400
    assert f"no word list named {name!r} is installed" in text(response)
    assert not RecordUpload.objects.exists()


def test_a_file_over_the_limit_is_refused(client: Client, ann: User) -> None:
    body = json.dumps(a_record()).encode()
    body += b" " * (MAX_UPLOAD_BYTES + 1 - len(body))
    response = post(client, body)
    assert response.status_code == 400
    assert "This file is 1,025 KB; a record file may be at most 1 MB" in text(response)
    assert not RecordUpload.objects.exists()


def test_posting_without_a_file_is_refused(client: Client, ann: User) -> None:
    response = client.post(reverse("games:upload"), {})
    assert response.status_code == 400
    assert "Choose a record file" in text(response)


def test_nobody_else_sees_an_upload(
    client: Client, ann: User, make_user: Callable[[str], User]
) -> None:
    url = post(client, a_record())["Location"]
    client.force_login(make_user("eve"))
    assert client.get(url).status_code == 404
    assert "game.json" not in text(client.get(reverse("games:upload")))
    client.logout()
    assert client.get(url).status_code == 302  # to sign in


def test_an_upload_whose_word_list_went_away_says_so(client: Client, ann: User) -> None:
    post(client, a_record())
    stored = RecordUpload.objects.get()
    stored.record["lexicon"] = "gone"
    del stored.record["lexicon_sha256"]
    stored.save()
    response = client.get(reverse("games:uploaded_replay", args=[stored.pk]))
    assert response.status_code == 409
    assert "can no longer be replayed" in text(response)
    assert "no word list named 'gone' is installed" in text(response)


def test_a_bad_step_on_an_upload_is_refused(client: Client, ann: User) -> None:
    url = post(client, a_record())["Location"]
    response = client.get(url, {"step": "last"})
    assert response.status_code == 400
    assert "is not a step number" in text(response)


# --- what an upload may ask the server to build ------------------------------------


@pytest.fixture
def no_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building any word list's index fails the test."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a word list's index was built")

    monkeypatch.setattr(record_module, "build_lexicon", refuse)


def words_of(length: int, count: int) -> list[str]:
    """``count`` distinct words of ``length`` letters (AAA, AAB, ...)."""
    return [
        "".join(w) for w in itertools.islice(itertools.product("ABCDEFGH", repeat=length), count)
    ]


def with_words(words: list[str], sha256: str | None = None) -> dict[str, Any]:
    """The test record, carrying ``words`` and (by default) their right SHA-256."""
    record = a_record()
    record["lexicon"] = {"words": words}
    record["lexicon_sha256"] = sha256 or WordListText.from_lines(words).sha256
    return record


@pytest.mark.parametrize(
    ("words", "holds"),
    [
        (words_of(3, MAX_INLINE_WORDS + 1), f"holds {MAX_INLINE_WORDS + 1} words"),
        (
            words_of(10, MAX_INLINE_LETTERS // 10 + 1),
            f"holds {MAX_INLINE_LETTERS // 10 + 1} words ({MAX_INLINE_LETTERS + 10:,} letters)",
        ),
        (words_of(6, 100_000), "holds 100,000 words (600,000 letters)"),  # a file of 1 MB
    ],
    ids=["words", "letters", "1 MB"],
)
def test_an_inline_word_list_over_the_limits_is_refused_unbuilt(
    client: Client, ann: User, no_build: None, words: list[str], holds: str
) -> None:
    response = post(client, with_words(words))
    assert response.status_code == 400
    page = text(response)
    assert "This record cannot be replayed here: its own word list " + holds in page
    assert (
        f"a record may list at most {MAX_INLINE_WORDS} words of {MAX_INLINE_LETTERS:,} "
        "letters in all: enough for the words a game plays" in page
    )
    assert 'names it (such as "default", the ENABLE list)' in page
    assert "Nothing was stored." in page
    assert not RecordUpload.objects.exists()


def test_an_inline_word_list_at_the_limits_is_replayed(client: Client, ann: User) -> None:
    words = words_of(7, 200) + words_of(6, 100)
    assert (len(words), sum(map(len, words))) == (MAX_INLINE_WORDS, MAX_INLINE_LETTERS)
    response = post(client, with_words(words))
    assert response.status_code == 302
    assert "Zed resigned." in text(client.get(response["Location"]))


def test_an_inline_word_list_with_a_wrong_sha256_is_refused_unbuilt(
    client: Client, ann: User, no_build: None
) -> None:
    words = ["DOG", "GOD", "GODS"]
    response = post(client, with_words(words, sha256="0" * 64))
    assert response.status_code == 400
    page = text(response)
    assert f"this game was played with a list whose SHA-256 is {'0' * 64}" in page
    assert WordListText.from_lines(words).sha256 in page and "Nothing was stored." in page
    assert not RecordUpload.objects.exists()


def test_a_stored_upload_whose_list_is_over_the_limits_is_not_built(
    client: Client, ann: User, no_build: None
) -> None:
    """Uploads stored before the limits were kept whole; their replays, asked for at
    every step, must not build their lists either."""
    record = with_words(words_of(3, MAX_INLINE_WORDS + 1))
    stored = RecordUpload.objects.create(
        owner=ann, name="old.json", record=record, players=record["players"], turn_count=3
    )
    response = client.get(reverse("games:uploaded_replay", args=[stored.pk]))
    assert response.status_code == 409
    page = text(response)
    assert "This record can no longer be replayed: its own word list holds 301 words" in page
    assert f"at most {MAX_INLINE_WORDS} words" in page


def test_an_upload_request_over_the_limit_is_refused_before_it_is_read(
    ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.http.multipartparser import MultiPartParser

    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("the request's body was read")

    browser = Client(enforce_csrf_checks=True)  # CSRF middleware reads the form's token
    browser.force_login(ann)
    browser.get(reverse("games:upload"))
    monkeypatch.setattr(MultiPartParser, "parse", unread)
    body = b" " * (2 * MAX_UPLOAD_BYTES)
    upload = SimpleUploadedFile("big.json", body, content_type="application/json")
    token = browser.cookies["csrftoken"].value
    response = browser.post(
        reverse("games:upload"), {"record": upload, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 413
    assert "This upload is 2,049 KB; a record file may be at most 1 MB (1,024 KB)." in text(
        response
    )
    assert MAX_UPLOAD_REQUEST_BYTES < 2 * MAX_UPLOAD_BYTES
    assert not RecordUpload.objects.exists()


def test_an_upload_still_needs_the_forms_csrf_token(ann: User) -> None:
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    browser.get(reverse("games:upload"))
    body = json.dumps(a_record()).encode()

    def upload() -> SimpleUploadedFile:
        return SimpleUploadedFile("game.json", body, content_type="application/json")

    assert browser.post(reverse("games:upload"), {"record": upload()}).status_code == 403
    assert not RecordUpload.objects.exists()
    token = browser.cookies["csrftoken"].value
    response = browser.post(
        reverse("games:upload"), {"record": upload(), "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302 and RecordUpload.objects.count() == 1
