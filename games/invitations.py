"""Invitation emails: a join link for each address a game's creator invited.

:func:`send_invitations` is called in the transaction that created the game.
It claims the game's INVITED notifications there (so the notifications work
does not send them as well) and sends the emails once the transaction commits;
each notification is marked sent when its email has gone.  An email that fails
keeps ``sent_at`` empty and is logged.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from games.engine import rules_from_json
from games.forms import lexicon_label, rules_in_words
from games.models import Game, Notification
from games.services import display_name
from games.tokens import INVITE_DAYS, invite_url

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Invitation:
    notification_id: int
    email: str
    subject: str
    body: str


def invitation_subject(inviter: str) -> str:
    return f"{inviter} invites you to play Jumbulaya"


def build_invitations(game: Game, inviter: AbstractBaseUser) -> list[Invitation]:
    """The emails owed for ``game``'s unsent invitations."""
    name = display_name(inviter)
    rules = rules_in_words(rules_from_json(game.rules))
    pending = Notification.objects.filter(
        game=game, kind=Notification.Kind.INVITED, sent_at__isnull=True
    ).order_by("pk")
    out = []
    for note in pending:
        if not note.email:
            continue
        body = render_to_string(
            "emails/invitation.txt",
            {
                "inviter": name,
                "game": game,
                "players": game.seat_count,
                "rules": rules,
                "lexicon": lexicon_label(game.lexicon_name),
                "link": invite_url(game.pk, note.email),
                "days": INVITE_DAYS,
                "site_url": settings.JUMBULAYA_SITE_URL,
            },
        )
        out.append(Invitation(note.pk, note.email, invitation_subject(name), body))
    return out


def deliver(invitations: list[Invitation]) -> int:
    """Send each email and mark its notification sent; returns how many went."""
    sent = 0
    for inv in invitations:
        try:
            send_mail(inv.subject, inv.body, None, [inv.email])
        except Exception:  # one failed address must not stop the others
            log.exception("invitation email %s could not be sent", inv.notification_id)
            continue
        Notification.objects.filter(pk=inv.notification_id).update(sent_at=timezone.now())
        sent += 1
    return sent


def send_invitations(game: Game, inviter: AbstractBaseUser) -> int:
    """Claim ``game``'s invitations now and email them once the current
    transaction commits.  Returns how many emails are owed."""
    invitations = build_invitations(game, inviter)
    if not invitations:
        return 0
    Notification.objects.filter(pk__in=[i.notification_id for i in invitations]).update(
        claimed_at=timezone.now()
    )
    transaction.on_commit(lambda: deliver(invitations))
    return len(invitations)


def mark_invitations_sent(game: Game) -> None:
    """Mark ``game``'s invitations sent without emailing (the demo's game, whose
    guests have already joined)."""
    now = timezone.now()
    Notification.objects.filter(
        game=game, kind=Notification.Kind.INVITED, sent_at__isnull=True
    ).update(claimed_at=now, sent_at=now)
