"""The banner every page shows a signed-in player whose mail has stopped."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.models import User
from games.mail_out import tracking
from games.models import MailStatus


def mail_stopped(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``mail_stopped``, the signed-in player's stopped
    :class:`~games.models.MailStatus` (or None), and ``mail_stop_reason`` in
    words.  Showing it records, once, that they were warned (the deadlines'
    removal waits on it)."""
    user = getattr(request, "user", None)
    if not isinstance(user, User) or user.is_robot:
        return {}
    status = tracking.stopped(user.email)
    if status is None:
        return {}
    tracking.seen(status)
    return {
        "mail_stopped": status,
        "mail_stop_reason": MailStatus.Stop(status.reason).label
        if status.reason in MailStatus.Stop.values
        else "it stopped reaching you",
        "mail_complained": status.reason == MailStatus.Stop.COMPLAINED
        or user.email_mode == User.EmailMode.NONE,
    }
