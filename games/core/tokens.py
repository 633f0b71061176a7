"""Invitation links: a signed token naming the game, the seat and the address
invited.  Not single-use; joining checks the seat is still free."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

INVITE_SALT = "games.invite"
INVITE_DAYS = 30


def invite_token(game_id: int, email: str) -> str:
    return signing.dumps({"game": game_id, "email": email.lower()}, salt=INVITE_SALT)


def read_invite_token(token: str) -> tuple[int, str]:
    data = signing.loads(token, salt=INVITE_SALT, max_age=INVITE_DAYS * 24 * 3600)
    return int(data["game"]), str(data["email"])


def invite_url(game_id: int, email: str) -> str:
    return settings.JUMBULAYA_SITE_URL + reverse(
        "games:accept_invite", args=[invite_token(game_id, email)]
    )
