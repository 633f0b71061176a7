"""The ESPs' tracking webhooks, posted as each ESP posts them (credentials and
all): every event stored once against its outbox row, an address's mail
stopped by a hard bounce or a complaint, soft ones counted, a late ``delivered``
changing nothing, and bad requests refused with nothing stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client, override_settings
from tracking_payloads import (
    MAILGUN_TRACKING,
    POSTMARK_TRACKING,
    mailgun_event,
    post_mailgun,
    post_postmark,
    postmark_bounce,
    postmark_delivery,
)

from accounts.models import User
from games.mail_out import tracking
from games.models import Game, MailEvent, MailStatus, Notification

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]

MAILGUN_ID = "20261125093000.1.ABCDEF0123456789@mg.jumbulaya.example"
POSTMARK_ID = "883953f4-6105-42a2-a16a-77a8eac79483"


def row_to(game: Game, name: str, esp_id: str) -> Notification:
    """Bob's sent row, with the id the ESP gave it (as the ESP's backend stores it)."""
    row = Notification.objects.filter(game=game, user__username=name).latest("pk")
    assert row.sent_at is not None
    Notification.objects.filter(pk=row.pk).update(esp_message_id=esp_id)
    row.refresh_from_db()
    return row


def status(address: str) -> MailStatus | None:
    return MailStatus.objects.filter(address=address).first()


# --- Mailgun --------------------------------------------------------------------------


def test_a_mailgun_permanent_failure_is_stored_against_its_row_and_stops_mail(
    esp_client: Client, sent_game: Game
) -> None:
    row = row_to(sent_game, "bob", MAILGUN_ID)
    payload = mailgun_event("bounce", recipient="bob@example.com", message_id=MAILGUN_ID)
    assert post_mailgun(esp_client, payload).status_code == 200
    event = MailEvent.objects.get()
    assert (event.via, event.event, event.weight, event.notification) == (
        "mailgun",
        "bounced",
        "hard",
        row,
    )
    assert "does not exist" in event.detail
    stopped = status("bob@example.com")
    assert stopped is not None and stopped.reason == MailStatus.Stop.BOUNCED
    assert stopped.stopped_at is not None


def test_mailgun_posting_the_same_event_twice_stores_it_once(
    esp_client: Client, sent_game: Game
) -> None:
    """Mailgun retries a post it got no 200 for; each retry is signed anew."""
    row_to(sent_game, "bob", MAILGUN_ID)
    first = mailgun_event("soft", recipient="bob@example.com", message_id=MAILGUN_ID)
    again = mailgun_event(
        "soft",
        recipient="bob@example.com",
        message_id=MAILGUN_ID,
        event_id=first["event-data"]["id"],
    )
    assert post_mailgun(esp_client, first).status_code == 200
    assert post_mailgun(esp_client, again).status_code == 200
    assert MailEvent.objects.count() == 1


def test_a_mailgun_complaint_stops_mail_and_turns_game_emails_off(
    esp_client: Client, sent_game: Game
) -> None:
    row_to(sent_game, "bob", MAILGUN_ID)
    payload = mailgun_event("complaint", recipient="bob@example.com", message_id=MAILGUN_ID)
    assert post_mailgun(esp_client, payload).status_code == 200
    stopped = status("bob@example.com")
    assert stopped is not None and stopped.reason == MailStatus.Stop.COMPLAINED
    assert User.objects.get(username="bob").email_mode == User.EmailMode.NONE
    assert User.objects.get(username="ann").email_mode == User.EmailMode.EVERY_TURN


def test_a_delivered_after_a_bounce_does_not_start_mail_again(
    esp_client: Client, sent_game: Game
) -> None:
    """Events arrive out of order: the delivery happened first but is posted last."""
    row_to(sent_game, "bob", MAILGUN_ID)
    now = datetime.now(UTC)
    bounce = mailgun_event("bounce", recipient="bob@example.com", message_id=MAILGUN_ID, when=now)
    delivered = mailgun_event(
        "delivered",
        recipient="bob@example.com",
        message_id=MAILGUN_ID,
        when=now - timedelta(minutes=1),
    )
    assert post_mailgun(esp_client, bounce).status_code == 200
    assert post_mailgun(esp_client, delivered).status_code == 200
    assert tracking.stopped("bob@example.com") is not None
    assert sorted(MailEvent.objects.values_list("event", flat=True)) == ["bounced", "delivered"]


def test_a_bounce_of_mail_sent_before_the_address_was_confirmed_again_changes_nothing(
    esp_client: Client, sent_game: Game
) -> None:
    row_to(sent_game, "bob", MAILGUN_ID)
    earlier = datetime.now(UTC) - timedelta(hours=1)
    tracking.restore("bob@example.com")
    late = mailgun_event("bounce", recipient="bob@example.com", message_id=MAILGUN_ID, when=earlier)
    assert post_mailgun(esp_client, late).status_code == 200
    assert MailEvent.objects.count() == 1
    assert tracking.stopped("bob@example.com") is None


@pytest.mark.parametrize(
    "change",
    ["wrong key", "no signature", "no basic auth"],
)
def test_a_mailgun_post_that_is_not_signed_right_is_a_400_and_stores_nothing(
    esp_client: Client, sent_game: Game, change: str
) -> None:
    row_to(sent_game, "bob", MAILGUN_ID)
    key = "key-not-the-signing-key" if change == "wrong key" else None
    payload = mailgun_event(
        "bounce",
        recipient="bob@example.com",
        message_id=MAILGUN_ID,
        **({"key": key} if key else {}),
    )
    if change == "no signature":
        del payload["signature"]
    response = post_mailgun(
        esp_client,
        payload,
        auth=None if change == "no basic auth" else "esp:correct-horse-battery-staple",
    )
    assert response.status_code == 400
    assert "nothing was stored" in response.text
    assert MailEvent.objects.count() == 0
    assert tracking.stopped("bob@example.com") is None


@pytest.mark.parametrize("body", ["{not json", "[]", '{"signature": {}}'])
def test_a_malformed_mailgun_post_is_a_400(esp_client: Client, body: str) -> None:
    response = post_mailgun(esp_client, body)
    assert response.status_code == 400
    assert MailEvent.objects.count() == 0


def test_a_signed_mailgun_post_without_event_data_is_a_400(esp_client: Client) -> None:
    payload = mailgun_event("bounce", recipient="bob@example.com", message_id=MAILGUN_ID)
    del payload["event-data"]
    response = post_mailgun(esp_client, payload)
    assert response.status_code == 400
    assert "could not be read" in response.text
    assert MailEvent.objects.count() == 0


# --- Postmark -------------------------------------------------------------------------


def test_a_postmark_hard_bounce_stops_mail(esp_client: Client, sent_game: Game) -> None:
    row = row_to(sent_game, "bob", POSTMARK_ID)
    payload = postmark_bounce("HardBounce", email="bob@example.com", message_id=POSTMARK_ID)
    assert post_postmark(esp_client, payload).status_code == 200
    event = MailEvent.objects.get()
    assert (event.via, event.weight, event.notification) == ("postmark", "hard", row)
    assert event.key == f"postmark:{payload['ID']}"
    assert tracking.stopped("bob@example.com") is not None


def test_a_postmark_spam_complaint_stops_mail_and_game_emails(
    esp_client: Client, sent_game: Game
) -> None:
    row_to(sent_game, "bob", POSTMARK_ID)
    payload = postmark_bounce("SpamComplaint", email="bob@example.com", message_id=POSTMARK_ID)
    assert post_postmark(esp_client, payload).status_code == 200
    stopped = tracking.stopped("bob@example.com")
    assert stopped is not None and stopped.reason == MailStatus.Stop.COMPLAINED
    assert User.objects.get(username="bob").email_mode == User.EmailMode.NONE


def test_a_postmark_event_posted_twice_is_stored_once(esp_client: Client, sent_game: Game) -> None:
    row_to(sent_game, "bob", POSTMARK_ID)
    bounce = postmark_bounce("SoftBounce", email="bob@example.com", message_id=POSTMARK_ID)
    delivery = postmark_delivery("bob@example.com", POSTMARK_ID)
    for payload in (bounce, bounce, delivery, delivery):
        assert post_postmark(esp_client, payload).status_code == 200
    assert sorted(MailEvent.objects.values_list("event", flat=True)) == ["bounced", "delivered"]


def test_a_postmark_delivery_after_a_hard_bounce_changes_nothing(
    esp_client: Client, sent_game: Game
) -> None:
    row_to(sent_game, "bob", POSTMARK_ID)
    now = datetime.now(UTC)
    bounce = postmark_bounce(
        "HardBounce", email="bob@example.com", message_id=POSTMARK_ID, when=now
    )
    delivery = postmark_delivery("bob@example.com", POSTMARK_ID, when=now - timedelta(seconds=30))
    assert post_postmark(esp_client, bounce).status_code == 200
    assert post_postmark(esp_client, delivery).status_code == 200
    assert tracking.stopped("bob@example.com") is not None


@pytest.mark.parametrize("auth", [None, "esp:guess"])
def test_a_postmark_post_without_its_basic_auth_is_a_400_and_stores_nothing(
    esp_client: Client, sent_game: Game, auth: str | None
) -> None:
    payload = postmark_bounce("HardBounce", email="bob@example.com", message_id=POSTMARK_ID)
    response = post_postmark(esp_client, payload, auth=auth)
    assert response.status_code == 400
    assert "did not check out" in response.text
    assert MailEvent.objects.count() == 0 and tracking.stopped("bob@example.com") is None


@pytest.mark.parametrize("body", ["{not json", '"a string"', "[]"])
def test_a_malformed_postmark_post_is_a_400(esp_client: Client, body: str) -> None:
    response = post_postmark(esp_client, body)
    assert response.status_code == 400
    assert MailEvent.objects.count() == 0


def test_an_inbound_message_posted_to_the_tracking_url_is_a_400(esp_client: Client) -> None:
    payload = {"FromFull": {"Email": "bob@example.com"}, "From": "bob@example.com", "Headers": []}
    response = post_postmark(esp_client, payload)
    assert response.status_code == 400
    assert MailEvent.objects.count() == 0


def test_tracking_webhooks_of_esps_not_named_are_404s(esp_client: Client) -> None:
    payload = postmark_bounce("HardBounce", email="bob@example.com", message_id=POSTMARK_ID)
    with override_settings(JUMBULAYA_INBOUND_ESPS=["mailgun"]):
        assert post_postmark(esp_client, payload).status_code == 404
    with override_settings(JUMBULAYA_INBOUND_ESPS=[]):
        assert (
            esp_client.post(MAILGUN_TRACKING, "{}", content_type="application/json").status_code
            == 404
        )
        assert (
            esp_client.post(POSTMARK_TRACKING, "{}", content_type="application/json").status_code
            == 404
        )
