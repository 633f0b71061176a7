"""What one account may do in a day: games created and invitations sent, and
the addresses an invitation may go to."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from accounts.models import User
from games.core.projection import ServiceError
from games.mail_out import mail_preferences
from games.models import Game, Seat
from games.timing import deadlines


class OverLimit(ServiceError):
    """More games or invitations than an account may make in a day."""

    code = "over_limit"


class BadAddress(ServiceError):
    """An invitation to something that is not an email address."""

    code = "bad_address"


#: What the daily limits on games and invitations count: any 24 hours.
LIMIT_WINDOW = timedelta(hours=24)


def local_moment(when: datetime, user: User) -> str:
    """A moment in the user's time zone, to the next minute: ``Tue 3 Jun, 14:05 (UTC)``."""
    zone = deadlines.time_zone(user.time_zone)
    local = timezone.localtime(when + timedelta(minutes=1), zone)
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} ({zone.key})"


def check_daily_limits(creator: User, invitations: int) -> None:
    """Refuse a game beyond what one account may create in 24 hours:
    ``JUMBULAYA_GAMES_PER_DAY`` games and ``JUMBULAYA_INVITATIONS_PER_DAY``
    invitation emails (:func:`check_invitation_limit`).  Counted in the
    database, so the limits hold across processes; the caller holds the
    creator's row locked, so two games created at once cannot both take the
    last place.  Staff are exempt (they set up games for others)."""
    if creator.is_staff:
        return
    since = timezone.now() - LIMIT_WINDOW
    games_limit = settings.JUMBULAYA_GAMES_PER_DAY
    if games_limit > 0:
        created = list(
            Game.objects.filter(created_by=creator, created_at__gt=since)
            .order_by("-created_at")
            .values_list("created_at", flat=True)[:games_limit]
        )
        if len(created) >= games_limit:
            frees = local_moment(created[-1] + LIMIT_WINDOW, creator)
            games = "game" if games_limit == 1 else "games"
            raise OverLimit(
                f"You have created {games_limit} {games} in the last 24 hours, as many as one "
                f"account may. You can create another from {frees}."
            )
    check_invitation_limit(
        creator,
        invitations,
        "This game's",
        "or make the game open so that anyone can join it without an invitation",
    )


def check_invitation_limit(inviter: User, invitations: int, these: str, otherwise: str) -> None:
    """Refuse ``invitations`` more emails beyond ``JUMBULAYA_INVITATIONS_PER_DAY``
    in 24 hours: one per address invited, with a new game or to a game later,
    counted by who invited it (:attr:`Seat.invited_by`).  ``these`` names
    them in the refusal, and ``otherwise`` says what else the inviter may do.  The caller
    holds the inviter's row locked; staff are exempt."""
    limit = settings.JUMBULAYA_INVITATIONS_PER_DAY
    if inviter.is_staff or limit <= 0 or not invitations:
        return
    allowed = f"{limit} invitation{'s' if limit != 1 else ''} in 24 hours"
    if invitations > limit:
        raise OverLimit(f"One account may send at most {allowed}.")
    # The newest first: when the (limit - invitations + 1)-th newest leaves the
    # window, these invitations fit.
    sent = [
        when
        for when in Seat.objects.filter(
            invited_by=inviter, invited_at__gt=timezone.now() - LIMIT_WINDOW
        )
        .exclude(invited_email="")
        .order_by("-invited_at")
        .values_list("invited_at", flat=True)[:limit]
        if when is not None  # the filter says so; the type does not
    ]
    room = limit - len(sent)
    if invitations > room:
        frees = local_moment(sent[limit - invitations] + LIMIT_WINDOW, inviter)
        plural = "s" if invitations != 1 else ""
        raise OverLimit(
            f"One account may send {allowed}, and your games have sent "
            f"{len(sent)} in the last 24 hours. {these} {invitations} invitation{plural} "
            f"can go from {frees}. Until then, invite fewer people ({room or 'none'} now), "
            f"{otherwise}."
        )


def invitable(inviter: User, emails: Sequence[str]) -> list[str]:
    """``emails`` as they are stored (trimmed, lower case), checked: each an
    address, listed once, not the inviter's own, not one that asked for no
    invitations."""
    found = [e.strip().lower() for e in emails if e.strip()]
    for email in found:
        try:
            validate_email(email)
        except ValidationError:
            raise BadAddress(f"“{email}” is not an email address.") from None
    if len(set(found)) != len(found):
        raise ServiceError("The same address is invited twice.")
    if inviter.email.lower() in found:
        raise ServiceError("You are already in the game: invite someone else.")
    for email in found:
        if mail_preferences.refuses_invitations(email):
            raise ServiceError(
                f"{email} has asked to get no invitations from this site: ask them to join "
                "an open game instead."
            )
    return found
