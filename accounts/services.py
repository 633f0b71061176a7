"""The write side of accounts: creating a user on first sign-in, updating a
profile, changing the address, and sending the mails those need.

Views call these functions and stay thin; every function here is safe to call
from a command or a task as well.
"""

from __future__ import annotations

import math
import re
import smtplib
from datetime import timedelta
from typing import ClassVar
from urllib.parse import urlencode

from anymail.exceptions import AnymailError
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts import limits, signals, tokens
from accounts.models import ROBOT_DOMAIN, User, validate_time_zone
from accounts.names import clean_name

EMAIL_CHANGE_DAYS = 3
#: What a failed send raises, for the SMTP backend and for Anymail's.
MAIL_ERRORS: tuple[type[Exception], ...] = (OSError, smtplib.SMTPException, AnymailError)


class AccountError(Exception):
    """A refusal with a message fit to show the person who asked."""

    message = "That did not work."

    def __str__(self) -> str:
        return self.message


class TooManyMails(AccountError):
    """Refused by one of the limits on account mails (:mod:`accounts.limits`).
    The message says which, and never whether the address has an account."""

    REASONS: ClassVar[dict[str, str]] = {
        "address": "We have already sent several emails to that address in the last hour. "
        "Please use the most recent one, or ask again",
        "client": "Many emails have been asked for from your network in the last hour, so we "
        "are not sending more for now. Please try again",
        "site": "The site has sent as many sign-in and confirmation emails as it may for now. "
        "This is not about you or your address: please try again",
    }

    def __init__(self, refusal: limits.Refusal) -> None:
        super().__init__()
        self.kind = refusal.kind
        self.wait = refusal.wait
        minutes = max(1, math.ceil(refusal.wait / timedelta(minutes=1)))
        self.message = (
            f"{self.REASONS[refusal.kind]} in {minutes} {'minute' if minutes == 1 else 'minutes'}."
        )


class EmailTaken(AccountError):
    message = "That address now belongs to another account, so it cannot be yours as well."


class LinkUsed(AccountError):
    message = (
        "This sign-in link has already been used. Each link signs you in once, and stops "
        "working as soon as the account signs in, with it or with a newer link."
    )


class EmailLinkUsed(AccountError):
    message = (
        "This confirmation link has already been used, or your address has changed since it "
        "was sent. Ask for a new one on your profile page."
    )


class AccountDisabled(AccountError):
    message = "This account has been disabled. Please contact the people who run this site."


def normalize_email(email: str) -> str:
    """Addresses are stored and compared in lower case."""
    return email.strip().lower()


def _send(email: str, subject: str, template: str, context: dict[str, object], client: str) -> None:
    """Send one account mail, within the limits (``TooManyMails``).  A send
    that fails counts all the same: whatever makes it fail must not let
    anyone make the site try without end."""
    refusal = limits.take(limits.account_mail_limits(email, client))
    if refusal is not None:
        raise TooManyMails(refusal)
    context = {"site_url": settings.JUMBULAYA_SITE_URL, **context}
    body = render_to_string(f"emails/{template}.txt", context)
    message = EmailMultiAlternatives(subject, body, to=[email])
    message.send()


# --- sign-in ------------------------------------------------------------------


def send_sign_in_link(email: str, next_url: str = "", *, client: str = "") -> None:
    """Mail a sign-in link, whether or not the address has an account yet (the
    account is made on first sign-in), so nothing here tells who is a member.

    ``next_url`` must already be known safe; it rides along on the link.
    ``client`` is the ``REMOTE_ADDR`` of the request that asked, if any."""
    email = normalize_email(email)
    if email.endswith("@" + ROBOT_DOMAIN):
        return  # robots never sign in, and nothing is mailed to their reserved domain
    last_login = (
        User.objects.filter(email__iexact=email).values_list("last_login", flat=True).first()
    )
    url = tokens.sign_in_url(email, last_login)
    if next_url:
        url += "?" + urlencode({"next": next_url})
    _send(
        email,
        "Your Jumbulaya sign-in link",
        "sign_in",
        {"url": url, "minutes": settings.JUMBULAYA_SIGN_IN_MINUTES},
        client,
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


def sign_in_link_is_current(link: tokens.SignInLink) -> bool:
    """Whether a sign-in link can still be used: nobody has signed in to the
    address's account since it was made (nor made an account for the address,
    if it had none)."""
    last_login = (
        User.objects.filter(email__iexact=link.email).values_list("last_login", flat=True).first()
    )
    return tokens.stamps_match(link.login, tokens.login_stamp(last_login))


def sign_in_with_link(link: tokens.SignInLink) -> tuple[User, bool]:
    """Use a sign-in link, once: the account for the address it proves, made
    if need be, with its ``last_login`` moved on so that this link, and any
    other sent before it, stops working.  Returns ``(user, created)``; refuses
    disabled accounts (``AccountDisabled``) and used links (``LinkUsed``).

    Two requests racing with one link (two tabs, a double click) cannot both
    win: ``last_login`` moves on by a conditional UPDATE, and a new account is
    made with it already set, so the loser finds it moved (or the address
    taken) and is refused."""
    email = normalize_email(link.email)
    for _attempt in range(5):
        user = User.objects.filter(email__iexact=email).first()
        now = timezone.now()
        if user is None:
            if not tokens.stamps_match(link.login, tokens.login_stamp(None)):
                raise LinkUsed  # made for an account that has given the address up since
            try:
                with transaction.atomic():
                    # No password: the address is the credential.
                    user = User.objects.create_user(
                        username=handle_for(email), email=email, last_login=now
                    )
                return user, True
            except IntegrityError:
                # Someone took the handle (or signed in with this address) meanwhile.
                continue
        if not user.is_active:
            raise AccountDisabled
        if not tokens.stamps_match(link.login, tokens.login_stamp(user.last_login)):
            raise LinkUsed
        moved = User.objects.filter(pk=user.pk, last_login=user.last_login).update(last_login=now)
        if not moved:
            raise LinkUsed  # another request used it first
        user.last_login = now
        return user, False
    raise AccountError


def make_named_account(email: str, display_name: str) -> User:
    """A new account for ``email`` with a checked name, signed in as of now (so
    a sign-in link mailed before no longer works).  Raises ``ValidationError``
    for a name the rules refuse and ``IntegrityError`` when the address got an
    account meanwhile; the caller's transaction decides what else is undone."""
    email = normalize_email(email)
    return User.objects.create_user(
        username=handle_for(email),
        email=email,
        display_name=clean_name(display_name),
        last_login=timezone.now(),
    )


def sign_out_everywhere(user: User) -> User:
    """End every session of the account, in every browser, at its next
    request (the session hash moves on: ``User.session_generation``).  Its API
    tokens go on working: they are revoked one by one on the profile page."""
    User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)
    user.refresh_from_db(fields=["session_generation"])
    return user


# --- profile --------------------------------------------------------------------


def _check_rename(user: User, name: str) -> None:
    """Let the rest of the site refuse a new name (the ``renaming`` signal:
    ``ValidationError``).  A name kept as it is stored is no rename: saving the
    time zone alone never fails on it."""
    stored = User.objects.filter(pk=user.pk).values_list("display_name", flat=True).first()
    if name != stored:
        signals.renaming.send(sender=User, user=user, name=name)


def set_display_name(user: User, display_name: str) -> User:
    """Set the name alone; ``ValidationError`` for one the rules refuse, or
    that the user's games refuse (:func:`_check_rename`)."""
    name = clean_name(display_name)
    _check_rename(user, name)
    user.display_name = name
    user.save(update_fields=["display_name"])
    return user


def update_profile(user: User, *, display_name: str, time_zone: str) -> User:
    """Set the name and time zone; ``ValidationError`` (with a message for
    people) for a name the rules of :mod:`accounts.names` refuse, or that the
    user's games refuse (:func:`_check_rename`), and nothing changes."""
    display_name = clean_name(display_name)
    validate_time_zone(time_zone)
    _check_rename(user, display_name)
    user.display_name = display_name
    user.time_zone = time_zone
    user.save(update_fields=["display_name", "time_zone"])
    return user


def request_email_change(user: User, new_email: str, *, client: str = "") -> None:
    """Mail a confirmation link to the new address.

    If the address already has an account, that mail says so instead of
    carrying a link, and the person asking is told the same thing either way,
    so the profile page cannot be used to find out who has an account."""
    new_email = normalize_email(new_email)
    again = new_email == user.email.lower()
    taken = User.objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists()
    token = tokens.email_change_token(user.pk, user.email, new_email)
    path = reverse("accounts:confirm_email", args=[token])
    _send(
        new_email,
        "Confirm your Jumbulaya address" if again else "Confirm your new Jumbulaya address",
        "confirm_email",
        {
            "again": again,
            "taken": taken,
            "url": settings.JUMBULAYA_SITE_URL + path,
            "sign_in_url": settings.JUMBULAYA_SITE_URL + reverse("accounts:sign_in"),
            "days": EMAIL_CHANGE_DAYS,
            "name": user.public_name,
        },
        client,
    )


def email_change_link_is_current(user: User, link: tokens.EmailChangeLink) -> bool:
    """Whether the account still has the address the link changes it from."""
    return tokens.stamps_match(link.old, tokens.address_stamp(user.email))


def change_email(user: User, link: tokens.EmailChangeLink) -> User:
    """Apply a confirmed change, once: ``EmailLinkUsed`` if the address is no
    longer the one the link changes (it was used, or another change came
    first: the change is a conditional UPDATE from that address, so of two
    links racing only one wins), ``EmailTaken`` if the new address went to
    another account since the link was sent."""
    new_email = normalize_email(link.new_email)
    old_email = user.email
    if not email_change_link_is_current(user, link):
        raise EmailLinkUsed
    if User.objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists():
        raise EmailTaken
    try:
        with transaction.atomic():
            moved = User.objects.filter(pk=user.pk, email=old_email).update(email=new_email)
    except IntegrityError as exc:
        # Taken between the check and the write.
        raise EmailTaken from exc
    if not moved:
        raise EmailLinkUsed
    user.email = new_email
    # The link reached the address and its owner followed it: mail to it works.
    signals.address_confirmed.send(sender=User, user=user, address=new_email)
    return user


def request_confirmation_again(user: User, *, client: str = "") -> None:
    """Mail a confirmation link to the account's own address (after mail to it
    stopped): following it shows the address takes mail again."""
    request_email_change(user, user.email, client=client)
