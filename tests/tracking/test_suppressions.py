"""The ESP's own suppression list lifted through its API (issue 28, point 3):
Postmark's and Mailgun's documented answers, from a stand-in on loopback
(esp_api_standin.py), errors and silence included.  A spam complaint's or an
unsubscribe's suppression is lifted only when the player said they want mail."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from django.test import override_settings
from esp_api_standin import (
    ADDRESS,
    MAILGUN_DOMAIN,
    MAILGUN_FOUND,
    MAILGUN_KEY,
    MAILGUN_NOT_FOUND,
    MAILGUN_REMOVED,
    POSTMARK_BAD_TOKEN,
    TOKEN,
    StandIn,
    postmark_deleted,
    postmark_dump,
    postmark_not_deleted,
)

from games.mail_out import suppressions
from games.mail_out.suppressions import Outcome

STREAM = "/message-streams/outbound/suppressions"
MAILGUN = f"/v3/{MAILGUN_DOMAIN}"


# --- Postmark -----------------------------------------------------------------------


def test_postmark_lifts_a_bounce_after_reading_why_it_is_there(postmark_api: StandIn) -> None:
    postmark_api.answer("GET", f"{STREAM}/dump", 200, postmark_dump("HardBounce"))
    postmark_api.answer("POST", f"{STREAM}/delete", 200, postmark_deleted())
    lift = suppressions.lift("Bob@Example.com", wanted=False)
    assert (lift.esp, lift.outcome, lift.clear) == ("postmark", Outcome.LIFTED, True)
    dump, delete = postmark_api.calls
    assert dump.query == "EmailAddress=bob%40example.com"
    assert delete.headers["X-Postmark-Server-Token"] == TOKEN
    assert json.loads(delete.body) == {"Suppressions": [{"EmailAddress": ADDRESS}]}


def test_postmark_with_nothing_suppressed_is_not_asked_to_delete(postmark_api: StandIn) -> None:
    postmark_api.answer("GET", f"{STREAM}/dump", 200, postmark_dump())
    assert suppressions.lift(ADDRESS, wanted=False).outcome == Outcome.NOT_LISTED
    assert postmark_api.asked("POST") == []


@pytest.mark.parametrize("reason", ["SpamComplaint", "ManualSuppression"])
def test_postmark_keeps_what_the_recipient_chose_unless_they_want_mail(
    postmark_api: StandIn, reason: str
) -> None:
    postmark_api.answer("GET", f"{STREAM}/dump", 200, postmark_dump(reason))
    lift = suppressions.lift(ADDRESS, wanted=False)
    assert lift.outcome == Outcome.KEPT and reason in lift.said
    assert postmark_api.asked("POST") == []  # never lifted silently


def test_postmark_asked_to_lift_a_complaint_refuses_and_it_is_kept(postmark_api: StandIn) -> None:
    postmark_api.answer("POST", f"{STREAM}/delete", 200, postmark_not_deleted())
    lift = suppressions.lift(ADDRESS, wanted=True)
    assert lift.outcome == Outcome.KEPT and "required authority" in lift.said
    assert postmark_api.asked() == [f"{STREAM}/delete"]  # the player's "yes": no dump first


def test_postmark_lifts_from_the_configured_message_stream(esp_api: StandIn) -> None:
    path = "/message-streams/game-mail/suppressions/delete"
    esp_api.answer("POST", path, 200, postmark_deleted())
    with override_settings(
        MAILERS={"default": {"BACKEND": "anymail.backends.postmark.EmailBackend", "OPTIONS": {}}},
        ANYMAIL={
            "POSTMARK_SERVER_TOKEN": TOKEN,
            "POSTMARK_API_URL": esp_api.url,
            "POSTMARK_MESSAGE_STREAM": "game-mail",
        },
    ):
        assert suppressions.lift(ADDRESS, wanted=True).outcome == Outcome.LIFTED
    assert esp_api.asked() == [path]


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (401, POSTMARK_BAD_TOKEN, "HTTP 401: The Server Token"),
        (422, {"ErrorCode": 1235, "Message": "The message stream was not found."}, "HTTP 422"),
        (500, b"<html>Internal Server Error</html>", "HTTP 500"),
        (200, b"<html>a captive portal</html>", "HTTP 200"),
        (200, {"Suppressions": []}, "HTTP 200 without the address"),
    ],
)
def test_postmark_errors_are_failures_that_say_what_came_back(
    postmark_api: StandIn, status: int, body: Any, said: str
) -> None:
    postmark_api.answer("POST", f"{STREAM}/delete", status, body)
    lift = suppressions.lift(ADDRESS, wanted=True)
    assert lift.outcome == Outcome.FAILED and lift.said.startswith(said)
    assert ADDRESS not in lift.said


def test_a_silent_esp_is_a_failure_after_the_timeout(
    postmark_api: StandIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(suppressions, "TIMEOUT", 0.2)
    postmark_api.answer("GET", f"{STREAM}/dump", 200, postmark_dump("HardBounce"), delay=1.0)
    lift = suppressions.lift(ADDRESS, wanted=False)
    assert lift.outcome == Outcome.FAILED and "timeout" in lift.said.lower()


def test_an_unreachable_esp_is_a_failure(postmark_api: StandIn) -> None:
    with override_settings(
        ANYMAIL={"POSTMARK_SERVER_TOKEN": TOKEN, "POSTMARK_API_URL": "http://127.0.0.1:9/"}
    ):
        lift = suppressions.lift(ADDRESS, wanted=False)
    assert lift.outcome == Outcome.FAILED and "not answered" in lift.said


def test_an_esp_without_its_api_key_is_a_failure(postmark_api: StandIn) -> None:
    with override_settings(ANYMAIL={}):
        assert suppressions.lift(ADDRESS, wanted=False).outcome == Outcome.FAILED
    assert postmark_api.calls == []


# --- Mailgun ------------------------------------------------------------------------


def not_on_the_chosen_lists(api: StandIn) -> None:
    for table in ("complaints", "unsubscribes"):
        api.answer("GET", f"{MAILGUN}/{table}/{ADDRESS}", 404, MAILGUN_NOT_FOUND[table])


def test_mailgun_lifts_a_bounce_and_leaves_the_other_lists_alone(mailgun_api: StandIn) -> None:
    not_on_the_chosen_lists(mailgun_api)
    mailgun_api.answer("DELETE", f"{MAILGUN}/bounces/{ADDRESS}", 200, MAILGUN_REMOVED["bounces"])
    lift = suppressions.lift(ADDRESS, wanted=False)
    assert (lift.esp, lift.outcome) == ("mailgun", Outcome.LIFTED)
    assert mailgun_api.asked("DELETE") == [f"{MAILGUN}/bounces/{ADDRESS}"]
    key = base64.b64encode(f"api:{MAILGUN_KEY}".encode()).decode()
    assert mailgun_api.calls[-1].headers["Authorization"] == f"Basic {key}"


def test_mailgun_with_the_address_on_no_list_says_so(mailgun_api: StandIn) -> None:
    not_on_the_chosen_lists(mailgun_api)
    mailgun_api.answer("DELETE", f"{MAILGUN}/bounces/{ADDRESS}", 404, MAILGUN_NOT_FOUND["bounces"])
    assert suppressions.lift(ADDRESS, wanted=False).outcome == Outcome.NOT_LISTED


@pytest.mark.parametrize("table", ["complaints", "unsubscribes"])
def test_mailgun_keeps_a_complaint_or_unsubscribe_unless_the_player_wants_mail(
    mailgun_api: StandIn, table: str
) -> None:
    not_on_the_chosen_lists(mailgun_api)
    mailgun_api.answer("GET", f"{MAILGUN}/{table}/{ADDRESS}", 200, MAILGUN_FOUND[table])
    lift = suppressions.lift(ADDRESS, wanted=False)
    assert lift.outcome == Outcome.KEPT and table in lift.said
    assert mailgun_api.asked("DELETE") == []  # nothing lifted, the bounce neither


def test_mailgun_lifts_every_list_when_the_player_wants_mail(mailgun_api: StandIn) -> None:
    mailgun_api.answer("DELETE", f"{MAILGUN}/bounces/{ADDRESS}", 404, MAILGUN_NOT_FOUND["bounces"])
    for table in ("complaints", "unsubscribes"):
        mailgun_api.answer("DELETE", f"{MAILGUN}/{table}/{ADDRESS}", 200, MAILGUN_REMOVED[table])
    assert suppressions.lift(ADDRESS, wanted=True).outcome == Outcome.LIFTED
    assert mailgun_api.asked("GET") == []
    assert len(mailgun_api.asked("DELETE")) == 3


def test_mailgun_addresses_are_quoted_in_the_path(mailgun_api: StandIn) -> None:
    address = "bob+games@example.com"
    for table in ("bounces", "complaints", "unsubscribes"):
        mailgun_api.answer("DELETE", f"{MAILGUN}/{table}/{address}", 404, MAILGUN_NOT_FOUND[table])
    assert suppressions.lift(address, wanted=True).outcome == Outcome.NOT_LISTED
    assert mailgun_api.calls[0].raw == f"{MAILGUN}/bounces/bob%2Bgames@example.com"


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (401, b"Forbidden", "HTTP 401"),
        (404, {"message": f"Domain not found: {MAILGUN_DOMAIN}"}, "HTTP 404: Domain not found"),
        (429, {"message": "Too many requests"}, "HTTP 429"),
        (502, b"Bad Gateway", "HTTP 502"),
    ],
)
def test_mailgun_errors_are_failures(
    mailgun_api: StandIn, status: int, body: Any, said: str
) -> None:
    not_on_the_chosen_lists(mailgun_api)
    mailgun_api.answer("DELETE", f"{MAILGUN}/bounces/{ADDRESS}", status, body)
    lift = suppressions.lift(ADDRESS, wanted=False)
    assert lift.outcome == Outcome.FAILED and lift.said.startswith(said)


# --- the others ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "backend",
    [
        "anymail.backends.amazon_ses.EmailBackend",
        "anymail.backends.sendgrid.EmailBackend",
        "django.core.mail.backends.smtp.EmailBackend",
        "devmail.backend.EmailBackend",
    ],
)
def test_other_backends_have_nothing_lifted_here(esp_api: StandIn, backend: str) -> None:
    with override_settings(MAILERS={"default": {"BACKEND": backend, "OPTIONS": {}}}):
        lift = suppressions.lift(ADDRESS, wanted=True)
    assert lift.outcome == Outcome.NO_API and not lift.clear
    assert esp_api.calls == []


def test_the_esp_settings_may_be_the_mailers_options(esp_api: StandIn) -> None:
    esp_api.answer("POST", f"{STREAM}/delete", 200, postmark_deleted())
    options = {"server_token": TOKEN, "api_url": esp_api.url}
    backend = "anymail.backends.postmark.EmailBackend"
    with override_settings(
        MAILERS={"default": {"BACKEND": backend, "OPTIONS": options}}, ANYMAIL={}
    ):
        assert suppressions.lift(ADDRESS, wanted=True).outcome == Outcome.LIFTED
    assert esp_api.calls[0].headers["X-Postmark-Server-Token"] == TOKEN
