"""An email backend that keeps every message in the local mailbox."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.core.mail.backends.base import BaseEmailBackend

from devmail.models import Message


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        for email in email_messages:
            mime = email.message()
            html = ""
            if isinstance(email, EmailMultiAlternatives):
                html = next(
                    (str(content) for content, mime in email.alternatives if mime == "text/html"),
                    "",
                )
            Message.objects.create(
                message_id=str(mime["Message-ID"] or ""),
                sender=str(email.from_email),
                to="\n".join(email.recipients()),
                subject=str(email.subject),
                text=str(email.body),
                html=html,
                headers={k: str(v) for k, v in mime.items()},
                raw=mime.as_string(),
            )
        return len(email_messages)
