"""Invitation emails: a join link for each address a game's creator invited.

:func:`games.services.create_game` records an INVITED notification per address
(the outbox), and the outbox sends it like every other email:
:func:`games.emails.message_for` asks :func:`invitation_email` for the content.
An invitation to a game that has started, to a seat taken since, or to an
address that asked for no more invitations, is not sent.
"""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from games import mail_preferences
from games.engine import rules_from_json
from games.forms import lexicon_label, rules_in_words
from games.models import Game, Notification
from games.services import display_name
from games.tokens import INVITE_DAYS, invite_url
from games.turnlinks import no_invitations_url

REPLY_MARKER = "## Reply above this line ##"


def invitation_subject(inviter: str, game_id: int) -> str:
    return f"Game {game_id}: {inviter} invites you to play Jumbulaya"


def invitation_email(notification: Notification) -> tuple[str, str, str, str] | None:
    """``(subject, text, html, stop)`` of an invitation (``stop``: its link for no
    more invitations), or ``None`` when it is no longer wanted (no address, the
    game has started, the seat is taken, or the address refuses invitations)."""
    game = notification.game
    email = notification.email.strip().lower()
    if not email or game.status != Game.Status.OPEN:
        return None
    if not game.seats.filter(invited_email=email, user__isnull=True).exists():
        return None
    if mail_preferences.refuses_invitations(email):
        return None
    name = display_name(game.created_by)
    stop = no_invitations_url(email)
    context = {
        "marker": REPLY_MARKER,
        "inviter": name,
        "game": game,
        "players": game.seat_count,
        "rules": rules_in_words(rules_from_json(game.rules)),
        "lexicon": lexicon_label(game.lexicon_name),
        "link": invite_url(game.pk, email),
        "stop": stop,
        "days": INVITE_DAYS,
        "site_url": settings.JUMBULAYA_SITE_URL,
    }
    return (
        invitation_subject(name, game.pk),
        render_to_string("emails/invitation.txt", context),
        render_to_string("emails/invitation.html", context),
        stop,
    )


def mark_invitations_sent(game: Game) -> None:
    """Mark ``game``'s invitations sent without emailing (the demo's game, whose
    guests have already joined)."""
    now = timezone.now()
    Notification.objects.filter(
        game=game, kind=Notification.Kind.INVITED, sent_at__isnull=True
    ).update(claimed_at=now, sent_at=now)
