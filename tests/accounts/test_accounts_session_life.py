"""How long a session lasts and how it ends: 30 days after the account last
used it, a new session key at each sign-in, and "Sign out everywhere" on the
profile page, which ends every session of the account and leaves its API
tokens alone."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.mail import EmailMessage
from django.test import Client
from django.urls import reverse

from accounts import access_tokens
from accounts.models import User
from tests.api.conftest import ApiClient

pytestmark = pytest.mark.django_db

Account = Callable[..., User]
DASHBOARD = reverse("games:dashboard")
EVERYWHERE = "/account/sign-out/everywhere/"
T0 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def is_signed_in(client: Client) -> bool:
    return client.get(DASHBOARD).status_code == 200


def test_a_session_lasts_30_days_after_its_last_use(
    account: Account, time_machine: Any, settings: Any
) -> None:
    assert settings.SESSION_COOKIE_AGE == 30 * 24 * 3600
    # The sessions' cache in this process's memory, whose clock is the test's: Redis
    # (CI) would keep the unused session for 30 real days, not travelled ones.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    time_machine.move_to(T0, tick=False)
    ann = account("ann")
    used, unused = signed_in(ann), signed_in(ann)
    for day in (20, 40, 60):  # each visit renews it: 20 days between them
        time_machine.move_to(T0 + timedelta(days=day), tick=False)
        assert is_signed_in(used)
    expires = Session.objects.get(session_key=used.session.session_key).expire_date
    assert expires == T0 + timedelta(days=60 + 30)
    assert used.cookies[settings.SESSION_COOKIE_NAME]["max-age"] == 30 * 24 * 3600
    # The other browser, unused for 60 days, was signed out after 30.
    assert not is_signed_in(unused)


def test_a_session_is_written_again_once_a_day_at_most(account: Account, time_machine: Any) -> None:
    time_machine.move_to(T0, tick=False)
    client = signed_in(account("ann"))
    assert is_signed_in(client)
    key = client.session.session_key
    first = Session.objects.get(session_key=key).expire_date
    time_machine.move_to(T0 + timedelta(hours=3), tick=False)
    assert is_signed_in(client)
    assert Session.objects.get(session_key=key).expire_date == first
    time_machine.move_to(T0 + timedelta(days=1, hours=1), tick=False)
    assert is_signed_in(client)
    assert Session.objects.get(session_key=key).expire_date == first + timedelta(days=1, hours=1)


def test_signing_in_by_link_starts_a_new_session(
    client: Client,
    account: Account,
    mailoutbox: list[EmailMessage],
    link_in: Callable[[EmailMessage], str],
) -> None:
    """A session key known before sign-in (one planted in the browser) is
    not the signed-in one: the sign-in gives a new key and the old one ends."""
    ann = account("ann")
    before = client.session
    before["planted"] = True
    before.save()
    planted = before.session_key
    assert planted is not None
    client.cookies[settings.SESSION_COOKIE_NAME] = planted
    client.post(reverse("accounts:sign_in"), {"email": ann.email})
    assert client.post(link_in(mailoutbox[-1])).status_code == 302
    assert client.session.get(SESSION_KEY) == str(ann.pk)
    assert client.session.session_key != planted
    assert not Session.objects.filter(session_key=planted).exists()


def test_sign_out_everywhere_ends_every_session_of_the_account(account: Account) -> None:
    ann, bob = account("ann"), account("bob")
    here, phone, bobs = signed_in(ann), signed_in(ann), signed_in(bob)
    token = access_tokens.make(ann, "my bot").token
    profile = here.get(reverse("accounts:profile")).text
    assert f'action="{EVERYWHERE}"' in profile and "Sign out everywhere" in profile
    answer = here.post(EVERYWHERE, follow=True)
    assert answer.redirect_chain == [(reverse("games:home"), 302)]
    assert "You are signed out everywhere" in answer.text
    assert not is_signed_in(here) and not is_signed_in(phone)
    assert is_signed_in(bobs)  # another account's sessions go on
    assert ApiClient(token).get("/me").status == 200  # and so do the tokens
    # Signing in again works as ever, and ends nothing else.
    again = signed_in(User.objects.get(pk=ann.pk))
    assert is_signed_in(again)


def test_sign_out_everywhere_is_a_post_with_its_csrf_token(account: Account) -> None:
    ann = account("ann")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    assert browser.get(EVERYWHERE).status_code == 405
    assert browser.post(EVERYWHERE).status_code == 403  # no CSRF token
    assert is_signed_in(browser)
    assert Client().post(EVERYWHERE).status_code == 302  # to the sign-in page


def test_sessions_signed_in_before_the_feature_stay_signed_in(account: Account) -> None:
    """An account that never signed out everywhere keeps Django's own session
    hash: the sessions of before the change were not ended by it."""
    from django.contrib.auth.base_user import AbstractBaseUser

    ann = account("ann")
    assert ann.get_session_auth_hash() == AbstractBaseUser.get_session_auth_hash(ann)


def test_the_renewal_serves_async_requests_without_a_thread() -> None:
    """Under ASGI the middleware is a coroutine itself (a sync one would hold
    a thread through a long poll's wait), and renews the same way."""
    import asyncio

    from asgiref.sync import iscoroutinefunction
    from django.http import HttpRequest, HttpResponse

    from accounts.sessions import RENEWED_ON, RenewSessionsMiddleware, SessionStore

    async def view(request: HttpRequest) -> HttpResponse:
        request.session[SESSION_KEY] = "1"  # a signed-in session the request used
        return HttpResponse()

    middleware = RenewSessionsMiddleware(view)
    assert iscoroutinefunction(middleware)
    request = HttpRequest()
    request.session = SessionStore()
    asyncio.run(middleware(request))
    assert request.session[RENEWED_ON] and request.session.modified
