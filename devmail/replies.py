"""Replies written in the local mailbox: a real MIME email, as a mail client
would send it, handed to the same path an ESP's inbound webhook feeds."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import NamedTuple

from anymail.inbound import AnymailInboundMessage

from devmail.models import Message
from games.mail_in import inbound

#: The domain of the Message-IDs the mailbox's "mail client" writes.
CLIENT_DOMAIN = "mailbox.localhost"


def quoted(mail: Message) -> str:
    """The body a mail client would offer: room on top, the email quoted below."""
    quote = "\n".join("> " + line for line in mail.text.splitlines())
    when = mail.created_at.strftime("%a %d %b %Y at %H:%M")
    return f"\n\nOn {when}, {mail.sender} wrote:\n{quote}\n"


def reply_mime(mail: Message, body: str) -> EmailMessage:
    """The reply to ``mail`` from its (first) recipient."""
    mime = EmailMessage()
    mime["From"] = mail.to.splitlines()[0]
    mime["To"] = mail.headers.get("Reply-To") or mail.sender
    subject = mail.subject
    mime["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    mime["Date"] = formatdate()
    mime["Message-ID"] = make_msgid(domain=CLIENT_DOMAIN)
    if mail.message_id:
        mime["In-Reply-To"] = mail.message_id
        references = mail.headers.get("References", "")
        mime["References"] = f"{references} {mail.message_id}".strip()
    mime.set_content(body)
    return mime


class SentReply(NamedTuple):
    reply: Message  # the reply as the mailbox keeps it
    outcome: inbound.Outcome


def send_reply(mail: Message, body: str) -> SentReply:
    """Write the reply, keep it in the mailbox, and receive it."""
    mime = reply_mime(mail, body)
    reply = Message.objects.create(
        message_id=str(mime["Message-ID"]),
        sender=str(mime["From"]),
        to=str(mime["To"]),
        subject=str(mime["Subject"]),
        text=body,
        headers={k: str(v) for k, v in mime.items()},
        raw=mime.as_string(),
    )
    outcome = inbound.receive(
        AnymailInboundMessage.parse_raw_mime_bytes(mime.as_bytes()), via="mailbox"
    )
    return SentReply(reply, outcome)
