"""An email backend for a worker process whose sends a test counts: each
message's ``Message-ID`` is appended, one a line, to ``$JUMBULAYA_SENT_FILE``."""

from __future__ import annotations

import os
from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        with open(os.environ["JUMBULAYA_SENT_FILE"], "a", encoding="utf-8") as sent:
            for message in email_messages:
                sent.write(f"{message.extra_headers.get('Message-ID', '')}\n")
        return len(email_messages)
