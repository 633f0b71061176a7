"""A bounce tried on one machine: Bob's game email bounced from the local
mailbox, the banner on his pages, and the fix (his address confirmed again),
by keyboard, with axe-core checking each page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from devmail.models import Message
from games.mail_out import mail_alarm, outbox, tracking
from games.models import Game
from tests.e2e.conftest import PageWatch
from tests.e2e.test_browser_first_hour import mailbox_on
from tests.e2e.test_browser_keyboard import clean, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


def link_in_mailbox(to: str, subject: str, path: str) -> str:
    """The path of the link to ``path`` in the latest email to ``to`` about ``subject``."""
    mail = Message.objects.filter(to=to, subject__icontains=subject).latest("pk")
    found = re.search(rf"https?://[^/\s]+({re.escape(path)}\S+/)", mail.text)
    assert found is not None, mail.text
    return found.group(1)


def test_a_bounce_from_the_mailbox_the_banner_and_the_fix_by_keyboard(
    live_server: Any,
    browser: Any,
    started_game: Callable[..., Game],
    settings: Any,
    problems: PageWatch,
) -> None:
    base = live_server.url
    mailbox_on(settings, base)
    game = started_game(players=2)
    outbox.sweep()  # the game-started emails, into the local mailbox
    page = problems.watch(browser.new_context()).new_page()

    # Bob signs in through the mailbox.
    page.goto(f"{base}/account/sign-in/")
    page.fill("input[name=email]", "bob@example.com")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/account/sign-in/sent/"))
    page.goto(base + link_in_mailbox("bob@example.com", "sign-in", "/account/sign-in/"))
    tab_to(page, "main form button.primary")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/dashboard/"))

    # His game email bounces, from its page in the mailbox.
    mail = Message.objects.filter(to="bob@example.com", subject__icontains="game").latest("pk")
    page.goto(f"{base}/dev/mailbox/{mail.pk}/")
    clean(page)
    tab_to(page, "button[value=bounce]")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/dev/mailbox/{mail.pk}/")
    assert "The email was bounced" in page.inner_text("main")
    assert tracking.stopped("bob@example.com") is not None

    # Every page now says so, with the one step to fix it.
    page.goto(f"{base}/games/{game.pk}/")
    banner = page.locator(".mail-stopped")
    expect(banner).to_contain_text("We have stopped emailing you")
    expect(banner).to_contain_text("it bounced")
    clean(page)
    tab_to(page, ".mail-stopped button")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/account/profile/"))
    assert "We sent a confirmation link to bob@example.com" in page.inner_text("main")
    clean(page)

    # The confirmation mail is sent to the stopped address all the same; following it
    # starts mail again.
    page.goto(base + link_in_mailbox("bob@example.com", "confirm", "/account/email/"))
    expect(page.locator("h1")).to_have_text("Confirm your address")
    clean(page)
    tab_to(page, "h1 ~ form button.primary")  # the page's own, not the banner's
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/account/profile/"))
    assert "is confirmed" in page.inner_text("main")
    expect(page.locator(".mail-stopped")).to_have_count(0)
    clean(page)
    assert tracking.stopped("bob@example.com") is None
    assert problems.problems == []


def test_defer_and_our_server_failed_from_the_mailbox_by_keyboard(
    live_server: Any,
    browser: Any,
    started_game: Callable[..., Game],
    settings: Any,
    problems: PageWatch,
) -> None:
    """Points 1 and 2 of issue 28 without an ESP: a deferral is no stop, and our
    server failing is the operator's alarm, with no banner for anyone."""
    settings.JUMBULAYA_HEALTH_EXPECT_WORKERS = False  # no worker or beat here (CI has Redis)
    base = live_server.url
    mailbox_on(settings, base)
    started_game(players=2)
    outbox.sweep()
    page = problems.watch(browser.new_context()).new_page()
    mail = Message.objects.filter(to="bob@example.com", subject__icontains="game").latest("pk")
    page.goto(f"{base}/dev/mailbox/{mail.pk}/")
    clean(page)

    tab_to(page, "button[value=defer]")
    with page.expect_navigation():  # back to the same address: wait for the new page
        page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/dev/mailbox/{mail.pk}/")
    assert "The email was deferred" in page.inner_text("main")
    assert tracking.stopped("bob@example.com") is None
    clean(page)

    tab_to(page, "button[value=failed]")
    with page.expect_navigation():  # back to the same address: wait for the new page
        page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/dev/mailbox/{mail.pk}/")
    assert "as if our mail server had refused our password" in page.inner_text("main")
    clean(page)
    assert mail_alarm.send_alarm() is not None
    assert tracking.stopped("bob@example.com") is None
    health = page.request.get(f"{base}/healthz")
    assert health.status == 200 and health.json()["degraded"] == [mail_alarm.SEND]
    assert problems.problems == []
