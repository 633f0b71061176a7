"""Signed, expiring tokens for links sent by email.  The signature is the proof,
so a link cannot be forged; nothing is stored for a link either.

A link is single-use because it carries a stamp of something its use changes,
as Django's password-reset tokens do: a sign-in link the account's
``last_login`` (which signing in moves on), an address-change link the address
it changes from.  Once that has changed, the link no longer matches and is
refused.  The stamps are keyed digests: the payload of a signed token
can be read by whoever holds the link, and should tell nothing about the
account.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

SIGN_IN_SALT = "accounts.sign-in"
EMAIL_CHANGE_SALT = "accounts.email-change"
STAMP_SALT = "accounts.link-stamp"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def stamp(value: str) -> str:
    """A short keyed digest of ``value``, for a link to carry."""
    return salted_hmac(STAMP_SALT, value, algorithm="sha256").hexdigest()[:24]


def login_stamp(last_login: datetime | None) -> str:
    """The stamp of an account's ``last_login``; ``None`` (never signed in, or
    no account yet) has a stamp of its own."""
    if last_login is None:
        return stamp("never")
    return stamp(str((last_login - EPOCH) // timedelta(microseconds=1)))


def address_stamp(email: str) -> str:
    return stamp(email.lower())


def stamps_match(a: str, b: str) -> bool:
    return constant_time_compare(a, b)


@dataclass(frozen=True)
class SignInLink:
    email: str
    #: :func:`login_stamp` of the account's ``last_login`` when the link was made.
    login: str


def sign_in_token(email: str, last_login: datetime | None) -> str:
    """A token for ``email``, good until it expires or the account behind the
    address signs in (``last_login`` is its current value)."""
    return signing.dumps(
        {"email": email.lower(), "login": login_stamp(last_login)}, salt=SIGN_IN_SALT
    )


def read_sign_in_token(token: str) -> SignInLink:
    """What a sign-in link was made for.  Raises ``signing.BadSignature`` (or
    its subclass ``SignatureExpired``) for a bad or old link; whether it was
    used is for the caller to check against the account."""
    data = signing.loads(token, salt=SIGN_IN_SALT, max_age=settings.JUMBULAYA_SIGN_IN_MINUTES * 60)
    return SignInLink(email=str(data["email"]), login=str(data.get("login", "")))


def sign_in_url(email: str, last_login: datetime | None) -> str:
    from django.urls import reverse

    path = reverse("accounts:sign_in_confirm", args=[sign_in_token(email, last_login)])
    return settings.JUMBULAYA_SITE_URL + path


@dataclass(frozen=True)
class EmailChangeLink:
    user_id: int
    new_email: str
    #: :func:`address_stamp` of the address the change starts from.
    old: str


def email_change_token(user_id: int, old_email: str, new_email: str) -> str:
    """A token for moving the account from ``old_email`` (its address now) to
    ``new_email``: it stops working once the address has changed."""
    return signing.dumps(
        {"user": user_id, "email": new_email.lower(), "old": address_stamp(old_email)},
        salt=EMAIL_CHANGE_SALT,
    )


def read_email_change_token(token: str) -> EmailChangeLink:
    data = signing.loads(token, salt=EMAIL_CHANGE_SALT, max_age=3 * 24 * 3600)
    return EmailChangeLink(
        user_id=int(data["user"]), new_email=str(data["email"]), old=str(data.get("old", ""))
    )
