"""Who wants which emails: the writes behind the email preferences page, the
unsubscribe links and the invitation opt-out.  Views call these; nothing else
changes these settings."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction

from accounts.models import User
from games.models import NoInvitations, Seat


def mute(seat: Seat) -> str:
    """No more emails about ``seat``'s game.  Returns what was done, in words."""
    Seat.objects.filter(pk=seat.pk).update(muted=True)
    return (
        f"Game {seat.game_id} is muted: you will get no more emails about it. "
        "You can still play it on the site, and unmute it on your email preferences page."
    )


def stop_game_email(user: User) -> str:
    """No more game emails for ``user``.  Returns what was done, in words."""
    User.objects.filter(pk=user.pk).update(email_mode=User.EmailMode.NONE)
    return (
        "You will get no more game emails (invitations from friends still arrive). "
        "You can turn them back on from your email preferences page."
    )


def save(user: User, email_mode: str, digest_hour: int, mutes: Mapping[int, bool]) -> None:
    """The preferences page: the email mode, the digest's hour and, per game
    (by id) among the user's seats, whether it is muted."""
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(email_mode=email_mode, digest_hour=digest_hour)
        for game_id, muted in mutes.items():
            Seat.objects.filter(user=user, game_id=game_id).update(muted=muted)


def refuse_invitations(email: str) -> str:
    """Never send an invitation to ``email`` again.  Returns what was done."""
    NoInvitations.objects.get_or_create(email=email.strip().lower())
    return (
        f"No more invitations will be sent to {email}. If a friend wants to play, they can "
        "tell you where to find the game instead."
    )


def refuses_invitations(email: str) -> bool:
    return NoInvitations.objects.filter(email=email.strip().lower()).exists()
