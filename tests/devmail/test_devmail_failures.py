"""The local mailbox's "Defer (soft)" and "Our server failed" buttons (issue
28, point 12): a deferral as an ESP reports one, each time it is pressed; and
our own mail server failing the send, as if it refused our password (535):
the row waits and goes again, the alarm is raised, no one is blamed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from devmail.models import Message
from games.core import lobby
from games.engine.jumbulaya import PRESETS
from games.mail_out import mail_alarm, outbox, tracking
from games.models import MailEvent, MailStatus, Notification
from ops import health
from ops.models import Alarm

pytestmark = pytest.mark.django_db
ADMIN = "ops@jumbulaya.example"


@pytest.fixture
def bobs_email(settings: Any, make_user: Callable[[str], User]) -> Message:
    """Bob's game-started email, sent into the mailbox."""
    settings.JUMBULAYA_MAILBOX = True
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    settings.ADMINS = [ADMIN]
    ann, bob = make_user("ann"), make_user("bob")
    game = lobby.create_game(
        ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email]
    )
    lobby.join_game(game.pk, bob)
    outbox.sweep()
    return Message.objects.filter(to="bob@example.com").latest("pk")


def row_of(mail: Message) -> Notification:
    return Notification.objects.get(esp_message_id=mail.message_id.strip("<>"))


def said(client: Client, mail: Message) -> str:
    return client.get(f"/dev/mailbox/{mail.pk}/").content.decode()


def test_defer_reports_a_deferral_each_time_it_is_pressed(
    client: Client, bobs_email: Message
) -> None:
    url = f"/dev/mailbox/{bobs_email.pk}/report/"
    for _ in range(3):
        assert client.post(url, {"action": "defer"}).status_code == 302
    events = MailEvent.objects.all()
    assert [(e.event, e.weight, e.via) for e in events] == [("deferred", "soft", "mailbox")] * 3
    assert {e.notification_id for e in events} == {row_of(bobs_email).pk}
    assert "The email was deferred" in said(client, bobs_email)
    # One message deferred three times is one soft bounce (point 2): mail goes on.
    assert tracking.stopped("bob@example.com") is None


def test_our_server_failed_holds_the_row_raises_the_alarm_and_blames_no_one(
    client: Client, bobs_email: Message, settings: Any
) -> None:
    settings.JUMBULAYA_HEALTH_EXPECT_WORKERS = False  # no worker or beat here (CI has Redis)
    row = row_of(bobs_email)
    assert 'value="failed"' in said(client, bobs_email)
    url = f"/dev/mailbox/{bobs_email.pk}/report/"
    assert client.post(url, {"action": "failed"}).status_code == 302
    assert "as if our mail server had refused our password" in said(client, bobs_email)

    row.refresh_from_db()
    assert row.sent_at is None and row.held_at is None and row.attempts == 1
    assert row.retry_at is not None and row.retry_at > timezone.now()
    assert "SMTPAuthenticationError" in row.last_error
    alarm = mail_alarm.send_alarm()
    assert alarm is not None and alarm.reason == "smtp_auth"
    assert health.report()[1]["degraded"] == [mail_alarm.SEND]
    assert not MailStatus.objects.exists() and not MailEvent.objects.exists()
    told = Message.objects.get(to=ADMIN)  # the mailbox's own path works: the admins see it
    assert "smtp_auth" in told.subject

    # Pressed again while the row waits, or on the admins' email: nothing changes.
    assert client.post(url, {"action": "failed"}).status_code == 302
    assert "nothing changed" in said(client, bobs_email)
    assert 'value="failed"' not in said(client, told)
    assert client.post(f"/dev/mailbox/{told.pk}/report/", {"action": "failed"}).status_code == 302
    assert Alarm.objects.get().failures == 1

    # At the server's next try the email goes again, with the same Message-ID.
    Alarm.objects.update(retry_at=timezone.now() - timedelta(seconds=1))
    Notification.objects.filter(pk=row.pk).update(retry_at=None)
    assert outbox.sweep() == 1
    again = Message.objects.filter(to="bob@example.com").latest("pk")
    assert again.pk != bobs_email.pk and again.message_id == bobs_email.message_id
    assert mail_alarm.send_alarm() is None
    assert health.report()[1]["status"] == "ok"
    assert tracking.stopped("bob@example.com") is None


def test_an_unknown_action_is_a_400_that_names_them_all(
    client: Client, bobs_email: Message
) -> None:
    answer = client.post(f"/dev/mailbox/{bobs_email.pk}/report/", {"action": "explode"})
    assert answer.status_code == 400
    assert "bounce, defer, spam or failed" in answer.content.decode()
    assert not MailEvent.objects.exists() and not Alarm.objects.exists()
