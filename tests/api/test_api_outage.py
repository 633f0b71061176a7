"""The API while the database is away, and a body past the site's bound: JSON
answers, as every other answer of the API."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from jumbulaya_site import outage
from tests.api.conftest import ApiClient
from tests.test_outage import database_away, logged


def test_the_api_answers_503_in_json_and_the_log_says_once(
    make_user: Callable[[str], User],
    api_for: Callable[[User], ApiClient],
    caplog: pytest.LogCaptureFixture,
) -> None:
    api = api_for(make_user("ann"))
    caplog.set_level(logging.DEBUG)
    with database_away():
        answers = [api.get(path) for path in ("/me", "/games", "/games/1/view")]
        answers.append(api.post("/games/1/moves", {"move": "pass", "expected_seq": 1}))
    for answer in answers:
        assert answer.status == 503 and answer.json["code"] == "unavailable"
        assert answer.headers["Retry-After"] == "30"
        assert "5432" not in answer.text and "Traceback" not in answer.text
    records = logged(caplog)
    assert [r.getMessage() for r in records if "away" in r.getMessage()] and len(records) == 1
    assert all(r.exc_info is None for r in caplog.records), "no traceback"
    assert api.get("/me").status == 200
    assert not outage.is_away()


def test_a_body_past_the_sites_bound_is_refused_unread_in_json(
    make_user: Callable[[str], User], api_for: Callable[[User], ApiClient]
) -> None:
    api = api_for(make_user("ann"))
    answer = api.post("/records", raw=b" " * 3_000_000)
    assert answer.status == 413 and answer.json["code"] == "too_large"
    page = Client().post("/account/sign-in/", "x" * 3_000_000, content_type="text/plain")
    assert page.status_code == 413 and page["Content-Type"].startswith("text/plain")
