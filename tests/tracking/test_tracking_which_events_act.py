"""Which tracking events act, and how much (issue 28, points 2, 5, 9 and 10):
soft bounces counted once per message and cleared by a delivery; only fresh
events about a message we sent to that address act, the rest stored as
ignored; no value from an event longer than its column; an unsubscribe at the
ESP shown on the pages, as a complaint is."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import models
from django.test import Client, override_settings
from tracking_payloads import (
    mailgun_event,
    post_mailgun,
    post_postmark,
    postmark_bounce,
    postmark_delivery,
    postmark_subscription_change,
)

from accounts.models import User
from devmail.models import Message as DevMessage
from games.mail_out import outbox, tracking
from games.models import Game, MailEvent, MailStatus, Notification, WebhookToken

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]

Ignored = MailEvent.Ignored


def sent_to(game: Game, name: str, count: int) -> list[str]:
    """The ESP ids of ``count`` messages sent to ``name`` (rows owed, sent, and
    given the id the ESP would have answered)."""
    user = User.objects.get(username=name)
    rows = [
        row
        for _ in range(count)
        for row in outbox.owe(game, Notification.Kind.YOUR_TURN, users=[user.pk], seq=1)
    ]
    outbox.sweep()
    ids = []
    for row in rows:
        esp_id = f"2026112509300{row.pk}.1.ABCDEF@mg.jumbulaya.example"
        assert Notification.objects.filter(pk=row.pk, sent_at__isnull=False).update(
            esp_message_id=esp_id
        )
        ids.append(esp_id)
    return ids


def mailgun(client: Client, what: str, message_id: str, **kwargs: object) -> None:
    kwargs.setdefault("recipient", "bob@example.com")
    payload = mailgun_event(what, message_id=message_id, **kwargs)  # type: ignore[arg-type]
    response = post_mailgun(client, payload)
    assert response.status_code == 200, response.text


def postmark(client: Client, payload: dict[str, object]) -> None:
    response = post_postmark(client, payload)
    assert response.status_code == 200, response.text


def bob_stopped() -> str | None:
    status = tracking.stopped("bob@example.com")
    return status.reason if status is not None else None


def fits_its_columns(rows: Iterable[models.Model]) -> None:
    """Every string stored fits its column (PostgreSQL would refuse it, a 500)."""
    for row in rows:
        for field in row._meta.concrete_fields:
            value = getattr(row, field.attname)
            if isinstance(value, str) and field.max_length is not None:
                assert len(value) <= field.max_length, (type(row).__name__, field.name)


# --- 2: soft bounces, per message -------------------------------------------------------


def test_one_message_greylisted_three_times_then_delivered_stops_nothing(
    esp_client: Client, sent_game: Game
) -> None:
    (message,) = sent_to(sent_game, "bob", 1)
    start = datetime.now(UTC) - timedelta(minutes=40)
    with override_settings(JUMBULAYA_SOFT_BOUNCES=3):
        for attempt in range(3):
            mailgun(esp_client, "greylisted", message, when=start + timedelta(minutes=10 * attempt))
            assert bob_stopped() is None
        mailgun(esp_client, "delivered", message, when=start + timedelta(minutes=31))
    assert bob_stopped() is None
    assert MailEvent.objects.filter(event="deferred", weight="soft").count() == 3


def test_soft_bounces_of_as_many_messages_as_the_setting_stop_mail(
    esp_client: Client, sent_game: Game
) -> None:
    messages = sent_to(sent_game, "bob", 3)
    with override_settings(JUMBULAYA_SOFT_BOUNCES=3):
        for n, message in enumerate(messages):
            mailgun(esp_client, "soft", message)
            mailgun(esp_client, "soft", message)  # deferred again: the same message
            assert (bob_stopped() is not None) == (n == 2)
    assert bob_stopped() == MailStatus.Stop.SOFT


def test_soft_bounces_older_than_the_window_do_not_count(
    esp_client: Client, sent_game: Game
) -> None:
    first, second, third = sent_to(sent_game, "bob", 3)
    now = datetime.now(UTC)
    with override_settings(JUMBULAYA_SOFT_BOUNCES=3, JUMBULAYA_SOFT_BOUNCE_DAYS=2):
        mailgun(esp_client, "soft", first, when=now - timedelta(days=3))
        mailgun(esp_client, "soft", second, when=now - timedelta(days=1))
        mailgun(esp_client, "soft", third, when=now)
    assert bob_stopped() is None


def test_a_delivery_clears_the_soft_bounces_before_it(esp_client: Client, sent_game: Game) -> None:
    first, second, delivered, third, fourth = sent_to(sent_game, "bob", 5)
    now = datetime.now(UTC)
    with override_settings(JUMBULAYA_SOFT_BOUNCES=3):
        mailgun(esp_client, "soft", first, when=now - timedelta(hours=5))
        mailgun(esp_client, "soft", second, when=now - timedelta(hours=4))
        mailgun(esp_client, "delivered", delivered, when=now - timedelta(hours=3))
        mailgun(esp_client, "soft", third, when=now - timedelta(hours=2))
        mailgun(esp_client, "soft", fourth, when=now - timedelta(hours=1))
    assert bob_stopped() is None  # two since the delivery


def test_a_delivery_after_a_soft_stop_starts_mail_again(
    esp_client: Client, sent_game: Game
) -> None:
    """Three messages greylisted before the first got through: delivered
    minutes later, they prove the address takes mail."""
    *messages, earlier = sent_to(sent_game, "bob", 4)
    now = datetime.now(UTC)
    with override_settings(JUMBULAYA_SOFT_BOUNCES=3):
        for k, message in enumerate(messages):
            mailgun(esp_client, "greylisted", message, when=now - timedelta(minutes=30 - k))
        assert bob_stopped() == MailStatus.Stop.SOFT
        late = now - timedelta(minutes=40)  # delivered before the deferrals, posted after
        mailgun(esp_client, "delivered", earlier, when=late)
        assert bob_stopped() == MailStatus.Stop.SOFT
        mailgun(esp_client, "delivered", messages[0], when=now - timedelta(minutes=15))
    assert bob_stopped() is None
    status = MailStatus.objects.get(address="bob@example.com")
    assert (status.reason, status.detail, status.warned_at) == ("", "", None)


def test_a_delivery_does_not_lift_a_hard_bounce(esp_client: Client, sent_game: Game) -> None:
    bounced, delivered = sent_to(sent_game, "bob", 2)
    now = datetime.now(UTC)
    mailgun(esp_client, "bounce", bounced, when=now - timedelta(minutes=2))
    mailgun(esp_client, "delivered", delivered, when=now - timedelta(minutes=1))
    assert bob_stopped() == MailStatus.Stop.BOUNCED


def test_postmark_message_delayed_notices_are_not_bounces(
    esp_client: Client, sent_game: Game
) -> None:
    messages = sent_to(sent_game, "bob", 3)
    with override_settings(JUMBULAYA_SOFT_BOUNCES=3):
        for message in messages:
            postmark(
                esp_client,
                postmark_bounce("Transient", email="bob@example.com", message_id=message),
            )
    assert bob_stopped() is None
    assert set(MailEvent.objects.values_list("event", "weight")) == {("deferred", "")}


def test_postmark_soft_bounces_and_dns_errors_count_once_per_message(
    esp_client: Client, sent_game: Game
) -> None:
    soft, dns = sent_to(sent_game, "bob", 2)
    with override_settings(JUMBULAYA_SOFT_BOUNCES=3):
        for what, message in [("SoftBounce", soft), ("SoftBounce", soft), ("DnsError", dns)]:
            postmark(esp_client, postmark_bounce(what, email="bob@example.com", message_id=message))
        assert bob_stopped() is None  # two messages of three
        (third,) = sent_to(sent_game, "bob", 1)
        postmark(
            esp_client, postmark_bounce("SoftBounce", email="bob@example.com", message_id=third)
        )
    assert bob_stopped() == MailStatus.Stop.SOFT


# --- 5: only fresh events about a message we sent to that address -------------------------


def test_a_bounce_of_a_message_we_never_sent_is_ignored(
    esp_client: Client, sent_game: Game
) -> None:
    postmark(
        esp_client,
        postmark_bounce("HardBounce", email="bob@example.com", message_id="never-sent-here"),
    )
    event = MailEvent.objects.get()
    assert (event.ignored, event.weight, event.notification) == (Ignored.NOT_OURS, "", None)
    assert bob_stopped() is None
    assert not MailStatus.objects.exists()


def test_a_strangers_address_gets_no_status(esp_client: Client, sent_game: Game) -> None:
    (ours,) = sent_to(sent_game, "bob", 1)
    postmark(esp_client, postmark_bounce("HardBounce", email="zed@example.com", message_id="x"))
    # Our message id, another recipient: a forged or misfiled event.
    mailgun(esp_client, "bounce", ours, recipient="zed@example.com")
    assert list(MailEvent.objects.order_by("pk").values_list("ignored", flat=True)) == [
        Ignored.NOT_OURS,
        Ignored.OTHER_ADDRESS,
    ]
    assert not MailStatus.objects.exists()


def test_a_bounce_of_the_address_a_player_has_left_stops_nothing(
    esp_client: Client, sent_game: Game
) -> None:
    (message,) = sent_to(sent_game, "bob", 1)
    User.objects.filter(username="bob").update(email="bob@new.example")
    mailgun(esp_client, "bounce", message, recipient="bob@example.com")
    assert MailEvent.objects.get().ignored == Ignored.OTHER_ADDRESS
    assert not MailStatus.objects.exists()


@pytest.mark.parametrize(
    ("age", "why"),
    [(timedelta(days=400), Ignored.STALE), (timedelta(days=8), Ignored.STALE),
     (-timedelta(hours=2), Ignored.FUTURE)],
    ids=["400 days old", "8 days old", "2 hours ahead"],
)  # fmt: skip
def test_an_event_that_is_not_fresh_is_ignored(
    esp_client: Client, sent_game: Game, age: timedelta, why: str
) -> None:
    (message,) = sent_to(sent_game, "bob", 1)
    when = datetime.now(UTC) - age
    postmark(
        esp_client,
        postmark_bounce("HardBounce", email="bob@example.com", message_id=message, when=when),
    )
    mailgun(esp_client, "complaint", message, when=when)
    assert set(MailEvent.objects.values_list("ignored", flat=True)) == {why}
    assert bob_stopped() is None
    assert User.objects.get(username="bob").email_mode == User.EmailMode.EVERY_TURN


def test_a_fresh_bounce_of_our_message_to_that_address_acts(
    esp_client: Client, sent_game: Game
) -> None:
    (message,) = sent_to(sent_game, "bob", 1)
    six_days = datetime.now(UTC) - timedelta(days=6)
    postmark(
        esp_client,
        postmark_bounce("HardBounce", email="Bob@Example.com", message_id=message, when=six_days),
    )
    event = MailEvent.objects.get()
    assert (event.ignored, event.weight) == ("", "hard")
    assert bob_stopped() == MailStatus.Stop.BOUNCED


def test_a_sign_in_link_bounced_in_the_local_mailbox_is_ignored_and_it_says_so(
    client: Client, settings: Any, make_user: Callable[[str], User]
) -> None:
    """Account mails are not outbox rows: their events name no message of ours."""
    settings.JUMBULAYA_MAILBOX = True
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    make_user("bob")
    assert client.post("/account/sign-in/", {"email": "bob@example.com"}).status_code == 302
    link = DevMessage.objects.filter(to="bob@example.com").latest("pk")
    page = client.post(f"/dev/mailbox/{link.pk}/report/", {"action": "bounce"}, follow=True)
    assert "the service ignores that: it names no message we sent" in page.text
    assert MailEvent.objects.get().ignored == Ignored.NOT_OURS
    assert bob_stopped() is None


def test_an_event_naming_no_one_is_ignored_with_a_200(esp_client: Client) -> None:
    postmark(esp_client, {"RecordType": "Bounce"})
    event = MailEvent.objects.get()
    assert (event.ignored, event.address) == (Ignored.NOT_OURS, "")


# --- 9: no value longer than its column ---------------------------------------------------


def test_an_address_over_254_characters_is_ignored_and_stored_within_its_column(
    esp_client: Client, sent_game: Game
) -> None:
    (message,) = sent_to(sent_game, "bob", 1)
    long_address = "b" * 250 + "@example.com"
    postmark(
        esp_client,
        postmark_bounce("HardBounce", email=long_address, message_id=message),
    )
    event = MailEvent.objects.get()
    assert (event.ignored, event.address) == (Ignored.TOO_LONG, "")
    assert not MailStatus.objects.exists()
    fits_its_columns(MailEvent.objects.all())


@pytest.mark.slow
def test_every_string_from_an_event_fits_its_column(esp_client: Client, sent_game: Game) -> None:
    """Over-long everything, in both ESPs' shapes."""
    long_address = "z" * 300 + "@example.com"
    payload = mailgun_event(
        "bounce", recipient=long_address, message_id="m" * 1000, event_id="e" * 500
    )
    payload["event-data"]["delivery-status"]["message"] = "5.1.1 " + "x" * 10_000
    payload["event-data"]["delivery-status"]["description"] = "y" * 10_000
    assert post_mailgun(esp_client, payload).status_code == 200
    bounce = postmark_bounce("HardBounce", email=long_address, message_id="p" * 1000)
    bounce |= {"ID": 10**300, "Description": "d" * 10_000, "Details": "s" * 10_000}
    postmark(esp_client, bounce)
    (ours,) = sent_to(sent_game, "bob", 1)
    fine = postmark_bounce("HardBounce", email="bob@example.com", message_id=ours)
    fine |= {"Description": "d" * 10_000, "Details": "s" * 10_000}
    postmark(esp_client, fine)
    assert MailEvent.objects.count() == 3
    assert bob_stopped() == MailStatus.Stop.BOUNCED
    fits_its_columns(
        [*MailEvent.objects.all(), *MailStatus.objects.all(), *WebhookToken.objects.all()]
    )


def test_an_event_dated_past_any_calendar_is_a_400_not_a_500(esp_client: Client) -> None:
    payload = mailgun_event("bounce", recipient="bob@example.com", message_id="m")
    payload["event-data"]["timestamp"] = 1e300
    response = post_mailgun(esp_client, payload)
    assert response.status_code == 400 and "could not be read" in response.text
    assert MailEvent.objects.count() == 0


# --- 10: an unsubscribe at the ESP -------------------------------------------------------


def test_a_postmark_unsubscribe_stops_mail_with_the_banner_and_the_note(
    client: Client, esp_client: Client, sent_game: Game
) -> None:
    (message,) = sent_to(sent_game, "bob", 1)
    postmark(esp_client, postmark_subscription_change("bob@example.com", message))
    assert bob_stopped() == MailStatus.Stop.UNSUBSCRIBED
    bob = User.objects.get(username="bob")
    assert bob.email_mode == User.EmailMode.EVERY_TURN  # back as it was once mail starts again
    # The row owed next is held, as for any stop.
    (row,) = outbox.owe(sent_game, Notification.Kind.YOUR_TURN, users=[bob.pk], seq=1)
    outbox.sweep()
    row.refresh_from_db()
    assert row.held_reason == MailStatus.Stop.UNSUBSCRIBED and row.sent_at is None
    client.force_login(bob)
    page = client.get(f"/games/{sent_game.pk}/").text
    assert "We have stopped emailing you" in page
    assert "you unsubscribed through our mail provider" in page
    assert '<form method="post"' in page.split("mail-stopped", 1)[1]  # the way back
    client.force_login(User.objects.get(username="ann"))
    page = client.get(f"/games/{sent_game.pk}/").text
    assert "mail is not reaching Bob" in page and "unsubscribed" not in page


def test_the_way_back_after_a_mailgun_unsubscribe_is_the_players_yes_and_the_link(
    client: Client, esp_client: Client, sent_game: Game
) -> None:
    """The banner's button asks for "I want game emails again" (an unsubscribe
    is the player's choice); then the confirmation link starts mail again, in
    the email mode the player had."""
    (message,) = sent_to(sent_game, "bob", 1)
    User.objects.filter(username="bob").update(email_mode=User.EmailMode.DIGEST)
    mailgun(esp_client, "unsubscribed", message)
    assert bob_stopped() == MailStatus.Stop.UNSUBSCRIBED
    client.force_login(User.objects.get(username="bob"))
    banner = client.get("/account/profile/").text
    assert "you unsubscribed through our mail provider" in banner
    assert 'name="want_mail"' in banner
    page = client.post("/mail/again/", follow=True).text
    assert "because you unsubscribed through our mail provider" in page
    assert bob_stopped() == MailStatus.Stop.UNSUBSCRIBED
    page = client.post("/mail/again/", {"want_mail": "yes"}, follow=True).text
    assert "We sent a confirmation link to bob@example.com" in page
    link = re.search(r"https?://\S+(/account/email/\S+/)", mail.outbox[-1].body)
    assert link is not None and mail.outbox[-1].to == ["bob@example.com"]
    assert client.post(link.group(1)).status_code == 302
    assert bob_stopped() is None
    assert User.objects.get(username="bob").email_mode == User.EmailMode.DIGEST


def test_a_bounce_and_a_complaint_outrank_an_unsubscribe(
    esp_client: Client, sent_game: Game
) -> None:
    """The banner names the stop whose way back the player needs."""
    first, second, third = sent_to(sent_game, "bob", 3)
    postmark(esp_client, postmark_subscription_change("bob@example.com", first))
    mailgun(esp_client, "bounce", second)
    assert bob_stopped() == MailStatus.Stop.BOUNCED
    postmark(esp_client, postmark_subscription_change("bob@example.com", third))
    assert bob_stopped() == MailStatus.Stop.BOUNCED
    mailgun(esp_client, "complaint", third)
    assert bob_stopped() == MailStatus.Stop.COMPLAINED


def test_a_postmark_reactivation_changes_nothing(esp_client: Client, sent_game: Game) -> None:
    (message,) = sent_to(sent_game, "bob", 1)
    postmark(esp_client, postmark_subscription_change("bob@example.com", message, suppress=False))
    assert MailEvent.objects.get().event == "subscribed"
    assert bob_stopped() is None


def test_a_delivery_posted_after_an_unsubscribe_changes_nothing(
    esp_client: Client, sent_game: Game
) -> None:
    message, other = sent_to(sent_game, "bob", 2)
    postmark(esp_client, postmark_subscription_change("bob@example.com", message))
    postmark(esp_client, postmark_delivery("bob@example.com", other))
    assert bob_stopped() == MailStatus.Stop.UNSUBSCRIBED
