"""Our own mail failures are the operator's alarm, never a player's fault:
sends through Django's SMTP backend to a real SMTP server (aiosmtpd, on a
loopback port) answering a chosen code at each stage.  Only a refusal of
that recipient at RCPT TO stops that address; a refusal at the greeting,
AUTH, MAIL FROM or DATA, or relaying refused, blames no one: the rows wait
and go once the server works, one log line says it, ``/healthz`` says
degraded with the reason, and the admins are emailed once."""

from __future__ import annotations

import json
import logging
import smtplib
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import requests
from anymail.exceptions import AnymailRecipientsRefused, AnymailRequestsAPIError
from django.core.mail import mail_admins
from django.utils import timezone
from smtp_standin import Answers, SmtpStandIn

from accounts.models import User
from games.mail_out import mail_alarm, outbox, tracking, whose_fault
from games.models import Game, MailEvent, MailStatus, Notification
from ops import alarms, health
from ops.models import Alarm

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
ADMIN = "ops@jumbulaya.example"

#: Each failure of ours, by stage: the server's answer, and the alarm's reason.
OURS = {
    "greeting 421": (
        Answers(greeting="421 4.3.2 Service not available, try later"),
        "smtp_greeting",
    ),
    "greeting 554": (
        Answers(greeting="554 5.7.1 Client host [127.0.0.1] blocked using zen.spamhaus.org"),
        "smtp_greeting",
    ),
    "auth 535": (Answers(auth="535 5.7.8 Authentication credentials invalid"), "smtp_auth"),
    "mail 550": (
        Answers(mail="550 5.7.1 <jumbulaya@localhost>: Sender address rejected: not owned"),
        "smtp_sender",
    ),
    "rcpt 554 relay": (
        Answers(rcpt_all="554 5.7.1 <bob@example.com>: Relay access denied"),
        "smtp_relay",
    ),
    "data 554": (Answers(data="554 5.7.1 Message content rejected"), "smtp_content"),
}


@pytest.fixture
def smtp(settings: Any) -> Iterator[SmtpStandIn]:
    """The server, Django's SMTP backend pointed at it, and an admin to tell."""
    server = SmtpStandIn()
    server.start()
    settings.MAILERS = {"default": server.mailer()}
    settings.ADMINS = [ADMIN]
    yield server
    server.stop()


def owe_both(game: Game, times: int = 2) -> list[Notification]:
    """``times`` emails owed to each of Ann and Bob (Ann's, Bob's, Ann's...)."""
    ids = list(User.objects.filter(username__in=["ann", "bob"]).values_list("pk", flat=True))
    rows: list[Notification] = []
    for _ in range(times):
        rows += outbox.owe(game, Kind.GAME_STARTED, users=ids, seq=game.last_seq)
    return rows


def alarm_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The lines at WARNING or above from the outbox, the tracking and the alarms."""
    ours = ("games.mail_out", "ops")
    return [r for r in caplog.records if r.name.startswith(ours) and r.levelno >= logging.WARNING]


def nobody_blamed() -> None:
    assert not MailStatus.objects.filter(stopped_at__isnull=False).exists()
    assert not MailEvent.objects.exclude(weight="").exists()
    assert tracking.stopped("bob@example.com") is None
    assert tracking.stopped("ann@example.com") is None


def retry_now() -> None:
    """As if the wait were over: the path's next try and the rows' are due."""
    past = timezone.now() - timedelta(seconds=1)
    Alarm.objects.filter(retry_at__isnull=False).update(retry_at=past)
    Notification.objects.filter(sent_at__isnull=True, retry_at__isnull=False).update(retry_at=past)


@pytest.mark.slow
@pytest.mark.parametrize("stage", list(OURS))
def test_our_failure_at_each_stage_blames_no_one_and_the_rows_go_once_it_is_fixed(
    sent_game: Game, smtp: SmtpStandIn, caplog: pytest.LogCaptureFixture, stage: str
) -> None:
    answers, reason = OURS[stage]
    smtp.answers = answers
    rows = owe_both(sent_game)
    caplog.clear()
    with mock.patch("ops.alarms.mail_admins", wraps=mail_admins) as told:
        outbox.sweep()
        outbox.sweep()  # the next sweep, before the next try: nothing is tried
        retry_now()
        outbox.sweep()  # the next try: it fails again

    nobody_blamed()
    assert smtp.received == []
    for row in rows:
        row.refresh_from_db()
        assert row.sent_at is None and row.held_at is None  # kept, owed
    first, later = rows[:2], rows[2:]  # each one's later email waits behind the first
    for row in first:
        assert row.retry_at is not None and row.retry_at > timezone.now()  # tried later
        assert row.last_error
    assert all(row.attempts == 0 and row.retry_at is None for row in later)
    if reason == "smtp_content":  # refused for its content: each message backs off
        assert [row.attempts for row in first] == [2, 2]
    else:  # the path fails, not the rows: no attempt counts, however long it lasts
        assert [row.attempts for row in first] == [0, 0]

    healthy, body = health.report()
    assert healthy and body["status"] == "degraded" and body["failing"] == []
    assert body["degraded"] == [mail_alarm.SEND]
    assert body["alarms"][mail_alarm.SEND]["reason"] == reason
    assert body["alarms"][mail_alarm.SEND]["failures"] >= 2

    (line,) = alarm_lines(caplog)  # one line for every failed send
    assert line.levelno == logging.ERROR and reason in line.getMessage()
    assert "bob@example.com" not in line.getMessage()
    assert "could not be told by email either" in line.getMessage()  # the same server
    assert told.call_count == 1  # tried once, not once per failure

    # Fixed: at the next try every row goes, and the alarm falls.
    smtp.answers = Answers()
    caplog.clear()
    retry_now()
    while outbox.sweep():
        pass
    assert sorted(smtp.recipients()) == ["ann@example.com"] * 2 + ["bob@example.com"] * 2
    assert not Notification.objects.filter(sent_at__isnull=True).exists()
    assert health.report()[1]["status"] == "ok"
    (over,) = alarm_lines(caplog)
    assert "is over" in over.getMessage()
    nobody_blamed()


def test_a_refusal_of_one_recipient_at_rcpt_is_that_recipients_alone(
    sent_game: Game, smtp: SmtpStandIn, caplog: pytest.LogCaptureFixture
) -> None:
    smtp.answers = Answers(
        rcpt={"bob@example.com": "550 5.1.1 <bob@example.com>: Recipient address rejected: "
              "User unknown in relay recipient table"}
    )  # fmt: skip
    rows = owe_both(sent_game, times=1)
    caplog.clear()
    with mock.patch("ops.alarms.mail_admins") as told:
        outbox.sweep()
    assert smtp.recipients() == ["ann@example.com"]
    stopped = tracking.stopped("bob@example.com")
    assert stopped is not None and stopped.reason == MailStatus.Stop.BOUNCED
    assert tracking.stopped("ann@example.com") is None
    bob_row = next(r for r in rows if r.user is not None and r.user.username == "bob")
    bob_row.refresh_from_db()
    assert bob_row.held_at is not None and bob_row.sent_at is None
    assert health.report()[1]["status"] == "ok"
    assert told.call_count == 0
    assert all(r.levelno < logging.ERROR for r in alarm_lines(caplog))


def test_a_temporary_refusal_at_rcpt_counts_for_the_recipient_not_as_an_alarm(
    sent_game: Game, smtp: SmtpStandIn
) -> None:
    smtp.answers = Answers(rcpt={"bob@example.com": "452 4.2.2 Mailbox full"})
    owe_both(sent_game, times=1)
    outbox.sweep()
    assert smtp.recipients() == ["ann@example.com"]
    assert alarms.current() == []
    bob_row = Notification.objects.get(sent_at__isnull=True)
    assert bob_row.attempts == 1 and bob_row.retry_at is not None  # backs off, counted


def test_while_the_path_fails_new_emails_wait_for_its_next_try_untried(
    sent_game: Game, smtp: SmtpStandIn
) -> None:
    smtp.answers = Answers(auth="535 5.7.8 Authentication credentials invalid")
    owe_both(sent_game, times=1)
    outbox.sweep()
    alarm = mail_alarm.send_alarm()
    assert alarm is not None and alarm.retry_at is not None
    (later,) = outbox.owe(sent_game, Kind.YOUR_TURN, emails=["cy@example.com"])
    smtp.answers = Answers()  # it would work now, but its next try is not due yet
    assert outbox.send(later.pk) is False
    later.refresh_from_db()
    assert (later.attempts, later.retry_at) == (0, alarm.retry_at)
    assert "smtp_auth" in later.last_error
    assert smtp.received == []


def test_the_waits_between_tries_of_a_failing_path_grow_to_five_minutes() -> None:
    waits = [mail_alarm.probe_delay(n) for n in range(1, 7)]
    assert waits == [timedelta(minutes=m) for m in (1, 2, 4, 5, 5, 5)]


def test_the_admins_are_emailed_at_most_once_an_hour_per_alarm(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.ADMINS = [ADMIN]
    verdict = whose_fault.Verdict(reason="smtp_auth", path=True, said="535 5.7.8 invalid")
    with mock.patch("ops.alarms.mail_admins") as told:
        mail_alarm.send_failed(verdict)
        mail_alarm.send_failed(verdict)
        assert alarms.clear(mail_alarm.SEND)
        mail_alarm.send_failed(verdict)  # raised again within the hour: a line, no email
        assert told.call_count == 1
        Alarm.objects.update(admins_told_at=timezone.now() - timedelta(hours=2))
        assert alarms.clear(mail_alarm.SEND)
        mail_alarm.send_failed(verdict)
        assert told.call_count == 2
    raised = [r for r in alarm_lines(caplog) if r.levelno == logging.ERROR]
    assert len(raised) == 3
    assert "less than an hour ago" in raised[1].getMessage()
    (subject, body), _ = told.call_args
    assert "smtp_auth" in subject and "535 5.7.8 invalid" in body


# --- ESPs' APIs (anymail's exceptions, as its backends raise them) ------------------------


def api_error(status: int, body: dict[str, Any]) -> AnymailRequestsAPIError:
    """What anymail's Postmark backend raises for an API answer it cannot take."""
    response = requests.Response()
    response.status_code, response.reason = status, "Error"
    response._content = json.dumps(body).encode()
    return AnymailRequestsAPIError(
        "Postmark API response", status_code=status, response=response, esp_name="Postmark"
    )


@pytest.mark.parametrize(
    ("failure", "reason", "path"),
    [
        (api_error(401, {"ErrorCode": 10, "Message": "Bad or missing Server API token."}),
         "esp_api", True),
        (api_error(429, {"ErrorCode": 429, "Message": "Rate limit exceeded."}), "esp_api", True),
        (api_error(503, {"ErrorCode": 0, "Message": "Service unavailable"}), "esp_api", True),
        (AnymailRequestsAPIError("Error posting to https://api.postmarkapp.com/email:"),
         "esp_api", True),  # no answer at all
        (api_error(422, {"ErrorCode": 300, "Message": "Invalid email request"}),
         "esp_message", False),
    ],
    ids=["401", "429", "503", "no answer", "422"],
)  # fmt: skip
def test_an_esp_api_failure_is_ours(
    sent_game: Game, failure: Exception, reason: str, path: bool
) -> None:
    (row,) = outbox.owe(
        sent_game, Kind.GAME_STARTED, users=[User.objects.get(username="bob").pk], seq=1
    )
    with mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=failure):
        assert outbox.send(row.pk) is False
    nobody_blamed()
    alarm = mail_alarm.send_alarm()
    assert alarm is not None and alarm.reason == reason
    assert (alarm.retry_at is not None) is path
    row.refresh_from_db()
    assert row.held_at is None and row.attempts == (0 if path else 1)


def test_an_esp_refusing_the_recipient_is_the_recipients() -> None:
    verdict = whose_fault.judge_send(AnymailRecipientsRefused("Recipients refused"))
    assert verdict is not None and not verdict.ours and verdict.weight == "hard"


# --- the rules, answer by answer ---------------------------------------------------------


def refused(code: int, text: bytes) -> smtplib.SMTPRecipientsRefused:
    """The answer to RCPT TO for the one recipient of a message."""
    return smtplib.SMTPRecipientsRefused({"b@x.example": (code, text)})


@pytest.mark.parametrize(
    ("failure", "weight", "reason"),
    [
        (refused(550, b"5.1.1 User unknown"), "hard", ""),
        (refused(550, b"5.1.1 User unknown in relay recipient table"), "hard", ""),
        (refused(550, b"No such user here"), "hard", ""),
        (refused(452, b"4.2.2 Over quota"), "soft", ""),
        (refused(451, b"4.7.1 Greylisted, try again later"), "soft", ""),
        (refused(554, b"Relay access denied"), "", "smtp_relay"),
        (refused(550, b"5.7.1 Not authorized"), "", "smtp_relay"),
        (refused(530, b"Authentication required"), "", "smtp_relay"),
        (refused(421, b"4.4.2 Timeout"), "", "smtp_closed"),
        (smtplib.SMTPSenderRefused(552, b"5.3.4 Message too big", "j@x"), "", "smtp_content"),
        (smtplib.SMTPDataError(554, b"5.7.1 Relaying denied"), "", "smtp_relay"),
        (smtplib.SMTPHeloError(501, b"5.5.4 Invalid domain name"), "", "smtp_setup"),
        (smtplib.SMTPServerDisconnected("Connection unexpectedly closed"), "", "smtp_unreachable"),
        (ConnectionRefusedError(111, "Connection refused"), "", "smtp_unreachable"),
        (TimeoutError("timed out"), "", "smtp_unreachable"),
    ],
)
def test_whose_fault_each_answer_is(failure: Exception, weight: str, reason: str) -> None:
    verdict = whose_fault.judge_send(failure)
    assert verdict is not None
    assert (verdict.weight, verdict.reason) == (weight, reason)
    assert "b@x.example" not in verdict.said and "j@x" not in verdict.said


def test_a_failure_that_is_not_the_mail_paths_is_nobodys_verdict() -> None:
    assert whose_fault.judge_send(KeyError("a template's variable")) is None
