"""Playing by keyboard alone, as a new player does from the links in their email:
a word composed tile by tile and sent through a turn link, a pass confirmed
through another, and a finished game replayed with the arrow keys; the
JUMBULAYA board one tab stop with the arrow keys inside, each tile named by
its line and place; and after a move sent by keyboard, in every kind, the
focus where the player goes next, never on <body>.  No mouse click in the
player's part; axe-core checks each page as it is used."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games import kinds
from games.core.door import submit
from games.core.lobby import create_game, join_game
from games.core.projection import current_state, game_lexicon
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
            anns.keyboard.press("ArrowRight")  # the board is one tab stop: arrows move in it
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
    # The keyboard is where she goes next: this link sends no more moves, so the
    # game's status (what comes next), which the result describes; not <body>.
    status = anns.locator("#live section.status")
    expect(status).to_be_focused()
    assert status.get_attribute("aria-describedby") == "move-result"
    expect(anns.locator("#move-result")).to_have_text("Your move was made.")
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
    expect(bobs.locator("#live section.status")).to_be_focused()
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


def test_the_jumbulaya_board_is_one_tab_stop_with_arrow_keys_inside(
    live_server: Any,
    browser: Any,
    board_game: Callable[..., Game],
    problems: PageWatch,
) -> None:
    game = board_game()  # Ann moves first
    page = sign_in(browser, live_server.url, "ann@example.com", problems)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-compose-ready]")

    def name() -> str:
        return str(page.evaluate("() => document.activeElement.getAttribute('aria-label')"))

    # From the top of the page to the first button of the move box, the tiles
    # are two tab stops: the board's and the rack's.
    page.locator("h1").click()
    stops: list[str] = []
    for _ in range(TABS):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#compose button')"):
            break
        if page.evaluate("() => document.activeElement.matches('.tile')"):
            stops.append(name())
    assert stops == ["Line 1, tile 1 of 7: S", "Your rack, tile 1 of 5: A"], stops

    # Inside the board the arrow keys move: along a line, and to the line above or
    # below at the same place (or its last tile); Home and End to a line's ends.
    tab_to(page, ".board .tile")
    assert name() == "Line 1, tile 1 of 7: S"
    for key, said in [
        ("ArrowRight", "Line 1, tile 2 of 7: T"),
        ("ArrowDown", "Line 2, tile 2 of 3: P"),
        ("End", "Line 2, tile 3 of 3: E"),
        ("ArrowRight", "Line 2, tile 3 of 3: E"),  # nothing after the last
        ("ArrowUp", "Line 1, tile 3 of 7: R"),
        ("ArrowDown", "Line 2, tile 3 of 3: E"),
        ("Home", "Line 2, tile 1 of 3: A"),
    ]:
        page.keyboard.press(key)
        assert name() == said, key
    page.keyboard.press("Tab")
    assert name() == "Your rack, tile 1 of 5: A"
    page.keyboard.press("ArrowRight")
    assert name() == "Your rack, tile 2 of 5: B"
    page.keyboard.press("Shift+Tab")  # back to the board, where the keyboard left it
    assert name() == "Line 2, tile 1 of 3: A"
    page.keyboard.press("Enter")  # picks line 2: its tiles, then the rack's
    assert page.get_attribute("#tile-2-1", "aria-pressed") == "true"
    clean(page)

    # A move the rules refuse comes back with the move field focused, to fix it.
    page.fill("#notation", "")
    tab_to(page, "#notation")
    page.keyboard.type("4 ZZZ")
    tab_to(page, "#move-form button.primary")
    problems.expect(422)
    with page.expect_response(lambda r: r.request.method == "POST" and "/move/" in r.url):
        page.keyboard.press("Enter")
    expect(page.locator("#move-error")).to_be_visible()
    expect(page.locator("#notation")).to_be_focused()
    problems.expect()
    assert problems.problems == [], "\n".join(problems.problems)


def players_of(make_user: Callable[[str], User], kind: str) -> Game:
    """A started game of ``kind`` between Ann, Bob (and Cy, where it needs three)."""
    game_kind = kinds.get(kind)
    users = [make_user(n) for n in ("ann", "bob", "cy")[: max(2, game_kind.min_players)]]
    game = create_game(
        users[0],
        kind=kind,
        seat_count=len(users),
        rules=next(iter(game_kind.presets.values())),
        invite_emails=[u.email for u in users[1:]],
    )
    for user in users[1:]:
        join_game(game.pk, user)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("kind", [k.name for k in kinds.all()])
def test_after_a_move_sent_by_keyboard_the_focus_goes_on_not_to_body(
    live_server: Any,
    browser: Any,
    make_user: Callable[[str], User],
    problems: PageWatch,
    kind: str,
) -> None:
    """In every kind: a move typed and sent by keyboard leaves the keyboard on the
    move box, which the result ("Your move was made.") describes."""
    game = players_of(make_user, kind)
    game_kind = kinds.get(kind)
    state = current_state(game)
    seat = game_kind.progress(state).to_move[0]
    user = game.seats.get(index=seat).user
    assert user is not None
    lexicon = game_lexicon(game) if game_kind.uses_word_list else None
    # Tumble-Words: the empty crossword, always allowed; a crossword rack that makes
    # no word on its random board exchanges a tile (sent at once, as a word is).
    moves = [] if kind == "tumble" else game_kind.legal_moves(state, seat, lexicon)
    move = "." if kind == "tumble" else moves[0] if moves else f"exchange {state.racks[seat][0]}"
    page = sign_in(browser, live_server.url, user.email, problems)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#live[data-compose-ready]")
    tab_to(page, "#notation")
    page.keyboard.type(move)
    tab_to(page, "#move-form button.primary")
    with page.expect_response(lambda r: r.request.method == "POST" and "/move/" in r.url):
        page.keyboard.press("Enter")
    expect(page.locator("#live .notice")).to_have_text(re.compile(r"^Your move was made\."))
    expect(page.locator("#compose-title")).to_be_focused()
    assert page.evaluate("() => document.activeElement !== document.body")
    described = page.get_attribute("#compose-title", "aria-describedby")
    assert described and "Your move was made." in page.inner_text(f"#{described}")
    clean(page)
    assert problems.problems == [], "\n".join(problems.problems)
