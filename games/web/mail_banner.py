"""The banner every page shows a signed-in player whose mail has stopped."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.models import User
from games.mail_out import mail_again, tracking
from games.models import MailStatus


class Seen:
    """Rendered by the banner itself (``{{ mail_banner_seen }}``, an empty
    string): records, once, that its owner was warned, which the deadlines'
    removal waits on.  Only a page that shows the banner counts: every answer
    rendered with a request runs the context processor, the page's 30-s
    ``/changes/`` poll and its htmx refreshes too, and they show no banner."""

    def __init__(self, status: MailStatus) -> None:
        self.status = status

    def __str__(self) -> str:
        tracking.seen(self.status)
        return ""


def mail_stopped(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``mail_stopped``, the signed-in player's stopped
    :class:`~games.models.MailStatus` (or None), ``mail_stop_reason`` in
    words, whether the button needs their "I want game emails again"
    (``mail_needs_consent``), and ``mail_banner_seen`` (:class:`Seen`)."""
    user = getattr(request, "user", None)
    if not isinstance(user, User) or user.is_robot:
        return {}
    status = tracking.stopped(user.email)
    if status is None:
        return {}
    return {
        "mail_stopped": status,
        "mail_stop_reason": MailStatus.Stop(status.reason).label
        if status.reason in MailStatus.Stop.values
        else "it stopped reaching you",
        "mail_complained": status.reason == MailStatus.Stop.COMPLAINED
        or user.email_mode == User.EmailMode.NONE,
        "mail_needs_consent": mail_again.needs_consent(status),
        "mail_banner_seen": Seen(status),
    }
