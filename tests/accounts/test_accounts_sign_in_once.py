"""A sign-in link signs in once: its POST uses it up, in any browser; opening
it (a GET, what a mail scanner does) does not; and two requests racing with
one link cannot both sign in."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.mail import EmailMessage
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services, tokens
from accounts.models import User

pytestmark = pytest.mark.django_db

Account = Callable[..., User]
LinkIn = Callable[[EmailMessage], str]

SIGN_IN = reverse("accounts:sign_in")


def signed_in_id(client: Client) -> str | None:
    return client.session.get(SESSION_KEY)


def mailed_link(client: Client, email: str, mailoutbox: list, link_in: LinkIn) -> str:
    assert client.post(SIGN_IN, {"email": email}).status_code == 302
    return link_in(mailoutbox[-1])


def link_for(email: str) -> tokens.SignInLink:
    """What a link mailed to ``email`` now would carry."""
    user = User.objects.filter(email__iexact=email).first()
    return tokens.SignInLink(email, tokens.login_stamp(user.last_login if user else None))


def assert_used_page(response: Any, email: str) -> None:
    assert response.status_code == 410
    assert "already been used" in response.text
    # It offers to mail a new link to the same address.
    assert f'action="{SIGN_IN}"' in response.text
    assert f'name="email" value="{email}"' in response.text


def test_a_used_link_signs_in_nowhere_else(
    account: Account, mailoutbox: list, link_in: LinkIn
) -> None:
    ann = account("ann")
    link = mailed_link(Client(), "ann@example.com", mailoutbox, link_in)
    first = Client()
    assert first.post(link).status_code == 302
    assert signed_in_id(first) == str(ann.pk)

    for other in (Client(), Client()):
        page = other.get(link)
        assert_used_page(page, "ann@example.com")
        assert "<button" in page.text and "Email me a new sign-in link" in page.text
        assert_used_page(other.post(link), "ann@example.com")
        assert signed_in_id(other) is None

    # The button on that page mails a fresh link, which works.
    other = Client()
    assert other.post(SIGN_IN, {"email": "ann@example.com"}).status_code == 302
    assert other.post(link_in(mailoutbox[-1])).status_code == 302
    assert signed_in_id(other) == str(ann.pk)


def test_the_browser_that_used_the_link_is_told_it_is_signed_in(
    account: Account, mailoutbox: list, link_in: LinkIn
) -> None:
    account("ann")
    link = mailed_link(Client(), "ann@example.com", mailoutbox, link_in)
    browser = Client()
    browser.post(link)
    page = browser.get(link)
    assert page.status_code == 410
    assert "already been used" in page.text
    assert "This browser is signed in to that account" in page.text
    assert reverse("games:dashboard") in page.text


def test_a_link_that_made_an_account_signs_in_once(mailoutbox: list, link_in: LinkIn) -> None:
    link = mailed_link(Client(), "new@example.com", mailoutbox, link_in)
    first = Client()
    assert first.post(link).status_code == 302
    user = User.objects.get(email="new@example.com")
    assert user.last_login is not None
    assert signed_in_id(first) == str(user.pk)

    second = Client()
    assert_used_page(second.get(link), "new@example.com")
    assert_used_page(second.post(link), "new@example.com")
    assert signed_in_id(second) is None
    assert User.objects.filter(robot_level="").count() == 1  # people: not the robots


def test_signing_in_retires_every_older_link(
    account: Account, mailoutbox: list, link_in: LinkIn
) -> None:
    """Links sent before the account existed, or before its last sign-in, no
    longer work once someone has signed in."""
    browser = Client()
    before_the_account = mailed_link(browser, "zed@example.com", mailoutbox, link_in)
    newer = mailed_link(browser, "zed@example.com", mailoutbox, link_in)
    assert browser.post(newer).status_code == 302  # makes the account
    older = mailed_link(browser, "zed@example.com", mailoutbox, link_in)
    newest = mailed_link(browser, "zed@example.com", mailoutbox, link_in)
    assert Client().post(newest).status_code == 302

    for link in (before_the_account, older):
        other = Client()
        assert_used_page(other.post(link), "zed@example.com")
        assert signed_in_id(other) is None


def test_opening_a_link_does_not_use_it(
    account: Account, mailoutbox: list, link_in: LinkIn
) -> None:
    """Mail scanners and previews GET links: any number of GETs leave the link
    good for the person's POST."""
    ann = account("ann")
    link = mailed_link(Client(), "ann@example.com", mailoutbox, link_in)
    for _ in range(3):
        page = Client().get(link)
        assert page.status_code == 200
        assert "Sign in as <strong>ann@example.com</strong>" in page.text
    browser = Client()
    assert browser.post(link).status_code == 302
    assert signed_in_id(browser) == str(ann.pk)


def test_a_link_made_for_an_account_that_gave_the_address_up(
    account: Account, mailoutbox: list, link_in: LinkIn
) -> None:
    """The address's account moved to another address: the link makes no new
    account for the old one."""
    ann = account("ann")
    ann.last_login = timezone.now()
    ann.save()
    link = mailed_link(Client(), "ann@example.com", mailoutbox, link_in)
    User.objects.filter(pk=ann.pk).update(email="ann@elsewhere.example.com")
    browser = Client()
    assert_used_page(browser.post(link), "ann@example.com")
    assert not User.objects.filter(email="ann@example.com").exists()


def rival_runs_first(monkeypatch: pytest.MonkeyPatch, rival: Callable[[], object]) -> None:
    """Make ``rival`` run once inside the next sign-in, after it has read the
    account and before it writes: the moment where a second tab's request
    overtakes it."""
    real_now = timezone.now
    pending = [rival]

    def now() -> datetime:
        while pending:
            pending.pop()()
        return real_now()

    monkeypatch.setattr(services.timezone, "now", now)


def test_two_tabs_racing_one_link_sign_in_once(
    account: Account, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = account("ann")
    link = link_for("ann@example.com")
    rival_runs_first(monkeypatch, lambda: services.sign_in_with_link(link))
    with pytest.raises(services.LinkUsed):
        services.sign_in_with_link(link)
    ann.refresh_from_db()
    assert ann.last_login is not None  # the rival signed in


def test_two_tabs_racing_a_link_that_makes_the_account_sign_in_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    link = link_for("new@example.com")
    rival_runs_first(monkeypatch, lambda: services.sign_in_with_link(link))
    with pytest.raises(services.LinkUsed):
        services.sign_in_with_link(link)
    assert User.objects.filter(email="new@example.com").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("existing", [True, False])
def test_threads_racing_one_link_sign_in_once(account: Account, existing: bool) -> None:
    """The same race on real connections (run it on PostgreSQL too)."""
    if existing:
        account("ann")
    link = link_for("ann@example.com")
    barrier = threading.Barrier(4)
    results: list[object] = []

    def use() -> None:
        try:
            barrier.wait()
            results.append(services.sign_in_with_link(link))
        except Exception as e:  # the outcome is what the test looks at
            results.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=use) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    signed_in = [r for r in results if isinstance(r, tuple)]
    assert len(signed_in) == 1, results
    assert all(isinstance(r, services.LinkUsed) for r in results if r not in signed_in), results
    assert User.objects.filter(robot_level="").count() == 1  # people: not the robots
