"""Whether a player is on the site: mail only when away.

A player who has a game page open and used it in the last :data:`PRESENCE`
is here: the page is told of every move as it happens (its live stream), so a
"your turn" email would only repeat it.  Such an email waits (the outbox defers
it to when the player's presence runs out); if the turn passes meanwhile it is
never sent, and of the turn emails a game owes a player only the newest goes.
So ten moves on the page against a robot mail nothing, and a player who leaves
with it their turn gets one email a few minutes later.

Presence is noted when a signed-in player (or one through a turn link) opens a
game page or its live part, sends a move from it, or the page's live stream
connects saying its player was active; it is written at most once a
:data:`REFRESH`, by one conditional UPDATE.  A move by email reply notes nothing:
a player who plays by mail is mailed.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from accounts.models import User

#: How long one sign of life keeps a player present.
PRESENCE = timedelta(minutes=5)
#: How stale a presence may grow before it is written again.
REFRESH = timedelta(minutes=1)


def note(user: User, now: datetime | None = None) -> None:
    """``user`` is here now (a robot or an anonymous visitor is never noted)."""
    if not user.is_authenticated or user.robot_level:
        return
    now = now or timezone.now()
    until = now + PRESENCE
    if user.present_until is not None and user.present_until >= until - REFRESH:
        return
    User.objects.filter(
        Q(present_until__isnull=True) | Q(present_until__lt=until - REFRESH), pk=user.pk
    ).update(present_until=until)
    user.present_until = until


def here_until(user: User, now: datetime | None = None) -> datetime | None:
    """Until when ``user`` counts as here, or ``None`` when they are away."""
    now = now or timezone.now()
    until = user.present_until
    return until if until is not None and until > now else None
