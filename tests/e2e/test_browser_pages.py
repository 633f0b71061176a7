"""Every kind of page in a real browser, under the Content-Security-Policy: nothing is
refused, and what needs a script (the new-game form, the replay's boosted links) or
inline styles (an email in the local mailbox, whose links open the site) still works."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.core.door import submit
from games.mail_out import outbox
from games.models import Event, Game
from tests.e2e.conftest import PolicyWatch
from tests.e2e.test_browser_game import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def finish(game: Game) -> None:
    """Two passes, then the player to move resigns: a 2-player game is over."""
    for move in ("pass", "pass", "resign"):
        game.refresh_from_db()
        assert game.turn_seat is not None
        submit(game.pk, game.turn_seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER


def test_no_page_is_refused_anything(
    live_server: Any,
    browser: Any,
    started_game: Callable[..., Game],
    settings: Any,
    csp: PolicyWatch,
) -> None:
    base = live_server.url
    settings.JUMBULAYA_MAILBOX = True
    settings.JUMBULAYA_SITE_URL = base  # for the links in emails
    game = started_game()
    page = sign_in(browser, base, "ann@example.com", csp)
    # From here on the game's emails go to the local mailbox.
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    finish(game)
    outbox.sweep()

    for path in ("/dashboard/", "/games/open/", "/records/upload/", "/account/profile/",
                 "/settings/email/", "/vacation/", f"/games/{game.pk}/"):  # fmt: skip
        assert page.goto(base + path).ok, path

    # The new-game form's script: another preset refills the options left as shown.
    page.goto(f"{base}/games/new/")
    assert page.input_value("[name=stall_rounds]") == "0"
    page.select_option("[name=preset]", "boardspace")
    assert page.input_value("[name=stall_rounds]") == "2"

    # The replay steps through the game by htmx (hx-boost).
    page.goto(f"{base}/games/{game.pk}/replay/")
    assert "Step 0 of 3" in page.inner_text("#replay")
    with page.expect_request(lambda request: request.headers.get("hx-request") == "true"):
        page.click("#replay a[rel=next]")
    # (Not wait_for_function: a string predicate is eval'd in the page, which its
    # Content-Security-Policy refuses whenever the step is not there at once.)
    expect(page.locator("#replay")).to_contain_text("Step 1 of 3")

    # An email with its inline styles, framed on the mailbox's page.
    page.goto(f"{base}/dev/mailbox/?to=ann%40example.com")
    page.click(f"text=Game {game.pk} is over")
    page.wait_for_url(re.compile(r"/dev/mailbox/\d+/$"))
    frame = page.frame_locator("iframe.mail-html")
    body = frame.locator("body")
    assert "Hello Ann" in body.inner_text()
    assert body.evaluate("b => getComputedStyle(b).backgroundColor") == "rgb(246, 244, 239)"
    # Its links open in the mailbox's window (the site's pages refuse to be framed).
    frame.get_by_role("link", name="Open the game", exact=True).click()
    page.wait_for_url(f"{base}/games/{game.pk}/")

    assert csp.violations == []
