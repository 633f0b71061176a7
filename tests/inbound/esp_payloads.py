"""Replies as the ESPs really post them: Mailgun's Routes ``forward()`` form
posts (raw MIME and fully parsed) and Postmark's inbound JSON, built from the
"your turn" email a player got, as their mail client would answer it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from email.utils import formatdate, make_msgid
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from accounts.models import User
from games.mail_out.emails import message_for
from games.mail_out.reply_addresses import reply_address
from games.models import Game, Notification

Kind = Notification.Kind

SIGNING_KEY = "key-0123456789abcdef0123456789abcdef"
BASIC_AUTH = "esp:correct-horse-battery-staple"
MAILGUN_INBOUND = "/anymail/mailgun/inbound/"
MAILGUN_INBOUND_MIME = "/anymail/mailgun/inbound_mime/"
POSTMARK_INBOUND = "/anymail/postmark/inbound/"


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
