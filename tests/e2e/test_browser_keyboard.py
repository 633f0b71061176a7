"""Playing by keyboard alone, as a new player does from the links in their email:
a word composed tile by tile and sent through a turn link, a pass confirmed
through another, and a finished game replayed with the arrow keys.  No mouse
click in the player's part; axe-core checks each page as it is used."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games.core.services import submit
from games.mail_out.turnlinks import turn_token
from games.models import Event, Game
from tests.e2e.conftest import PageWatch, axe_violations
from tests.e2e.test_browser_game import sign_in

pytestmark = pytest.mark.django_db(transaction=True)

#: More Tab presses than any page here needs to reach anything.
TABS = 120


def tab_to(page: Any, selector: str) -> None:
    """Press Tab until the element ``selector`` has the focus."""
    for _ in range(TABS):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def focused(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)"))


def clean(page: Any) -> None:
    found = axe_violations(page)
    assert found == "", found


def test_a_game_by_keyboard_through_the_email_links(
    live_server: Any,
    browser: Any,
    board_game: Callable[..., Game],
    problems: PageWatch,
) -> None:
    base = live_server.url
    game = board_game()  # Ann moves first
    ann = game.seats.get(index=0).user
    bob = game.seats.get(index=1).user
    assert ann is not None and bob is not None

    # Ann opens her turn link and builds STRANGE on line 1 by keyboard.
    anns = problems.watch(browser.new_context()).new_page()
    anns.goto(f"{base}/t/{turn_token(ann.pk, game.pk, game.last_seq)}/")
    anns.wait_for_selector("#live[data-compose-ready]")
    clean(anns)
    tab_to(anns, ".line[data-line='1'] .tile[data-index='0']")
    for i in range(7):
        if i:
            anns.keyboard.press("Tab")
        assert f'data-index="{i}"' in focused(anns)
        anns.keyboard.press("Enter")
    assert anns.input_value("#notation") == "1 S-T-R-A-N-G-E"
    expect(anns.locator("#preview")).to_contain_text("You build STRANGE on line 1")
    tab_to(anns, "#move-form button.primary")
    with anns.expect_response(lambda r: r.request.method == "POST"):
        anns.keyboard.press("Enter")
    expect(anns.locator("#live")).to_contain_text("Your move was made.")
    expect(anns.locator("#live")).not_to_contain_text("refused")
    assert Event.objects.get(game=game, seq=2).source == "link"
    clean(anns)

    # Bob passes through his link: the page asks once, and the keyboard answers.
    game.refresh_from_db()
    bobs = problems.watch(browser.new_context()).new_page()
    bobs.goto(f"{base}/t/{turn_token(bob.pk, game.pk, game.last_seq)}/")
    bobs.wait_for_selector("#live[data-compose-ready]")
    tab_to(bobs, "button[data-move='pass']")
    with bobs.expect_response(lambda r: r.request.method == "POST"):
        bobs.keyboard.press("Enter")
    expect(bobs.locator("#confirm-title")).to_have_text("Pass your turn?")
    expect(bobs.locator("#confirm-title")).to_be_focused()  # read out first
    clean(bobs)
    assert Event.objects.filter(game=game).count() == 2  # asked, not done
    bobs.keyboard.press("Tab")
    assert "Yes, pass" in focused(bobs)
    with bobs.expect_response(lambda r: r.request.method == "POST"):
        bobs.keyboard.press("Enter")
    expect(bobs.locator("#live")).to_contain_text("Your move was made.")
    passed = Event.objects.get(game=game, seq=3)
    assert (passed.type, passed.seat, passed.source) == ("passed", 1, "link")

    # The game ends; Ann replays it with the keyboard.
    game.refresh_from_db()
    submit(game.pk, 0, "resign", game.last_seq, Event.Source.WEB)
    page = sign_in(browser, base, "ann@example.com", problems)
    page.goto(f"{base}/games/{game.pk}/replay/")
    expect(page.locator("[data-replay-keys]")).to_be_visible()
    where = page.locator("#replay-where")
    expect(where).to_have_text("Step 0 of 3")
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text("Step 1 of 3")
    assert page.url.endswith("?step=1")
    changed = page.locator(".replay-board li.changed")
    expect(changed).to_have_count(1)
    expect(changed.locator(".num")).to_have_text("1")  # STRANGE, on line 1
    said = page.locator("[data-replay-said]")
    expect(said).to_have_text(re.compile(r"^Step 1 of 3: Ann .*line 1"))
    clean(page)
    page.keyboard.press("End")
    expect(where).to_have_text("Step 3 of 3")
    expect(page.locator(".replay-board li.changed")).to_have_count(0)  # a resignation
    page.keyboard.press("ArrowRight")  # nothing after the last step
    expect(where).to_have_text("Step 3 of 3")
    page.keyboard.press("Home")
    expect(where).to_have_text("Step 0 of 3")
    page.keyboard.press("ArrowLeft")
    expect(where).to_have_text("Step 0 of 3")
    # The step links by Tab and Enter: the focus stays on the link followed, and
    # goes to the step when that link is gone (no "Last" at the last move).
    tab_to(page, "#replay-next")
    page.keyboard.press("Enter")
    expect(where).to_have_text("Step 1 of 3")
    expect(page.locator("#replay-next")).to_be_focused()
    # htmx boosts the swapped-in links when the swap settles; a key pressed before
    # that follows the plain link (a whole page load), so wait for the step said.
    expect(said).to_have_text(re.compile(r"^Step 1 of 3: "))
    tab_to(page, "#replay-last")
    page.keyboard.press("Enter")
    expect(where).to_have_text("Step 3 of 3")
    expect(where).to_be_focused()
    assert problems.problems == [], "\n".join(problems.problems)
