"""An email backend for a worker process that is to be killed mid-send: it
touches ``$JUMBULAYA_STALL_FILE`` (so the test knows a row is taken and being
sent) and then hangs, sending nothing."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        Path(os.environ["JUMBULAYA_STALL_FILE"]).touch()
        time.sleep(600)
        return 0
