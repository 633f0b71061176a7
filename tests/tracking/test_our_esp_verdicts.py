"""An ESP's events about us, not about the address (issue 28, point 6):
Postmark's Blocked, DMARCPolicy and VirusNotification bounces, Mailgun's
``rejected`` and its permanent failures with a 5.7.x status (Gmail's DMARC
5.7.26) stop no one's mail; they raise the operator's alarm, said once."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.test import Client
from tracking_payloads import mailgun_event, post_mailgun, post_postmark, postmark_bounce

from games.mail_out import mail_alarm, tracking
from games.models import Game, MailEvent, MailStatus, Notification
from ops import alarms, health

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]

MAILGUN_ID = "20261125093000.1.ABCDEF0123456789@mg.jumbulaya.example"
POSTMARK_ID = "883953f4-6105-42a2-a16a-77a8eac79483"


def sent_as(game: Game, esp_id: str) -> None:
    """Bob's latest row was sent with the ESP's id ``esp_id``."""
    row = Notification.objects.filter(game=game, user__username="bob").latest("pk")
    Notification.objects.filter(pk=row.pk).update(esp_message_id=esp_id)


def postmark(what: str) -> Callable[[Client, datetime | None], Any]:
    def post(client: Client, when: datetime | None = None) -> Any:
        payload = postmark_bounce(what, email="bob@example.com", message_id=POSTMARK_ID, when=when)
        return post_postmark(client, payload)

    return post


def mailgun(what: str) -> Callable[[Client, datetime | None], Any]:
    def post(client: Client, when: datetime | None = None) -> Any:
        payload = mailgun_event(what, recipient="bob@example.com", message_id=MAILGUN_ID, when=when)
        return post_mailgun(client, payload)

    return post


#: Each event about us: how it is posted, the id its message was sent with, the reason.
ABOUT_US = {
    "postmark Blocked": (postmark("Blocked"), POSTMARK_ID, "postmark_blocked"),
    "postmark DMARCPolicy": (postmark("DMARCPolicy"), POSTMARK_ID, "postmark_dmarc"),
    "postmark VirusNotification": (postmark("VirusNotification"), POSTMARK_ID, "postmark_virus"),
    "mailgun rejected": (mailgun("rejected"), MAILGUN_ID, "mailgun_rejected"),
    "mailgun 5.7.26": (mailgun("dmarc"), MAILGUN_ID, "esp_policy"),
}


@pytest.mark.parametrize("what", list(ABOUT_US))
def test_an_esp_event_about_us_stops_no_one_and_raises_the_alarm_once(
    esp_client: Client,
    sent_game: Game,
    settings: Any,
    caplog: pytest.LogCaptureFixture,
    what: str,
) -> None:
    post, esp_id, reason = ABOUT_US[what]
    sent_as(sent_game, esp_id)
    settings.ADMINS = ["ops@jumbulaya.example"]
    caplog.clear()
    with mock.patch("ops.alarms.mail_admins") as told:
        assert post(esp_client, None).status_code == 200
        assert post(esp_client, None).status_code == 200  # another one: counted, not said
    assert tracking.stopped("bob@example.com") is None
    assert not MailStatus.objects.filter(stopped_at__isnull=False).exists()
    events = list(MailEvent.objects.all())
    assert len(events) == 2 and all(e.weight == "" and not e.ignored for e in events)
    alarm = mail_alarm.ESP
    healthy, body = health.report()
    assert healthy and body["status"] == "degraded" and body["degraded"] == [alarm]
    assert body["alarms"][alarm]["reason"] == reason
    assert body["alarms"][alarm]["failures"] == 2
    lines = [r for r in caplog.records if r.name == "ops.alarms"]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR
    assert reason in lines[0].getMessage() and "bob@example.com" not in lines[0].getMessage()
    assert told.call_count == 1


def test_the_alarm_of_an_esp_event_lapses_a_day_after_the_last(
    esp_client: Client, sent_game: Game
) -> None:
    sent_as(sent_game, POSTMARK_ID)
    post_postmark(
        esp_client, postmark_bounce("Blocked", email="bob@example.com", message_id=POSTMARK_ID)
    )
    assert [a.name for a in alarms.current()] == [mail_alarm.ESP]
    later = datetime.now(UTC) + mail_alarm.ESP_LAPSE + timedelta(minutes=1)
    assert alarms.current(later) == []


def test_an_event_about_us_that_is_not_about_our_mail_raises_nothing(
    esp_client: Client, sent_game: Game
) -> None:
    old = datetime.now(UTC) - timedelta(days=30)
    sent_as(sent_game, POSTMARK_ID)
    stale = postmark_bounce(
        "DMARCPolicy", email="bob@example.com", message_id=POSTMARK_ID, when=old
    )
    stranger = postmark_bounce("Blocked", email="bob@example.com", message_id="not-one-of-ours")
    assert post_postmark(esp_client, stale).status_code == 200
    assert post_postmark(esp_client, stranger).status_code == 200
    assert alarms.current() == []
    assert set(MailEvent.objects.values_list("ignored", flat=True)) == {"stale", "not_ours"}


def test_a_hard_bounce_of_the_recipient_is_still_the_recipients(
    esp_client: Client, sent_game: Game
) -> None:
    sent_as(sent_game, POSTMARK_ID)
    payload = postmark_bounce("HardBounce", email="bob@example.com", message_id=POSTMARK_ID)
    assert post_postmark(esp_client, payload).status_code == 200
    assert tracking.stopped("bob@example.com") is not None
    assert alarms.current() == []
