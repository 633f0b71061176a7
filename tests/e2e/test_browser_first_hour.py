"""A new player's first hour in a real browser, by keyboard: from the invitation
email to a seat (the name asked on the invitation page, no sign-in email, no
lobby), and a move answered from the local mailbox, whose answer and the next
turn email show on the page without a reload.  axe-core checks each page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from devmail.models import Message
from games.core.lobby import create_game
from games.engine.jumbulaya import PRESETS
from games.mail_out import outbox
from games.models import Game, Seat
from tests.e2e.conftest import PageWatch
from tests.e2e.test_browser_keyboard import clean, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


def mailbox_on(settings: Any, base: str) -> None:
    settings.JUMBULAYA_MAILBOX = True
    settings.JUMBULAYA_SITE_URL = base  # for the links in emails
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}


def test_from_the_invitation_email_to_the_game_page(
    live_server: Any,
    browser: Any,
    make_user: Callable[[str], User],
    settings: Any,
    problems: PageWatch,
) -> None:
    base = live_server.url
    mailbox_on(settings, base)
    ann = make_user("ann")
    game = create_game(
        ann, seat_count=2, rules=PRESETS["official"], invite_emails=["bea.jones@example.com"]
    )
    outbox.sweep()  # the invitation, into the local mailbox
    page = problems.watch(browser.new_context()).new_page()
    page.goto(f"{base}/dev/mailbox/?to=bea.jones%40example.com")
    page.get_by_role("link", name=re.compile("invites you")).click()
    page.wait_for_url(re.compile(r"/dev/mailbox/\d+/$"))
    text = page.inner_text(".mail-text")
    assert "Players already seated: Ann." in text and "Time per move: 3 days" in text
    link = re.search(r"https?://\S+/invite/\S+", text)
    assert link is not None

    # The invitation page: the game's settings, and the name, offered from the address.
    page.goto(link.group(0))
    facts = page.inner_text(".facts")
    for fact in ("Players already seated: Ann.", "Time per move: 3 days",
                 "JUMBULAYA claim window: on.", "Word list: ENABLE"):  # fmt: skip
        assert fact in facts
    name = page.get_by_label("Display name")
    expect(name).to_have_value("Bea Jones")
    clean(page)
    tab_to(page, "#id_display_name")
    page.keyboard.press("Control+A")
    page.keyboard.type("Bea")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/games/{game.pk}/")
    assert "You joined the game, and it has begun." in page.inner_text("body")
    clean(page)
    bea = User.objects.get(email="bea.jones@example.com")
    assert bea.display_name == "Bea"
    assert Seat.objects.get(game=game, index=1).user == bea
    assert not Message.objects.filter(to="bea.jones@example.com", subject__icontains="sign-in")
    assert problems.problems == []


def test_a_reply_from_the_mailbox_is_answered_without_a_reload(
    live_server: Any,
    browser: Any,
    started_game: Callable[..., Game],
    settings: Any,
    problems: PageWatch,
) -> None:
    base = live_server.url
    mailbox_on(settings, base)
    game = started_game()
    outbox.sweep()
    assert game.turn_seat is not None
    mover = Seat.objects.get(game=game, index=game.turn_seat).user
    assert mover is not None
    mail = Message.objects.filter(to=mover.email, message_id__contains=".your_turn.").first()
    assert mail is not None

    page = problems.watch(browser.new_context()).new_page()
    page.goto(f"{base}/dev/mailbox/{mail.pk}/")
    page.evaluate("() => { window.stayed = true; }")  # gone if the page reloads
    tab_to(page, "textarea.mail-reply")
    page.keyboard.press("Control+Home")
    page.keyboard.type("pass")
    tab_to(page, "button.primary")
    page.keyboard.press("Enter")
    news = page.locator("#mail-news")
    expect(news).to_contain_text("the move was made")
    # The worker sends what the move owes; the page lists it as it arrives.
    outbox.sweep()
    expect(news.locator("li")).to_have_count(2, timeout=10_000)
    items = news.inner_text()
    assert mover.email in items  # the answer, to the player who replied
    assert any(
        seat.user.email in items for seat in game.seats.all() if seat.user != mover
    )  # the next player's turn email
    assert page.evaluate("() => window.stayed") is True
    assert news.get_attribute("aria-live") == "polite"
    clean(page)
    # The list's links open by keyboard.
    tab_to(page, "#mail-news li a")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/dev/mailbox/\d+/$"))
    assert problems.problems == []
