"""The write side of accounts: creating a user on first sign-in, updating a
profile, changing the address, and sending the mails those need.

Views call these functions and stay thin; every function here is safe to call
from a command or a task as well.
"""

from __future__ import annotations

import hashlib
import logging
import re
import smtplib
import time
from urllib.parse import urlencode

from anymail.exceptions import AnymailError
from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse

from accounts import tokens
from accounts.models import User, validate_time_zone
from accounts.names import clean_name

log = logging.getLogger(__name__)

#: At most this many account mails (sign-in links, address confirmations) go to
#: one address in ``MAIL_WINDOW_SECONDS``.
MAIL_LIMIT = 5
MAIL_WINDOW_SECONDS = 3600
EMAIL_CHANGE_DAYS = 3
#: What a failed send raises, for the SMTP backend and for Anymail's.
MAIL_ERRORS: tuple[type[Exception], ...] = (OSError, smtplib.SMTPException, AnymailError)


class AccountError(Exception):
    """A refusal with a message fit to show the person who asked."""

    message = "That did not work."

    def __str__(self) -> str:
        return self.message


class TooManyMails(AccountError):
    message = (
        "We have already sent several emails to that address in the last hour. "
        "Please use the most recent one, or try again later."
    )


class EmailTaken(AccountError):
    message = "That address now belongs to another account, so it cannot be yours as well."


class AccountDisabled(AccountError):
    message = "This account has been disabled. Please contact the people who run this site."


def normalize_email(email: str) -> str:
    """Addresses are stored and compared in lower case."""
    return email.strip().lower()


# --- rate limit ---------------------------------------------------------------


def _mail_key(email: str) -> str:
    digest = hashlib.sha256(normalize_email(email).encode()).hexdigest()
    return f"accounts:mails:{digest}"


def _recent_sends(email: str, now: float) -> list[float]:
    """When this address was sent mail in the last window.  The count lives in
    the cache (Redis): while it is away, none is known and mail goes out."""
    try:
        sent = cache.get(_mail_key(email)) or []
    except Exception as e:  # sign-in must not fail with the cache
        log.warning("the mail rate limit's cache is unavailable (%s)", type(e).__name__)
        return []
    return [t for t in sent if now - t < MAIL_WINDOW_SECONDS]


def check_mail_allowed(email: str) -> None:
    """Raise ``TooManyMails`` when the address has had its share this hour.

    A sliding window (the send times themselves are kept), so the limit holds
    for any hour, not just per clock hour."""
    if len(_recent_sends(email, time.time())) >= MAIL_LIMIT:
        raise TooManyMails


def _record_mail(email: str) -> None:
    now = time.time()
    try:
        cache.set(_mail_key(email), [*_recent_sends(email, now), now], MAIL_WINDOW_SECONDS)
    except Exception as e:  # the mail went out; only its count is lost
        log.warning("the mail rate limit's cache is unavailable (%s)", type(e).__name__)


def _send(email: str, subject: str, template: str, context: dict[str, object]) -> None:
    """Send one account mail, within the per-address limit."""
    check_mail_allowed(email)
    context = {"site_url": settings.JUMBULAYA_SITE_URL, **context}
    body = render_to_string(f"emails/{template}.txt", context)
    message = EmailMultiAlternatives(subject, body, to=[email])
    message.send()
    _record_mail(email)


# --- sign-in ------------------------------------------------------------------


def send_sign_in_link(email: str, next_url: str = "") -> None:
    """Mail a sign-in link, whether or not the address has an account yet (the
    account is made on first sign-in), so nothing here tells who is a member.

    ``next_url`` must already be known safe; it rides along on the link."""
    email = normalize_email(email)
    url = tokens.sign_in_url(email)
    if next_url:
        url += "?" + urlencode({"next": next_url})
    _send(
        email,
        "Your Jumbulaya sign-in link",
        "sign_in",
        {"url": url, "minutes": settings.JUMBULAYA_SIGN_IN_MINUTES},
    )


def handle_for(email: str) -> str:
    """A free ``username`` made from the address's local part: ``ann``, then
    ``ann2``, ``ann3``…"""
    local = normalize_email(email).partition("@")[0]
    base = re.sub(r"[^a-z0-9._+-]", "", local)[:30] or "player"
    taken = set(User.objects.filter(username__startswith=base).values_list("username", flat=True))
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}{n}"
    return candidate


def user_for_sign_in(email: str) -> tuple[User, bool]:
    """The account for an address proven by a sign-in link, made if need be.
    Returns ``(user, created)``; refuses disabled accounts."""
    email = normalize_email(email)
    for _attempt in range(5):
        user = User.objects.filter(email__iexact=email).first()
        if user is not None:
            if not user.is_active:
                raise AccountDisabled
            return user, False
        try:
            with transaction.atomic():
                # No password: the address is the credential.
                user = User.objects.create_user(username=handle_for(email), email=email)
            return user, True
        except IntegrityError:
            # Someone took the handle (or signed in with this address) meanwhile.
            continue
    raise AccountError


# --- profile --------------------------------------------------------------------


def update_profile(user: User, *, display_name: str, time_zone: str) -> User:
    """Set the name and time zone; ``ValidationError`` (with a message for
    people) for a name the rules of :mod:`accounts.names` refuse."""
    display_name = clean_name(display_name)
    validate_time_zone(time_zone)
    user.display_name = display_name
    user.time_zone = time_zone
    user.save(update_fields=["display_name", "time_zone"])
    return user


def request_email_change(user: User, new_email: str) -> None:
    """Mail a confirmation link to the new address.

    If the address already has an account, that mail says so instead of
    carrying a link, and the person asking is told the same thing either way,
    so the profile page cannot be used to find out who has an account."""
    new_email = normalize_email(new_email)
    taken = User.objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists()
    path = reverse("accounts:confirm_email", args=[tokens.email_change_token(user.pk, new_email)])
    _send(
        new_email,
        "Confirm your new Jumbulaya address",
        "confirm_email",
        {
            "taken": taken,
            "url": settings.JUMBULAYA_SITE_URL + path,
            "sign_in_url": settings.JUMBULAYA_SITE_URL + reverse("accounts:sign_in"),
            "days": EMAIL_CHANGE_DAYS,
            "name": user.public_name,
        },
    )


def change_email(user: User, new_email: str) -> User:
    """Apply a confirmed change; ``EmailTaken`` if the address went to another
    account since the link was sent."""
    new_email = normalize_email(new_email)
    if user.email.lower() == new_email:
        return user
    if User.objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists():
        raise EmailTaken
    old_email = user.email
    user.email = new_email
    try:
        with transaction.atomic():
            user.save(update_fields=["email"])
    except IntegrityError as exc:
        # Taken between the check and the write.
        user.email = old_email
        raise EmailTaken from exc
    return user
