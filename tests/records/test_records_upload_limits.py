"""How much one account may upload to replay, on the upload page: so many
records a day (each upload counts, stored or refused; deleting one gives none
back) and so many megabytes kept at once (deleting one makes room).  Past
either, the form says the limit and when or how it frees, and nothing is
stored."""

from __future__ import annotations

import html
import json
import random
from collections.abc import Callable
from datetime import UTC, timedelta
from typing import Any

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.engine.jumbulaya import PRESETS, deal, lexicon_from_words, write_record
from games.models import RecordUpload

WORDS = ["ACT", "CAT", "FACT", "FACTS"]
KB = 1024


def a_record(size: int = 0) -> bytes:
    """A dealt game with its own word list, two passes and a resignation, as a
    file of ``size`` bytes (padded with spaces) or as small as it comes."""
    started = deal(
        ("Zed", "Yolanda"), PRESETS["official"], lexicon_from_words(WORDS), random.Random(7), 0
    )
    record = write_record([started], lexicon={"words": WORDS})
    record["turns"] = [
        {"seat": 0, "move": "pass"},
        {"seat": 1, "move": "pass"},
        {"seat": 0, "move": "resign"},
    ]
    body = json.dumps(record).encode()
    return body + b" " * max(0, size - len(body))


def upload(client: Client, body: bytes, name: str = "game.json") -> Any:
    file = SimpleUploadedFile(name, body, content_type="application/json")
    return client.post(reverse("games:upload"), {"record": file})


def said(response: Any) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def ann(client: Client, make_user: Callable[[str], User]) -> User:
    user = make_user("ann")
    client.force_login(user)
    return user


def test_past_the_days_uploads_the_form_says_when_the_next_may_come(
    client: Client, ann: User, settings: Any
) -> None:
    settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY = 2
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        assert [upload(client, a_record()).status_code for _ in range(2)] == [302, 302]
        refused = upload(client, a_record())
    assert refused.status_code == 409
    page = said(refused)
    frees = timezone.localtime(start + timedelta(hours=12, minutes=1), UTC)
    assert (
        "One account may upload 2 records a day (that many at once, then one every 12 hours): "
        f"you can upload another from {frees:%a} {frees.day} {frees:%b}, {frees:%H:%M} (UTC). "
        "Nothing was stored." in page
    )
    assert 'role="alert"' in page
    assert RecordUpload.objects.count() == 2
    with time_machine.travel(start + timedelta(hours=12), tick=False):
        assert upload(client, a_record()).status_code == 302
        assert upload(client, a_record()).status_code == 409
    assert RecordUpload.objects.count() == 3


def test_a_refused_file_counts_and_deleting_gives_no_upload_back(
    client: Client, ann: User, settings: Any
) -> None:
    settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY = 2
    assert upload(client, b"{not json").status_code == 400
    assert upload(client, a_record()).status_code == 302
    stored = RecordUpload.objects.get()
    client.post(reverse("games:delete_upload", args=[stored.pk]))
    assert upload(client, a_record()).status_code == 409
    assert not RecordUpload.objects.exists()


def test_past_the_room_the_form_says_how_much_is_kept_and_deleting_makes_room(
    client: Client, ann: User, settings: Any
) -> None:
    settings.JUMBULAYA_RECORD_STORAGE_MB = 1
    assert upload(client, a_record(600 * KB), "first.json").status_code == 302
    refused = upload(client, a_record(500 * KB), "second.json")
    assert refused.status_code == 409
    assert (
        "Your uploaded records take 600 KB of the 1 MB one account may keep, and this file is "
        "500 KB: delete records you no longer need to make room (on the upload page, or "
        "DELETE /api/v1/records/<id>). Nothing was stored." in said(refused)
    )
    assert list(RecordUpload.objects.values_list("name", "size")) == [("first.json", 600 * KB)]
    first = RecordUpload.objects.get()
    deleted = client.post(reverse("games:delete_upload", args=[first.pk]), follow=True)
    assert deleted.redirect_chain == [(reverse("games:upload"), 302)]
    assert "first.json is deleted." in said(deleted)
    assert upload(client, a_record(500 * KB), "second.json").status_code == 302
    assert list(RecordUpload.objects.values_list("name", flat=True)) == ["second.json"]


def test_the_page_says_the_limits_and_what_ones_uploads_take(
    client: Client, ann: User, settings: Any
) -> None:
    settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY = 20
    settings.JUMBULAYA_RECORD_STORAGE_MB = 10
    upload(client, a_record(3 * KB))
    page = said(client.get(reverse("games:upload")))
    assert (
        "One account may upload 20 records a day and keep 10 MB of them (yours take 3 KB; "
        "deleting one makes room)." in page
    )
    assert ">Delete</button>" in page


def test_only_the_owner_deletes_and_only_by_post(
    client: Client, ann: User, make_user: Callable[[str], User]
) -> None:
    upload(client, a_record())
    stored = RecordUpload.objects.get()
    url = reverse("games:delete_upload", args=[stored.pk])
    assert client.get(url).status_code == 405
    eve = Client()
    eve.force_login(make_user("eve"))
    assert eve.post(url).status_code == 404
    assert RecordUpload.objects.filter(pk=stored.pk).exists()


def test_staff_and_a_limit_of_zero_are_not_limited(
    client: Client, ann: User, settings: Any
) -> None:
    settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY = 1
    settings.JUMBULAYA_RECORD_STORAGE_MB = 1
    User.objects.filter(pk=ann.pk).update(is_staff=True)
    assert [upload(client, a_record(600 * KB)).status_code for _ in range(3)] == [302] * 3
    User.objects.filter(pk=ann.pk).update(is_staff=False)
    settings.JUMBULAYA_RECORD_UPLOADS_PER_DAY = settings.JUMBULAYA_RECORD_STORAGE_MB = 0
    assert upload(client, a_record(600 * KB)).status_code == 302
    assert RecordUpload.objects.count() == 4
