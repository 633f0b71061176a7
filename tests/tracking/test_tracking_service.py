"""What a stopped address changes: the outbox holds its rows (kept, marked
why), send-time 5xx and 4xx errors count, sign-in links still go, the player
sees the banner and can confirm the address again, the other players see a
note, the local mailbox's buttons, and the deadlines' removal waits."""

from __future__ import annotations

import re
import smtplib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine
from anymail.exceptions import AnymailRecipientsRefused
from django.core import mail
from django.test import Client

from accounts.models import User
from devmail.models import Message
from games.core import door, lobby, timeouts
from games.engine.jumbulaya import PRESETS
from games.mail_out import outbox, tracking
from games.models import Event, Game, MailEvent, MailStatus, Notification, Seat

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def stop(address: str, reason: str = MailStatus.Stop.BOUNCED) -> None:
    tracking.note(
        key=f"test:{address}:{reason}",
        via="test",
        event="complained" if reason == MailStatus.Stop.COMPLAINED else "bounced",
        weight="complaint" if reason == MailStatus.Stop.COMPLAINED else "hard",
        address=address,
        occurred_at=datetime.now(UTC),
        detail="550 5.1.1 no such user",
    )


def owe_bob(game: Game) -> Notification:
    bob = User.objects.get(username="bob")
    (row,) = outbox.owe(game, Kind.GAME_STARTED, users=[bob.pk], seq=game.last_seq)
    return row


# --- the outbox ---------------------------------------------------------------------


def test_the_message_id_sent_is_stored_on_the_row(sent_game: Game) -> None:
    row = Notification.objects.filter(game=sent_game).latest("pk")
    sent = [m for m in mail.outbox if m.to == [row.user.email]][-1]  # type: ignore[union-attr]
    assert row.esp_message_id == sent.extra_headers["Message-ID"].strip("<>")


def test_a_stopped_address_gets_no_game_mail_and_its_rows_are_kept_and_marked(
    sent_game: Game,
) -> None:
    stop("bob@example.com")
    row = owe_bob(sent_game)
    before = len(mail.outbox)
    assert outbox.sweep() == 0
    row.refresh_from_db()
    assert row.sent_at is None and row.held_at is not None
    assert row.held_reason == MailStatus.Stop.BOUNCED
    assert len(mail.outbox) == before
    # Held rows are done with: they hold nothing back and are not tried again.
    ann = User.objects.get(username="ann")
    outbox.owe(sent_game, Kind.YOUR_TURN, users=[ann.pk], seq=sent_game.last_seq)
    assert outbox.sweep() == 1
    assert outbox.sweep() == 0


def test_a_sign_in_link_still_goes_to_a_stopped_address(client: Client, sent_game: Game) -> None:
    stop("bob@example.com")
    response = client.post("/account/sign-in/", {"email": "bob@example.com"})
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["bob@example.com"]


def _failing(failure: Exception) -> Any:
    return mock.patch("django.core.mail.EmailMultiAlternatives.send", side_effect=failure)


@pytest.mark.parametrize(
    "failure",
    [
        smtplib.SMTPRecipientsRefused({"bob@example.com": (550, b"5.1.1 No such user")}),
        AnymailRecipientsRefused("Recipients refused"),
    ],
    ids=["550 rcpt", "anymail refused"],
)  # a refusal at DATA is of our content, not of the address (test_our_send_failures.py)
def test_a_permanent_send_failure_is_a_hard_bounce(sent_game: Game, failure: Exception) -> None:
    row = owe_bob(sent_game)
    with _failing(failure):
        assert outbox.send(row.pk) is False
    row.refresh_from_db()
    assert row.held_at is not None and row.sent_at is None and row.last_error
    event = MailEvent.objects.get()
    assert (event.via, event.weight, event.notification_id) == ("send", "hard", row.pk)
    assert tracking.stopped("bob@example.com") is not None


def test_a_temporary_send_failure_is_retried_and_counts_as_soft_once_it_keeps_failing(
    sent_game: Game,
) -> None:
    row = owe_bob(sent_game)
    failure = smtplib.SMTPRecipientsRefused({"bob@example.com": (452, b"4.2.2 Mailbox full")})
    with time_machine.travel(datetime.now(UTC), tick=False) as clock, _failing(failure):
        for attempt in range(1, 5):
            assert outbox.send(row.pk) is False
            row.refresh_from_db()
            assert row.held_at is None and row.retry_at is not None  # backed off
            soft = MailEvent.objects.filter(weight="soft").count()
            assert soft == (1 if attempt >= tracking.SOFT_SEND_ATTEMPTS else 0)
            clock.move_to(row.retry_at)
    assert tracking.stopped("bob@example.com") is None  # one message: one soft failure


def test_a_failure_that_is_not_about_the_address_does_not_count(sent_game: Game) -> None:
    row = owe_bob(sent_game)
    with _failing(smtplib.SMTPSenderRefused(550, b"not our sender", "jumbulaya@localhost")):
        outbox.send(row.pk)
    with _failing(ConnectionRefusedError("no server")):
        Notification.objects.filter(pk=row.pk).update(retry_at=None)
        outbox.send(row.pk)
    assert MailEvent.objects.count() == 0


# --- the pages ----------------------------------------------------------------------


def test_the_banner_says_when_and_why_and_records_that_it_was_seen(
    client: Client, sent_game: Game
) -> None:
    stop("bob@example.com")
    bob = User.objects.get(username="bob")
    client.force_login(bob)
    page = client.get("/account/profile/").text
    assert "We have stopped emailing you" in page
    assert "it bounced" in page and "550 5.1.1 no such user" in page
    assert "Confirm bob@example.com again" in page
    status = MailStatus.objects.get(address="bob@example.com")
    assert status.warned_at is not None
    seen = status.warned_at
    client.get(f"/games/{sent_game.pk}/")
    status.refresh_from_db()
    assert status.warned_at == seen  # the first time only


def test_other_players_see_the_note_without_reason_or_address(
    client: Client, sent_game: Game
) -> None:
    stop("bob@example.com")
    client.force_login(User.objects.get(username="ann"))
    page = client.get(f"/games/{sent_game.pk}/").text
    assert "mail is not reaching Bob" in page
    assert "bob@example.com" not in page and "bounced" not in page
    assert "We have stopped emailing you" not in page


def test_a_spectator_is_not_told_whose_mail_has_stopped(
    client: Client, started_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    """Whether mail reaches a player is the players' business (issue 27,
    finding 13): not on a spectator's page nor its live part."""
    game = started_game(players=2, is_public=True)
    stop("bob@example.com")
    client.force_login(make_user("zoe"))
    for headers in ({}, {"HX-Request": "true"}):
        page = client.get(f"/games/{game.pk}/", headers=headers)
        assert page.status_code == 200 and "Bob" in page.text
        assert "mail is not reaching" not in page.text and "mail-stopped-note" not in page.text


def test_a_complaint_turns_emails_off_and_the_page_says_so(client: Client, sent_game: Game) -> None:
    stop("bob@example.com", MailStatus.Stop.COMPLAINED)
    bob = User.objects.get(username="bob")
    assert bob.email_mode == User.EmailMode.NONE
    client.force_login(bob)
    page = client.get("/account/profile/").text
    assert "marked as spam" in page and "email preferences" in page


def test_confirming_the_address_again_starts_mail_again(client: Client, sent_game: Game) -> None:
    stop("bob@example.com")
    client.force_login(User.objects.get(username="bob"))
    assert client.post("/mail/again/").status_code == 302
    confirmation = mail.outbox[-1]
    assert confirmation.to == ["bob@example.com"]
    link = re.search(r"https?://\S+(/account/email/\S+/)", confirmation.body)
    assert link is not None
    page = client.get(link.group(1))
    assert "Confirm bob@example.com" in page.text
    assert client.post(link.group(1)).status_code == 302
    assert tracking.stopped("bob@example.com") is None
    assert "We have stopped emailing you" not in client.get("/account/profile/").text
    row = owe_bob(sent_game)
    assert outbox.sweep() == 1
    row.refresh_from_db()
    assert row.sent_at is not None


# --- the local mailbox ----------------------------------------------------------------


@pytest.mark.parametrize("action", ["bounce", "spam"])
def test_the_mailbox_buttons_feed_the_tracking_path(
    client: Client, settings: Any, make_user: Callable[[str], User], action: str
) -> None:
    settings.JUMBULAYA_MAILBOX = True
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    ann, bob = make_user("ann"), make_user("bob")
    game = lobby.create_game(
        ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email]
    )
    lobby.join_game(game.pk, bob)
    outbox.sweep()
    kept = Message.objects.filter(to="bob@example.com").latest("pk")
    row = Notification.objects.get(esp_message_id=kept.message_id.strip("<>"))
    url = f"/dev/mailbox/{kept.pk}/report/"
    assert client.post(url, {"action": action}).status_code == 302
    assert client.post(url, {"action": action}).status_code == 302  # once
    event = MailEvent.objects.get()
    assert (event.via, event.notification) == ("mailbox", row)
    stopped = tracking.stopped("bob@example.com")
    assert stopped is not None
    assert stopped.reason == ("bounced" if action == "bounce" else "complained")
    assert client.post(url, {"action": "other"}).status_code == 400


# --- the deadlines ----------------------------------------------------------------------


T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)


def _run_out(game: Game, clock: Any) -> int:
    game.refresh_from_db()
    assert game.deadline_at is not None
    clock.move_to(game.deadline_at)
    return timeouts.sweep_deadlines()


def _others_pass(game: Game, until: int) -> None:
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING and game.turn_seat != until:
        assert game.turn_seat is not None
        door.submit(game.pk, game.turn_seat, "pass", game.last_seq, "web")
        game.refresh_from_db()


def test_a_seat_whose_mail_stopped_is_passed_but_removed_only_a_full_deadline_after_its_warning(
    started_game: Callable[..., Game], client: Client
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=3, move_hours=24, timeout_limit=2)
        late = game.turn_seat
        assert late is not None
        user = Seat.objects.get(game=game, index=late).user
        assert user is not None
        stop(user.email)
        assert _run_out(game, clock) == 1  # passed
        _others_pass(game, late)
        assert _run_out(game, clock) == 1  # at the limit, but never warned: passed only
        _others_pass(game, late)
        clock.shift(timedelta(hours=12))
        client.force_login(user)
        client.get("/account/profile/")  # the banner is seen, 12 h before the deadline
        assert _run_out(game, clock) == 1  # warned less than a full deadline ago
        _others_pass(game, late)
        assert _run_out(game, clock) == 2  # warned 24 h ago or more: passed and removed
    assert Event.objects.filter(game=game, type="resigned", seat=late).count() == 1


def test_a_seat_whose_mail_was_restored_is_removed_as_usual(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=3, move_hours=24, timeout_limit=1)
        late = game.turn_seat
        assert late is not None
        user = Seat.objects.get(game=game, index=late).user
        assert user is not None
        stop(user.email)
        tracking.restore(user.email)
        assert _run_out(game, clock) == 2
    assert tracking.removal_may_go(user.pk, 60, T0 + timedelta(days=9))
