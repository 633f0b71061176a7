"""The daily digest: for players who chose one, a single email at their hour
listing the games awaiting their move (instead of an email per turn).

:func:`send_due` runs every few minutes (Celery beat).  A user is due once the
local clock has passed their ``digest_hour`` today and no digest was dealt with
yet this local day.  The user's row is taken with a conditional UPDATE of
``digest_sent_at`` before sending, so two sweeps never both send; a failed send
gives the row back so the next sweep tries again.  With nothing awaiting them,
nothing is sent and today's digest is done (``digest_sent_at`` is set all the
same), so a day never brings two digests, nor one at an unexpected hour.

Digests are sent directly through Django's mail, not through outbox rows.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, time

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from games.mail_out import tracking
from games.mail_out.emails import (
    automatic_headers,
    build_message,
    names_in_words,
    site_domain,
    site_link,
    time_left,
    when,
    zone_of,
)
from games.mail_out.turnlinks import turn_url, unsubscribe_url
from games.models import Game, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Awaiting:
    game_id: int
    #: The game's kind, by its label ("Blockers").
    kind: str
    against: str
    deadline: str | None
    link: str


def due_at(user: User, now: datetime) -> datetime:
    """When today's digest (in the user's time zone) is due."""
    zone = zone_of(user)
    today = timezone.localtime(now, zone).date()
    hour = min(max(user.digest_hour, 0), 23)
    return datetime.combine(today, time(hour), tzinfo=zone)


def is_due(user: User, now: datetime) -> bool:
    """Whether the user's digest hour has come today and today's digest was not
    dealt with yet (at most one a local day, whatever the hour was set to)."""
    due = due_at(user, now)
    if now < due:
        return False
    last = user.digest_sent_at
    if last is None:
        return True
    zone = zone_of(user)
    return timezone.localtime(last, zone).date() < timezone.localtime(now, zone).date()


def awaiting(user: User) -> list[Awaiting]:
    """The games where it is the user's turn (muted games left out)."""
    seats = (
        Seat.objects.filter(user=user, muted=False, game__status=Game.Status.PLAYING)
        .select_related("game")
        .prefetch_related("game__seats__user")
        .order_by("game__deadline_at", "game_id")
    )
    out = []
    for seat in seats:
        game = seat.game
        if not game.may_move(seat.index):
            continue
        others = [s.user.public_name for s in game.seats.all() if s.user and s.user_id != user.pk]
        deadline = (
            f"{when(game.deadline_at, user)}, in {time_left(game.deadline_at)}"
            if game.deadline_at
            else None
        )
        out.append(
            Awaiting(
                game.pk,
                game.get_kind_display(),
                names_in_words(others),
                deadline,
                turn_url(user.pk, game.pk, game.last_seq),
            )
        )
    return out


def digest_message(user: User, games: list[Awaiting], now: datetime) -> EmailMultiAlternatives:
    day = timezone.localtime(now, zone_of(user)).date()
    n = len(games)
    context = {
        "name": user.public_name,
        "games": games,
        "count": n,
        "preferences_url": site_link("games:email_preferences"),
        "stop_url": unsubscribe_url(user.pk, None),
        "site_url": settings.JUMBULAYA_SITE_URL,
    }
    headers = {
        "Message-ID": f"<digest-{user.pk}.{day:%Y%m%d}@{site_domain()}>",
        **automatic_headers(unsubscribe_url(user.pk, None)),
    }
    subject = f"Jumbulaya by mail: {n} game{'s' if n != 1 else ''} awaiting your move"
    return build_message(
        subject,
        render_to_string("emails/digest.txt", context),
        render_to_string("emails/digest.html", context),
        user.email,
        headers,
    )


def send_one(user: User, now: datetime) -> bool:
    """Take and send (or skip, with nothing awaiting) one user's digest.
    Returns whether an email went."""
    before = user.digest_sent_at
    taken = User.objects.filter(pk=user.pk, digest_sent_at=before).update(digest_sent_at=now)
    if taken != 1:
        return False  # another sweep has it
    games = awaiting(user)
    if not games:
        return False
    if tracking.stopped(user.email) is not None:
        return False  # mail to the address stopped: the pages' banner says so
    try:
        digest_message(user, games, now).send()
    except Exception:
        log.exception("the digest for user %s could not be sent", user.pk)
        User.objects.filter(pk=user.pk, digest_sent_at=now).update(digest_sent_at=before)
        return False
    return True


def send_due(now: datetime | None = None) -> int:
    """Send every digest that is due.  Returns how many emails went."""
    now = now or timezone.now()
    users = User.objects.filter(email_mode=User.EmailMode.DIGEST, is_active=True).exclude(email="")
    return sum(send_one(u, now) for u in users if is_due(u, now))
