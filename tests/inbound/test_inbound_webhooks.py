"""Replies as the ESPs really post them: Mailgun's Routes ``forward()`` form
posts (raw MIME and fully parsed) and Postmark's inbound JSON, sent with the
test client to the real webhook URLs, credentials and all (the payloads are
built in ``esp_payloads``)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from esp_payloads import (
    BASIC_AUTH,
    MAILGUN_INBOUND,
    MAILGUN_INBOUND_MIME,
    POSTMARK_INBOUND,
    Reply,
    auth_headers,
    mailgun_mime_form,
    mailgun_parsed_form,
    mailgun_signed,
    post_form,
    post_json,
    postmark_payload,
    reply_to_turn,
)
from inbound_mails import mover, waiting

from accounts.models import User
from games.core import projection
from games.engine.jumbulaya import legal_moves
from games.mail_out.reply_addresses import reply_token
from games.models import Event, Game, InboundMail, Notification

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("esp_webhooks")]
Kind = Notification.Kind


def a_word_move(game: Game) -> str:
    """A legal word for the player whose turn it is, as they would write it."""
    state = projection.current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, projection.game_lexicon(game))
    words = [m.notation() for m in moves]
    assert words, "a fresh deal has a word to play"
    return words[0]


# --- what changed ----------------------------------------------------------------------


def counts(game: Game) -> tuple[int, int, int]:
    """Events of the game, InboundMail rows, Notifications: what a post may change."""
    return (
        Event.objects.filter(game=game).count(),
        InboundMail.objects.count(),
        Notification.objects.count(),
    )


def assert_moved(game: Game, player: User, reply: Reply, via: str, before: tuple[int, ...]) -> None:
    """One move by email, one InboundMail row, one "done" answer owed: nothing else."""
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert (row.status, row.via, row.sender, row.user, row.game) == (
        "moved",
        via,
        player.email,
        player,
        game,
    )
    event = Event.objects.filter(game=game).latest("seq")
    assert event.source == "email" and event.seq == row.event_seq
    done = Notification.objects.filter(user=player, kind=Kind.REPLY_DONE)
    assert [n.inbound_id for n in done] == [row.pk]
    events, mails, notes = before
    assert Event.objects.filter(game=game).count() == events + 1
    assert InboundMail.objects.count() == mails + 1
    # The answer and the next player's "your turn" email.
    assert Notification.objects.count() == notes + 2


def assert_dropped_unanswered(game: Game, reply: Reply, before: tuple[int, ...]) -> None:
    """Logged as dropped, and nothing else: no move and no email to anyone."""
    events, mails, notes = before
    row = InboundMail.objects.get(message_id=reply.message_id)
    assert row.status == "dropped" and row.reason
    assert (row.user, row.game) == (None, None)
    assert counts(game) == (events, mails + 1, notes)
    assert not Notification.objects.filter(kind__in=[Kind.REPLY_DONE, Kind.REPLY_REFUSED]).exists()


# --- Mailgun -------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [MAILGUN_INBOUND_MIME, MAILGUN_INBOUND])
def test_a_signed_mailgun_post_makes_the_move(two_player: Game, client: Client, url: str) -> None:
    game = two_player
    ann = mover(game)
    reply = reply_to_turn(game, ann, "pass")
    form = mailgun_mime_form(reply) if url == MAILGUN_INBOUND_MIME else mailgun_parsed_form(reply)
    before = counts(game)
    assert post_form(client, url, form) == 200
    assert_moved(game, ann, reply, "mailgun", before)
    assert Event.objects.filter(game=game).latest("seq").type == "passed"
    assert mover(game) != ann  # the turn has passed on


@pytest.mark.parametrize("url", [MAILGUN_INBOUND_MIME, MAILGUN_INBOUND])
def test_a_mailgun_post_with_a_wrong_signature_changes_nothing(
    two_player: Game, client: Client, url: str
) -> None:
    game = two_player
    reply = reply_to_turn(game, mover(game), "pass")
    form = mailgun_mime_form(reply) if url == MAILGUN_INBOUND_MIME else mailgun_parsed_form(reply)
    form["signature"] = mailgun_signed("key-not-the-signing-key")["signature"]
    before = counts(game)
    assert post_form(client, url, form) == 400
    assert counts(game) == before


def test_a_mailgun_post_without_its_signature_changes_nothing(
    two_player: Game, client: Client
) -> None:
    game = two_player
    form = mailgun_mime_form(reply_to_turn(game, mover(game), "pass"))
    del form["signature"]
    before = counts(game)
    assert post_form(client, MAILGUN_INBOUND_MIME, form) == 400
    assert counts(game) == before


def test_a_mailgun_post_without_basic_auth_changes_nothing(
    two_player: Game, client: Client
) -> None:
    """The signature is right but WEBHOOK_SECRET is set and the post has no
    basic auth.  django-anymail answers every failed check with 400 (its
    ``AnymailWebhookValidationFailure`` is a ``SuspiciousOperation``), not 401."""
    game = two_player
    form = mailgun_mime_form(reply_to_turn(game, mover(game), "pass"))
    before = counts(game)
    assert post_form(client, MAILGUN_INBOUND_MIME, form, auth=None) == 400
    assert counts(game) == before
    assert post_form(client, MAILGUN_INBOUND_MIME, form, auth="esp:guess") == 400
    assert counts(game) == before


# --- Postmark ------------------------------------------------------------------------------


def test_a_postmark_post_makes_the_move(two_player: Game, client: Client) -> None:
    game = two_player
    ann = mover(game)
    reply = reply_to_turn(game, ann, "pass")
    before = counts(game)
    assert post_json(client, postmark_payload(reply)) == 200
    assert_moved(game, ann, reply, "postmark", before)


def test_a_postmark_post_with_wrong_basic_auth_changes_nothing(
    two_player: Game, client: Client
) -> None:
    """django-anymail answers a missing or wrong basic auth with 400."""
    game = two_player
    payload = postmark_payload(reply_to_turn(game, mover(game), "pass"))
    before = counts(game)
    assert post_json(client, payload, auth="esp:guess") == 400
    assert post_json(client, payload, auth=None) == 400
    assert counts(game) == before


def test_an_html_only_postmark_reply_makes_the_move(two_player: Game, client: Client) -> None:
    """Some clients send HTML alone: the move is read from the HTML as text."""
    game = two_player
    ann = mover(game)
    move = a_word_move(game)
    reply = reply_to_turn(game, ann, move)
    payload = postmark_payload(reply)
    payload["TextBody"] = ""
    payload["StrippedTextReply"] = ""
    before = counts(game)
    assert post_json(client, payload) == 200
    assert_moved(game, ann, reply, "postmark", before)
    assert InboundMail.objects.get(message_id=reply.message_id).move == move
    assert Event.objects.filter(game=game).latest("seq").type == "word_built"


def test_one_postmark_webhook_posted_46_times_makes_one_move(
    two_player: Game, client: Client
) -> None:
    """Postmark retries a webhook (and may deliver one twice): the Message-ID
    in its ``Headers`` makes the second and later posts do nothing, yet each
    is answered 200 so that the retries stop."""
    game = two_player
    ann = mover(game)
    reply = reply_to_turn(game, ann, "pass")
    body = postmark_payload(reply)
    before = counts(game)
    statuses = [post_json(client, body) for _ in range(46)]
    assert statuses == [200] * 46
    assert_moved(game, ann, reply, "postmark", before)
    assert Event.objects.filter(game=game, source="email").count() == 1
    assert InboundMail.objects.count() == before[1] + 1
    assert Notification.objects.filter(kind=Kind.REPLY_DONE).count() == 1


def test_a_forged_sender_is_dropped_without_an_answer(two_player: Game, client: Client) -> None:
    """The right reply address, someone else's From: answered 200 (so the ESP
    does not retry), but no move and no email back to a forged sender."""
    game = two_player
    ann = mover(game)
    reply = reply_to_turn(game, ann, "resign", sender="mallory@example.net")
    assert reply_token(ann.pk, game.pk) in reply.to
    before = counts(game)
    assert post_json(client, postmark_payload(reply)) == 200
    assert_dropped_unanswered(game, reply, before)
    assert "not the player" in InboundMail.objects.get(message_id=reply.message_id).reason
    game.refresh_from_db()
    assert game.status == "playing"


def test_a_forged_sender_naming_the_other_player_is_dropped(
    two_player: Game, client: Client
) -> None:
    """Bob, a player of this game, may not answer with Ann's reply address."""
    game = two_player
    ann, bob = mover(game), waiting(game)
    reply = reply_to_turn(game, ann, "pass", sender=bob.email)
    before = counts(game)
    assert post_json(client, postmark_payload(reply)) == 200
    assert_dropped_unanswered(game, reply, before)


@pytest.mark.parametrize(
    "header",
    [("Auto-Submitted", "auto-replied"), ("X-Autoreply", "yes"), ("Precedence", "auto_reply")],
)
def test_an_auto_reply_is_dropped_without_an_answer(
    two_player: Game, client: Client, header: tuple[str, str]
) -> None:
    """An out-of-office reply to a turn email: never read, never answered (no mail loops)."""
    game = two_player
    ann = mover(game)
    reply = reply_to_turn(game, ann, "I am away until Monday.")
    before = counts(game)
    payload = postmark_payload(reply, extra_headers=[header])
    assert post_json(client, payload) == 200
    assert_dropped_unanswered(game, reply, before)


def test_a_postmark_webhook_without_message_id_posted_twice_makes_one_move(
    two_player: Game, client: Client
) -> None:
    """A message without a Message-ID is known by a digest of its content.
    django-anymail builds Postmark's parsed JSON into a new MIME message on
    every post, with new multipart boundaries: the digest must not see them."""
    game = two_player
    ann = mover(game)
    reply = reply_to_turn(game, ann, "pass")
    payload = postmark_payload(reply)
    payload["Headers"] = [h for h in payload["Headers"] if h["Name"] != "Message-ID"]
    before = counts(game)
    assert [post_json(client, payload) for _ in range(2)] == [200, 200]
    (row,) = InboundMail.objects.all()
    assert row.status == "moved" and row.message_id.startswith("sha256:")
    assert counts(game) == (before[0] + 1, before[1] + 1, before[2] + 2)
    assert Notification.objects.filter(kind=Kind.REPLY_DONE).count() == 1


@pytest.mark.parametrize(
    ("url", "body", "content_type"),
    [
        (POSTMARK_INBOUND, "not json", "application/json"),
        (POSTMARK_INBOUND, "[1, 2]", "application/json"),
        (POSTMARK_INBOUND, '{"Headers": 5, "FromFull": "nobody"}', "application/json"),
    ],
)
def test_a_payload_that_cannot_be_read_is_a_400_that_says_so(
    client: Client, url: str, body: str, content_type: str
) -> None:
    response = client.post(url, body, content_type=content_type, headers=auth_headers(BASIC_AUTH))
    assert response.status_code == 400
    assert "payload could not be read" in response.content.decode()
    assert not InboundMail.objects.exists()


def test_a_failure_after_reading_is_a_500_so_the_esp_retries(
    two_player: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.mail_in import inbound

    def broken(*args: Any, **kwargs: Any) -> None:
        raise TypeError("a bug")

    monkeypatch.setattr(inbound, "receive", broken)
    game = two_player
    payload = postmark_payload(reply_to_turn(game, mover(game), "pass"))
    before = counts(game)
    assert (
        post_json(Client(raise_request_exception=False, enforce_csrf_checks=True), payload) == 500
    )
    assert counts(game) == before
