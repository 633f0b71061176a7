"""Mailgun's webhook signature covers a timestamp and a token, not the event:
each signature is taken once and only within five minutes of its timestamp
(issue 28, point 4), and ``check --deploy`` asks for the basic auth too."""

from __future__ import annotations

import hashlib
import hmac
import time
from datetime import timedelta

import pytest
from django.core.checks import run_checks
from django.test import Client, override_settings
from django.utils import timezone
from tracking_payloads import (
    BASIC_AUTH,
    MAILGUN_TRACKING,
    SIGNING_KEY,
    auth_headers,
    mailgun_event,
    mailgun_signature,
    post_mailgun,
)

from games.mail_in import webhook_tokens
from games.mail_out import tracking
from games.models import Game, MailEvent, Notification, WebhookToken

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]

MAILGUN_ID = "20261125093000.1.ABCDEF0123456789@mg.jumbulaya.example"


@pytest.fixture
def bob_row(sent_game: Game) -> Notification:
    row = Notification.objects.filter(game=sent_game, user__username="bob").latest("pk")
    Notification.objects.filter(pk=row.pk).update(esp_message_id=MAILGUN_ID)
    return row


def test_a_signature_copied_onto_another_event_is_refused(
    esp_client: Client, bob_row: Notification
) -> None:
    """A delivery's signature block, captured, put on a forged bounce."""
    delivered = mailgun_event("delivered", recipient="bob@example.com", message_id=MAILGUN_ID)
    assert post_mailgun(esp_client, delivered).status_code == 200
    forged = mailgun_event(
        "bounce",
        recipient="bob@example.com",
        message_id=MAILGUN_ID,
        signature=delivered["signature"],
    )
    response = post_mailgun(esp_client, forged)
    assert response.status_code == 400
    assert "used before" in response.text and "nothing was stored" in response.text
    assert list(MailEvent.objects.values_list("event", flat=True)) == ["delivered"]
    assert tracking.stopped("bob@example.com") is None


@pytest.mark.parametrize(
    ("offset", "words"),
    [(-31 * 24 * 3600, "ago"), (-6 * 60, "ago"), (10 * 60, "ahead")],
    ids=["a month old", "six minutes old", "ten minutes ahead"],
)
def test_a_signature_made_more_than_five_minutes_from_now_is_refused(
    esp_client: Client, bob_row: Notification, offset: int, words: str
) -> None:
    signature = mailgun_signature(signed_at=time.time() + offset)
    bounce = mailgun_event(
        "bounce", recipient="bob@example.com", message_id=MAILGUN_ID, signature=signature
    )
    response = post_mailgun(esp_client, bounce)
    assert response.status_code == 400
    assert words in response.text and "more than 5 minutes" in response.text
    assert MailEvent.objects.count() == 0 and WebhookToken.objects.count() == 0
    assert tracking.stopped("bob@example.com") is None


def test_a_signature_four_minutes_old_is_taken(esp_client: Client, bob_row: Notification) -> None:
    """Within the tolerance: a post that took a while to arrive."""
    signature = mailgun_signature(signed_at=time.time() - 4 * 60)
    bounce = mailgun_event(
        "bounce", recipient="bob@example.com", message_id=MAILGUN_ID, signature=signature
    )
    assert post_mailgun(esp_client, bounce).status_code == 200
    assert tracking.stopped("bob@example.com") is not None


@pytest.mark.parametrize("timestamp", ["soon", "nan", "1e400", "-1e300"])
def test_a_signature_whose_timestamp_is_no_time_is_refused(
    esp_client: Client, bob_row: Notification, timestamp: str
) -> None:
    """Signed all the same (the HMAC is over whatever the timestamp says)."""
    payload = mailgun_event("bounce", recipient="bob@example.com", message_id=MAILGUN_ID)
    token = payload["signature"]["token"]
    digest = hmac.new(SIGNING_KEY.encode(), (timestamp + token).encode(), hashlib.sha256)
    payload["signature"] = {"timestamp": timestamp, "token": token, "signature": digest.hexdigest()}
    response = post_mailgun(esp_client, payload)
    assert response.status_code == 400 and "not a time" in response.text
    assert MailEvent.objects.count() == 0


def test_tokens_are_kept_only_while_their_timestamps_would_be_taken(
    esp_client: Client, bob_row: Notification
) -> None:
    old = WebhookToken.objects.create(
        token="a" * 50, seen_at=timezone.now() - webhook_tokens.KEPT - timedelta(seconds=1)
    )
    recent = WebhookToken.objects.create(token="b" * 50, seen_at=timezone.now())
    delivered = mailgun_event("delivered", recipient="bob@example.com", message_id=MAILGUN_ID)
    assert post_mailgun(esp_client, delivered).status_code == 200
    kept = set(WebhookToken.objects.values_list("token", flat=True))
    assert kept == {recent.token, delivered["signature"]["token"]}
    assert old.token not in kept


def test_a_legacy_form_post_takes_its_signature_once_too(
    esp_client: Client, bob_row: Notification
) -> None:
    """Mailgun's legacy webhooks post a form, the signature's fields among the event's."""
    signature = mailgun_signature()
    form = {
        "event": "delivered",
        "recipient": "bob@example.com",
        "Message-Id": f"<{MAILGUN_ID}>",
        "domain": "mg.jumbulaya.example",
        **signature,
    }
    headers = auth_headers(BASIC_AUTH)
    assert esp_client.post(MAILGUN_TRACKING, form, headers=headers).status_code == 200
    form["event"] = "bounced"
    form["code"] = "550"
    again = esp_client.post(MAILGUN_TRACKING, form, headers=headers)
    assert again.status_code == 400 and "used before" in again.text
    assert tracking.stopped("bob@example.com") is None


def test_check_deploy_says_the_basic_auth_must_be_set_for_the_tracking_webhooks() -> None:
    with override_settings(
        ANYMAIL={"MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}, JUMBULAYA_INBOUND_ESPS=["mailgun"]
    ):
        found = [m for m in run_checks(include_deployment_checks=True) if m.id == "games.W003"]
    (warning,) = found
    assert "tracking" in warning.msg and "not the event" in warning.msg
    assert "ANYMAIL_WEBHOOK_SECRET" in str(warning.hint)
    with override_settings(
        ANYMAIL={"MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY, "WEBHOOK_SECRET": BASIC_AUTH},
        JUMBULAYA_INBOUND_ESPS=["mailgun"],
    ):
        assert not [m for m in run_checks(include_deployment_checks=True) if m.id == "games.W003"]
