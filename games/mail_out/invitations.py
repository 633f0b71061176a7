"""Invitations: the email with a join link for each address a game's player
invited (its creator, or a player seated since), and the game's settings in
words for that email and the invitation page.  Joining by an invitation, a new
player's account and name included, is a write:
:func:`games.core.lobby.join_as_new_player` and
:func:`games.core.lobby.join_with_name`.

:func:`games.core.lobby.create_game` and :func:`games.core.lobby.invite`
record an INVITED notification per address (the outbox), and the outbox sends
it like every other email: :func:`games.mail_out.emails.message_for` asks
:func:`invitation_email` for the content.  An invitation to a game that has
started, to a seat taken since, or to an address that asked for no more
invitations, is not sent.

The invitation link was mailed to the address it names, so for an address with
no account yet it is enough to make one: the visitor names themself on the
invitation page and is signed in, seated, in one step.  It never signs in to an
account that exists already: the link lasts 30 days and may be forwarded, and
such an account may hold other games; its owner signs in by a sign-in link.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from games.core.projection import display_name, kind_of
from games.core.tokens import INVITE_DAYS, invite_url
from games.mail_out import mail_preferences
from games.mail_out.turnlinks import no_invitations_url
from games.models import Game, Notification, move_time_in_words
from games.web.forms import lexicon_label, rules_in_words

REPLY_MARKER = "## Reply above this line ##"


def invitation_subject(inviter: str, game_id: int, label: str) -> str:
    """The subject of an invitation to a game of the kind called ``label``."""
    return f"Game {game_id}: {inviter} invites you to play {label}"


def invitation_email(notification: Notification) -> tuple[str, str, str, str] | None:
    """``(subject, text, html, stop)`` of an invitation (``stop``: its link for no
    more invitations), or ``None`` when it is no longer wanted (no address, the
    game has started, the seat is taken, or the address refuses invitations)."""
    game = notification.game
    email = notification.email.strip().lower()
    if not email or game.status != Game.Status.OPEN:
        return None
    seat = (
        game.seats.filter(invited_email=email, user__isnull=True)
        .select_related("invited_by")
        .first()
    )
    if seat is None:
        return None
    if mail_preferences.refuses_invitations(email):
        return None
    name = display_name(seat.invited_by or game.created_by)
    stop = no_invitations_url(email)
    kind = kind_of(game)
    context = {
        "marker": REPLY_MARKER,
        "kind_label": kind.label,
        "kind_description": kind.description,
        "inviter": name,
        "game": game,
        "players": game.seat_count,
        "facts": game_facts(game, seated_names(game)),
        "link": invite_url(game.pk, email),
        "stop": stop,
        "days": INVITE_DAYS,
        "site_url": settings.JUMBULAYA_SITE_URL,
    }
    return (
        invitation_subject(name, game.pk, kind.label),
        render_to_string("emails/invitation.txt", context),
        render_to_string("emails/invitation.html", context),
        stop,
    )


def seated_names(game: Game) -> list[str]:
    """The display names of the players seated so far, by seat."""
    seats = game.seats.filter(user__isnull=False).select_related("user").order_by("index")
    return [display_name(seat.user) for seat in seats if seat.user is not None]


def _per_move(minutes: int) -> str:
    if minutes % (24 * 60) == 0:
        days = minutes // (24 * 60)
        return f"{days} day{'s' if days != 1 else ''}"
    return move_time_in_words(minutes)


def game_facts(game: Game, seated: Sequence[str]) -> list[str]:
    """What someone deciding whether to join wants to know, one sentence each:
    who is seated, the rules' preset, the time per move, the claim window (a
    kind with sealed calls), the word list (a kind played with one), then the
    rest of the rules."""
    kind = kind_of(game)
    rules = rules_in_words(kind.options_from_json(game.rules), kind)
    weekends = ", not counting Saturdays and Sundays" if game.skip_weekends else ""
    label = kind.label
    window = (
        f"{label} claim window: on. When a {label} first becomes possible, everyone is "
        "told and calls made off one's turn stay sealed until the deadline; the longest "
        "valid call wins."
        if game.window_on
        else f"{label} claim window: off. The first valid {label} call wins at once."
    )
    return [
        f"Players already seated: {', '.join(seated)}." if seated else "No one is seated yet.",
        rules[0],
        f"Time per move: {_per_move(game.move_minutes)}{weekends}; a player who runs out of "
        "time passes.",
        *([window] if kind.window is not None else []),
        *([f"Word list: {lexicon_label(game.lexicon_name)}."] if kind.uses_word_list else []),
        *rules[1:],
    ]


def mark_invitations_sent(game: Game) -> None:
    """Mark ``game``'s invitations sent without emailing (the demo's game, whose
    guests have already joined)."""
    now = timezone.now()
    Notification.objects.filter(
        game=game, kind=Notification.Kind.INVITED, sent_at__isnull=True
    ).update(taken_at=now, sent_at=now)
