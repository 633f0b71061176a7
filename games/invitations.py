"""Invitations: the email with a join link for each address a game's creator
invited, the game's settings in words for that email and the invitation page,
and joining by an invitation, a new player's account and name included.

:func:`games.services.create_game` records an INVITED notification per address
(the outbox), and the outbox sends it like every other email:
:func:`games.emails.message_for` asks :func:`invitation_email` for the content.
An invitation to a game that has started, to a seat taken since, or to an
address that asked for no more invitations, is not sent.

The invitation link was mailed to the address it names, so for an address with
no account yet it is enough to make one: the visitor names themself on the
invitation page and is signed in, seated, in one step.  It never signs in to an
account that exists already: the link lasts 30 days and may be forwarded, and
such an account may hold other games; its owner signs in by a sign-in link.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from games import mail_preferences
from games.engine import rules_from_json
from games.forms import lexicon_label, rules_in_words
from games.models import Game, Notification, Seat
from games.services import CannotJoin, display_name, join_game
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
        "facts": game_facts(game, seated_names(game)),
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


def seated_names(game: Game) -> list[str]:
    """The display names of the players seated so far, by seat."""
    seats = game.seats.filter(user__isnull=False).select_related("user").order_by("index")
    return [display_name(seat.user) for seat in seats if seat.user is not None]


def _per_move(hours: int) -> str:
    if hours % 24 == 0:
        days = hours // 24
        return f"{days} day{'s' if days != 1 else ''}"
    return f"{hours} hour{'s' if hours != 1 else ''}"


def game_facts(game: Game, seated: Sequence[str]) -> list[str]:
    """What someone deciding whether to join wants to know, one sentence each:
    who is seated, the rules' preset, the time per move, the claim window, the
    word list, then the rest of the rules."""
    rules = rules_in_words(rules_from_json(game.rules))
    weekends = ", not counting Saturdays and Sundays" if game.skip_weekends else ""
    return [
        f"Players already seated: {', '.join(seated)}." if seated else "No one is seated yet.",
        rules[0],
        f"Time per move: {_per_move(game.move_hours)}{weekends}; a player who runs out of "
        "time passes.",
        "JUMBULAYA claim window: on. When a JUMBULAYA first becomes possible, everyone is "
        "told and calls stay sealed until the deadline; the longest valid call wins."
        if game.claim_window
        else "JUMBULAYA claim window: off. The first valid JUMBULAYA call wins at once.",
        f"Word list: {lexicon_label(game.lexicon_name)}.",
        *rules[1:],
    ]


class AccountExists(CannotJoin):
    def __init__(self) -> None:
        super().__init__(
            "This address already has an account: sign in to join (an invitation link "
            "makes new accounts only)."
        )


def join_as_new_player(game_id: int, email: str, name: str) -> User:
    """Make the account for ``email``, named ``name``, and give it the seat of
    ``game_id`` that was invited to that address, in one transaction: either
    both happen or neither.  ``ValidationError`` for a name the rules refuse;
    :class:`AccountExists` when the address has an account; ``CannotJoin``
    when the seat is taken or the game refuses the name."""
    email = accounts.normalize_email(email)
    try:
        with transaction.atomic():
            if User.objects.filter(email__iexact=email).exists():
                raise AccountExists
            if not Seat.objects.filter(
                game_id=game_id, invited_email=email, user__isnull=True
            ).exists():
                raise CannotJoin("There is no free seat for you in this game any more.")
            user = accounts.make_named_account(email, name)
            join_game(game_id, user)
    except IntegrityError as exc:  # the address got an account meanwhile
        raise AccountExists from exc
    return user


def join_with_name(game_id: int, user: User, name: str | None) -> Seat:
    """:func:`join_game`, first setting the user's name when ``name`` is given
    (a player without one names themself on the way in); a refused seat
    leaves the name as it was."""
    before = user.display_name
    try:
        with transaction.atomic():
            if name is not None:
                accounts.set_display_name(user, name)
            return join_game(game_id, user)
    except Exception:
        user.display_name = before
        raise


def mark_invitations_sent(game: Game) -> None:
    """Mark ``game``'s invitations sent without emailing (the demo's game, whose
    guests have already joined)."""
    now = timezone.now()
    Notification.objects.filter(
        game=game, kind=Notification.Kind.INVITED, sent_at__isnull=True
    ).update(claimed_at=now, sent_at=now)
