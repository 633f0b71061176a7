"""Mailgun's webhook signatures, each taken once and only while fresh.

Mailgun signs a post with an HMAC of a timestamp and a random token, not of
the event it carries: a signature block copied from one post checks out on any
other.  So a signature counts only once (its token is stored, unique, in
:class:`~games.models.WebhookToken`) and only within :data:`TOLERANCE` of its
timestamp.  Mailgun signs every post anew, its retries too, so neither refuses
a post Mailgun makes.  Tokens are kept for :data:`KEPT`, past which their
timestamps are refused anyway; older ones are deleted as new ones come.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import WebhookToken

#: How far a signature's timestamp may be from our clock, either way.
TOLERANCE = timedelta(minutes=5)
#: How long a token is remembered: a copy of it is refused by its timestamp after.
KEPT = 2 * TOLERANCE
#: Mailgun's tokens are 50 characters; a longer one is not Mailgun's.
MAX_TOKEN = WebhookToken._meta.get_field("token").max_length or 100


class Refused(ValueError):
    """A signature that checks out but must not be taken: stale, or used before."""


def signed_at(timestamp: object) -> datetime:
    """The moment a signature's ``timestamp`` (seconds since the epoch) names.
    Raises :class:`Refused` for anything that is not such a moment."""
    try:
        seconds = float(str(timestamp))
        if not math.isfinite(seconds):
            raise ValueError(timestamp)
        return datetime.fromtimestamp(seconds, tz=UTC)
    except (ValueError, OverflowError, OSError) as e:
        raise Refused("its timestamp is not a time") from e


def take(token: object, timestamp: object) -> None:
    """Take a signature whose HMAC checked out, once: raises :class:`Refused`
    if its timestamp is more than :data:`TOLERANCE` from now or its token was
    taken before."""
    now = timezone.now()
    when = signed_at(timestamp)
    if abs(now - when) > TOLERANCE:
        minutes = int(abs(now - when).total_seconds() // 60)
        side = "ago" if when < now else "ahead"
        raise Refused(
            f"it was made {minutes} minutes {side}, more than "
            f"{int(TOLERANCE.total_seconds() // 60)} minutes from now"
        )
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
        raise Refused("its token is not one of Mailgun's")
    WebhookToken.objects.filter(seen_at__lt=now - KEPT).delete()
    try:
        with transaction.atomic():
            WebhookToken.objects.create(token=token, seen_at=now)
    except IntegrityError as e:
        raise Refused("its token was used before: a signature counts once") from e
