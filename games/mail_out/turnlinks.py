"""Signed links sent in game emails: turn links and unsubscribe links.

A turn link names a user, a game and the move (``seq``) the email showed.  It
is not single-use and works for :data:`TURN_LINK_DAYS`; it opens the game page
for that player (:mod:`games.web.link_views`), never a sign-in, and a move sent
through it is checked against the seq it was sent for, so an old link cannot
act on a game that has moved on.

An unsubscribe link names a user and a scope: all game email, or one game
(muting it); an invitation's names the address invited, which may have no
account.  All are stateless: the signature is the proof.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.urls import reverse

TURN_LINK_SALT = "games.turn-link"
TURN_LINK_DAYS = 60
UNSUBSCRIBE_SALT = "games.unsubscribe"
NO_INVITATIONS_SALT = "games.no-invitations"
#: Unsubscribe links keep working for a long time: mail is read late.
UNSUBSCRIBE_DAYS = 400


class BadLink(Exception):
    """A link that is not ours, was cut short or is too old.  ``message`` is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class TurnLink:
    user_id: int
    game_id: int
    seq: int


@dataclass(frozen=True)
class Unsubscribe:
    user_id: int
    game_id: int | None  # None: all game email


def turn_token(user_id: int, game_id: int, seq: int) -> str:
    return signing.dumps({"u": user_id, "g": game_id, "s": seq}, salt=TURN_LINK_SALT)


def read_turn_token(token: str) -> TurnLink:
    try:
        data = signing.loads(token, salt=TURN_LINK_SALT, max_age=TURN_LINK_DAYS * 24 * 3600)
        return TurnLink(int(data["u"]), int(data["g"]), int(data["s"]))
    except signing.SignatureExpired:
        raise BadLink(
            f"This link has expired: links in game emails work for {TURN_LINK_DAYS} days. "
            "Sign in to play the game."
        ) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadLink(
            "This link is not valid. Check that the whole link from the email was copied, "
            "or sign in to play the game."
        ) from None


def turn_url(user_id: int, game_id: int, seq: int) -> str:
    return settings.JUMBULAYA_SITE_URL + reverse(
        "games:turn_link", args=[turn_token(user_id, game_id, seq)]
    )


def unsubscribe_token(user_id: int, game_id: int | None) -> str:
    return signing.dumps({"u": user_id, "g": game_id}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> Unsubscribe:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_DAYS * 24 * 3600)
        game = data["g"]
        return Unsubscribe(int(data["u"]), None if game is None else int(game))
    except signing.SignatureExpired:
        raise BadLink(
            "This unsubscribe link is too old. Sign in and choose your email settings "
            "on the email preferences page."
        ) from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadLink(
            "This unsubscribe link is not valid. Check that the whole link from the email "
            "was copied, or sign in and change your email preferences."
        ) from None


def unsubscribe_url(user_id: int, game_id: int | None) -> str:
    return settings.JUMBULAYA_SITE_URL + reverse(
        "games:unsubscribe", args=[unsubscribe_token(user_id, game_id)]
    )


def no_invitations_token(email: str) -> str:
    return signing.dumps(email.strip().lower(), salt=NO_INVITATIONS_SALT)


def read_no_invitations_token(token: str) -> str:
    """The address the invitation's unsubscribe link was sent to."""
    try:
        email = signing.loads(token, salt=NO_INVITATIONS_SALT, max_age=UNSUBSCRIBE_DAYS * 24 * 3600)
    except signing.SignatureExpired:
        raise BadLink("This link is too old: invitations sent since carry a new one.") from None
    except signing.BadSignature:
        raise BadLink(
            "This link is not valid. Check that the whole link from the email was copied."
        ) from None
    if not isinstance(email, str) or "@" not in email:
        raise BadLink("This link is not valid.")
    return email


def no_invitations_url(email: str) -> str:
    return settings.JUMBULAYA_SITE_URL + reverse(
        "games:no_invitations", args=[no_invitations_token(email)]
    )
