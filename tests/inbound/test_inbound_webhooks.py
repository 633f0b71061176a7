"""Replies as the ESPs really post them: Mailgun's Routes ``forward()`` form
posts (raw MIME and fully parsed) and Postmark's inbound JSON, sent with the
test client to django-anymail's real webhook URLs, credentials and all."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from email.utils import formatdate, make_msgid
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail import EmailMultiAlternatives
from django.test import Client, override_settings
from inbound_mails import mover, waiting

from accounts.models import User
from games import services
from games.emails import message_for
from games.engine import legal_moves
from games.models import Event, Game, InboundMail, Notification
from games.reply_addresses import reply_address, reply_token

pytestmark = pytest.mark.django_db
Kind = Notification.Kind

SIGNING_KEY = "key-0123456789abcdef0123456789abcdef"
BASIC_AUTH = "esp:correct-horse-battery-staple"
MAILGUN_INBOUND = "/anymail/mailgun/inbound/"
MAILGUN_INBOUND_MIME = "/anymail/mailgun/inbound_mime/"
POSTMARK_INBOUND = "/anymail/postmark/inbound/"


@pytest.fixture(autouse=True)
def webhook_credentials() -> Iterator[None]:
    """Both credentials set, as a production site configures them."""
    with override_settings(
        ANYMAIL={"WEBHOOK_SECRET": BASIC_AUTH, "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    ):
        yield


def auth_headers(credentials: str | None) -> dict[str, str]:
    """The header an ESP sends for ``https://user:pass@site/anymail/...``."""
    if credentials is None:
        return {}
    return {"Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()}


# --- the reply, as a mail client writes it -------------------------------------------


@dataclass(frozen=True)
class Reply:
    """A player's reply to their latest game email, in the pieces the ESPs post."""

    sender_name: str
    sender: str
    to: str
    subject: str
    message_id: str
    in_reply_to: str
    references: str
    date: str
    text: str
    html: str

    def headers(self) -> list[tuple[str, str]]:
        """The headers of the message as the mail client sent it (in order)."""
        return [
            ("From", f"{self.sender_name} <{self.sender}>"),
            ("To", self.to),
            ("Subject", self.subject),
            ("Date", self.date),
            ("Message-ID", self.message_id),
            ("In-Reply-To", self.in_reply_to),
            ("References", self.references),
            ("MIME-Version", "1.0"),
        ]

    def mime(self) -> str:
        """The whole raw message: text and HTML alternatives."""
        boundary = "000000000000b2c1f4061a3e5d77"
        lines = [f"{name}: {value}" for name, value in self.headers()]
        lines.append(f'Content-Type: multipart/alternative; boundary="{boundary}"')
        lines += [
            "",
            f"--{boundary}",
            'Content-Type: text/plain; charset="UTF-8"',
            "",
            self.text,
            f"--{boundary}",
            'Content-Type: text/html; charset="UTF-8"',
            "",
            self.html,
            f"--{boundary}--",
            "",
        ]
        return "\n".join(lines).replace("\n", "\r\n")  # SMTP line endings


def turn_email(game: Game, user: User) -> EmailMultiAlternatives:
    """The "your turn" email ``user`` got, as the outbox renders it."""
    note = (
        Notification.objects.select_related("game", "user")
        .filter(game=game, user=user, kind=Kind.YOUR_TURN)
        .latest("pk")
    )
    email = message_for(note)
    assert email is not None, "the player whose turn it is is sent a turn email"
    return email


def reply_to_turn(game: Game, user: User, move: str, *, sender: str | None = None) -> Reply:
    """``user`` answers their turn email with ``move`` on the first line, the
    email quoted below, as Gmail would write it."""
    email = turn_email(game, user)
    assert email.extra_headers["Reply-To"] == reply_address(user.pk, game.pk)
    quoted = "\n".join("> " + line for line in email.body.splitlines())
    when = "On Tue, 3 Jun 2025 at 14:00, Jumbulaya <jumbulaya@localhost> wrote:"
    original = email.extra_headers["Message-ID"]
    return Reply(
        sender_name=user.public_name,
        sender=sender or user.email,
        to=email.extra_headers["Reply-To"],
        subject=f"Re: {email.subject}",
        message_id=make_msgid(domain="mail.gmail.example"),
        in_reply_to=original,
        references=f"{email.extra_headers['References']} {original}",
        date=formatdate(localtime=False),
        text=f"{move}\n\n{when}\n{quoted}\n",
        html=(
            f'<div dir="ltr">{move}</div><br><div class="gmail_quote">'
            f'<div dir="ltr" class="gmail_attr">{when}<br></div>'
            f'<blockquote class="gmail_quote">{email.body.replace(chr(10), "<br>")}'
            "</blockquote></div>"
        ),
    )


def a_word_move(game: Game) -> str:
    """A legal word for the player whose turn it is, as they would write it."""
    state = services.current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, services.game_lexicon(game))
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


def mailgun_signed(key: str = SIGNING_KEY) -> dict[str, str]:
    """Mailgun's security fields: hex HMAC-SHA256 of timestamp + token."""
    timestamp = str(int(time.time()))
    token = secrets.token_hex(25)  # Mailgun's tokens are 50 characters
    signature = hmac.new(
        key.encode("ascii"), (timestamp + token).encode("ascii"), hashlib.sha256
    ).hexdigest()
    return {"timestamp": timestamp, "token": token, "signature": signature}


def mailgun_mime_form(reply: Reply) -> dict[str, str]:
    """The form a route's ``forward()`` to a URL ending in "mime" posts."""
    return {
        "recipient": reply.to,
        "sender": reply.sender,
        "from": f"{reply.sender_name} <{reply.sender}>",
        "subject": reply.subject,
        "body-mime": reply.mime(),
        **mailgun_signed(),
    }


def mailgun_parsed_form(reply: Reply) -> dict[str, Any]:
    """The "fully parsed" form of a route's ``forward()``: every header is a
    field of its own and in ``message-headers``; the signature image of the
    mail client is ``attachment-1``."""
    headers = [
        ["X-Mailgun-Incoming", "Yes"],
        ["X-Envelope-From", f"<{reply.sender}>"],
        ["Received", "from mail-wr1-f41.google.example ([209.85.221.41]) by mxa.mailgun.org"],
        *[[name, value] for name, value in reply.headers()],
        ["Content-Type", 'multipart/mixed; boundary="000000000000c3d2a5061a3e5d78"'],
    ]
    return {
        "recipient": reply.to,
        "sender": reply.sender,
        "from": f"{reply.sender_name} <{reply.sender}>",
        "subject": reply.subject,
        "To": reply.to,
        "From": f"{reply.sender_name} <{reply.sender}>",
        "Subject": reply.subject,
        "Date": reply.date,
        "Message-Id": reply.message_id,
        "In-Reply-To": reply.in_reply_to,
        "References": reply.references,
        "Mime-Version": "1.0",
        "X-Mailgun-Incoming": "Yes",
        "body-plain": reply.text,
        "body-html": reply.html,
        "stripped-text": reply.text.split("\n\nOn ")[0],
        "stripped-signature": "",
        "stripped-html": reply.html.split("<br>")[0],
        "message-headers": json.dumps(headers),
        "content-id-map": "{}",
        "attachment-count": "1",
        "attachment-1": SimpleUploadedFile("logo.png", b"\x89PNG\r\n\x1a\nfake", "image/png"),
        **mailgun_signed(),
    }


def post_form(client: Client, url: str, form: dict[str, Any], auth: str | None = BASIC_AUTH) -> int:
    """Post as Mailgun does (multipart/form-data); the HTTP status answered."""
    return client.post(url, form, headers=auth_headers(auth)).status_code


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


def postmark_payload(
    reply: Reply, *, extra_headers: Sequence[tuple[str, str]] = ()
) -> dict[str, Any]:
    """Postmark's inbound webhook JSON, as documented: ``Return-Path`` first in
    ``Headers``, the original Message-ID among them (``MessageID`` is Postmark's
    own id)."""
    mailbox_hash = reply.to.partition("+")[2].partition("@")[0]
    logo = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()
    return {
        "FromName": reply.sender_name,
        "MessageStream": "inbound",
        "From": reply.sender,
        "FromFull": {"Email": reply.sender, "Name": reply.sender_name, "MailboxHash": ""},
        "To": reply.to,
        "ToFull": [{"Email": reply.to, "Name": "", "MailboxHash": mailbox_hash}],
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": reply.to,
        "Subject": reply.subject,
        "MessageID": str(uuid.uuid4()),
        "ReplyTo": "",
        "MailboxHash": mailbox_hash,
        "Date": reply.date,
        "TextBody": reply.text,
        "HtmlBody": reply.html,
        "StrippedTextReply": reply.text.split("\n\nOn ")[0],
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{reply.sender}>"},
            {"Name": "Received", "Value": "by p-pm-inboundg02a-aws-useast1a with SMTP"},
            {"Name": "X-Spam-Checker-Version", "Value": "SpamAssassin 3.4.0"},
            {"Name": "X-Spam-Status", "Value": "No"},
            {"Name": "X-Spam-Score", "Value": "-0.1"},
            {"Name": "X-Spam-Tests", "Value": "DKIM_SIGNED,DKIM_VALID,SPF_PASS"},
            {"Name": "Received-SPF", "Value": "pass"},
            {"Name": "MIME-Version", "Value": "1.0"},
            {"Name": "Message-ID", "Value": reply.message_id},
            {"Name": "In-Reply-To", "Value": reply.in_reply_to},
            {"Name": "References", "Value": reply.references},
            *[{"Name": name, "Value": value} for name, value in extra_headers],
        ],
        "Attachments": [
            {"Name": "logo.png", "Content": logo, "ContentType": "image/png", "ContentLength": 12}
        ],
    }


def post_json(client: Client, payload: dict[str, Any], auth: str | None = BASIC_AUTH) -> int:
    """Post as Postmark does (JSON); the HTTP status answered."""
    response = client.post(
        POSTMARK_INBOUND,
        json.dumps(payload),
        content_type="application/json",
        headers=auth_headers(auth),
    )
    return response.status_code


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
    from games import inbound

    def broken(*args: Any, **kwargs: Any) -> None:
        raise TypeError("a bug")

    monkeypatch.setattr(inbound, "receive", broken)
    game = two_player
    payload = postmark_payload(reply_to_turn(game, mover(game), "pass"))
    before = counts(game)
    assert post_json(Client(raise_request_exception=False), payload) == 500
    assert counts(game) == before
