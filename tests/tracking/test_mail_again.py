"""The banner's "Confirm again" at a real ESP (issue 28, point 3): the ESP's
suppression of the address is lifted before the confirmation is mailed, a
complaint's only on the player's "I want game emails again", and where the
address cannot be mailed the player is told what they can do instead (another
address, the pages, an old email's link) and the operator is told, never
"try again in a few minutes" for ever.  The ESP is anymail's own backend,
talking to the stand-in of esp_api_standin.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.test import Client
from esp_api_standin import (
    ADDRESS,
    MAILGUN_DOMAIN,
    MAILGUN_NOT_FOUND,
    MAILGUN_QUEUED,
    MAILGUN_REMOVED,
    StandIn,
    postmark_deleted,
    postmark_dump,
    postmark_inactive,
    postmark_not_deleted,
    postmark_sent,
)

from accounts.models import User
from games.mail_out import tracking
from games.models import MailStatus

pytestmark = pytest.mark.django_db

STREAM = "/message-streams/outbound/suppressions"
MAILGUN = f"/v3/{MAILGUN_DOMAIN}"
SENT = "We sent a confirmation link to bob@example.com"
WAYS_ON = "change your address to another one"
AGAIN = "/mail/again/"


@pytest.fixture
def bob(client: Client, make_user: Callable[[str], User]) -> User:
    user = make_user("bob")
    client.force_login(user)
    return user


#: The event and weight that stop an address for each reason.
EVENTS = {
    MailStatus.Stop.BOUNCED: ("bounced", "hard"),
    MailStatus.Stop.COMPLAINED: ("complained", "complaint"),
    MailStatus.Stop.UNSUBSCRIBED: ("unsubscribed", "unsubscribed"),
}


def stop(reason: str = MailStatus.Stop.BOUNCED) -> MailStatus:
    event, weight = EVENTS[MailStatus.Stop(reason)]
    tracking.note(
        key=f"test:{reason}",
        via="test",
        event=event,
        weight=weight,
        address=ADDRESS,
        occurred_at=datetime.now(UTC),
    )
    status = tracking.stopped(ADDRESS)
    assert status is not None
    return status


def told_operator(caplog: pytest.LogCaptureFixture, status: MailStatus) -> str:
    (line,) = [r.getMessage() for r in caplog.records if r.name == "games.mail_out.mail_again"]
    assert f"mail status {status.pk}:" in line and ADDRESS not in line
    return line


# --- Postmark -----------------------------------------------------------------------


def test_a_bounce_at_postmark_is_lifted_then_the_confirmation_mailed(
    client: Client, bob: User, postmark_api: StandIn
) -> None:
    stop()
    postmark_api.answer("GET", f"{STREAM}/dump", 200, postmark_dump("HardBounce"))
    postmark_api.answer("POST", f"{STREAM}/delete", 200, postmark_deleted())
    postmark_api.answer("POST", "/email", 200, postmark_sent())
    page = client.post(AGAIN, follow=True)
    assert SENT in page.text
    assert postmark_api.asked() == [f"{STREAM}/dump", f"{STREAM}/delete", "/email"]
    assert json.loads(postmark_api.calls[-1].body)["To"] == ADDRESS


def test_postmark_refusing_the_confirmation_is_not_a_dead_end(
    client: Client, bob: User, postmark_api: StandIn, caplog: pytest.LogCaptureFixture
) -> None:
    """The lift fails (Postmark answers 500) and the send is refused as an
    inactive recipient: the player is told what they can do, not to try again."""
    status = stop()
    postmark_api.answer("GET", f"{STREAM}/dump", 500, b"Internal Server Error")
    postmark_api.answer("POST", "/email", 422, postmark_inactive())
    page = client.post(AGAIN, follow=True).text
    assert WAYS_ON in page and "your dashboard" in page and "any game email" in page
    assert "try again in a few minutes" not in page and SENT not in page
    assert "the send was refused" in told_operator(caplog, status)
    assert tracking.stopped(ADDRESS) is not None


def test_a_complaint_is_lifted_only_on_the_players_yes(
    client: Client, bob: User, postmark_api: StandIn, caplog: pytest.LogCaptureFixture
) -> None:
    status = stop(MailStatus.Stop.COMPLAINED)
    banner = client.get("/account/profile/").text
    assert 'name="want_mail"' in banner and "I want game emails again" in banner
    page = client.post(AGAIN, follow=True).text
    assert "marked as spam" in page and "tick “I want game emails again”" in page
    assert SENT not in page
    assert postmark_api.calls == []  # nothing asked of the ESP, nothing mailed
    # The player says yes: Postmark never lifts a spam complaint through its API.
    postmark_api.answer("POST", f"{STREAM}/delete", 200, postmark_not_deleted())
    page = client.post(AGAIN, {"want_mail": "yes"}, follow=True).text
    assert WAYS_ON in page and SENT not in page
    assert postmark_api.asked() == [f"{STREAM}/delete"]  # and no send to a listed address
    assert "postmark keeps it" in told_operator(caplog, status)


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        (MailStatus.Stop.COMPLAINED, "marked as spam"),
        (MailStatus.Stop.UNSUBSCRIBED, "you unsubscribed through our mail provider"),
    ],
)
def test_a_stop_of_the_recipients_choosing_asks_for_their_yes_first(
    client: Client, bob: User, mailgun_api: StandIn, reason: str, said: str
) -> None:
    stop(reason)
    assert 'name="want_mail"' in client.get("/account/profile/").text
    page = client.post(AGAIN, {"want_mail": "no"}, follow=True).text
    assert said in page and "I want game emails again" in page and SENT not in page
    assert mailgun_api.calls == []


def test_a_bounce_asks_for_no_yes(client: Client, bob: User) -> None:
    stop()
    banner = client.get("/account/profile/").text
    assert "Confirm bob@example.com again" in banner and 'name="want_mail"' not in banner


# --- Mailgun ------------------------------------------------------------------------


def test_a_complaint_at_mailgun_with_the_players_yes_is_lifted_and_mailed(
    client: Client, bob: User, mailgun_api: StandIn
) -> None:
    stop(MailStatus.Stop.COMPLAINED)
    mailgun_api.answer("DELETE", f"{MAILGUN}/bounces/{ADDRESS}", 404, MAILGUN_NOT_FOUND["bounces"])
    mailgun_api.answer(
        "DELETE", f"{MAILGUN}/complaints/{ADDRESS}", 200, MAILGUN_REMOVED["complaints"]
    )
    mailgun_api.answer(
        "DELETE", f"{MAILGUN}/unsubscribes/{ADDRESS}", 404, MAILGUN_NOT_FOUND["unsubscribes"]
    )
    mailgun_api.answer("POST", f"{MAILGUN}/messages", 200, MAILGUN_QUEUED)
    page = client.post(AGAIN, {"want_mail": "yes"}, follow=True).text
    assert SENT in page and "If it has not come" not in page
    assert mailgun_api.asked()[-1] == f"{MAILGUN}/messages"


def test_mailgun_not_answering_still_mails_and_says_what_to_do_if_it_does_not_come(
    client: Client, bob: User, mailgun_api: StandIn, caplog: pytest.LogCaptureFixture
) -> None:
    """Mailgun takes a send to a suppressed address and drops it: with the
    lift failed (a 401), the player is told what to do if the mail never comes."""
    status = stop()
    mailgun_api.answer("GET", f"{MAILGUN}/complaints/{ADDRESS}", 401, b"Forbidden")
    mailgun_api.answer("POST", f"{MAILGUN}/messages", 200, MAILGUN_QUEUED)
    page = client.post(AGAIN, follow=True).text
    assert SENT in page and "If it has not come within a few minutes" in page
    assert "HTTP 401" in told_operator(caplog, status)
