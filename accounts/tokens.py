"""Signed, expiring tokens for links sent by email.  Stateless: the signature
is the proof, so nothing is stored and a link cannot be forged."""

from __future__ import annotations

from django.conf import settings
from django.core import signing

SIGN_IN_SALT = "accounts.sign-in"
EMAIL_CHANGE_SALT = "accounts.email-change"


def sign_in_token(email: str) -> str:
    return signing.dumps({"email": email.lower()}, salt=SIGN_IN_SALT)


def read_sign_in_token(token: str) -> str:
    """The address a sign-in link was sent to.  Raises ``signing.BadSignature``
    (or its subclass ``SignatureExpired``) for a bad or old link."""
    data = signing.loads(token, salt=SIGN_IN_SALT, max_age=settings.JUMBULAYA_SIGN_IN_MINUTES * 60)
    return str(data["email"])


def sign_in_url(email: str) -> str:
    from django.urls import reverse

    path = reverse("accounts:sign_in_confirm", args=[sign_in_token(email)])
    return settings.JUMBULAYA_SITE_URL + path


def email_change_token(user_id: int, new_email: str) -> str:
    return signing.dumps({"user": user_id, "email": new_email.lower()}, salt=EMAIL_CHANGE_SALT)


def read_email_change_token(token: str) -> tuple[int, str]:
    data = signing.loads(token, salt=EMAIL_CHANGE_SALT, max_age=3 * 24 * 3600)
    return int(data["user"]), str(data["email"])
