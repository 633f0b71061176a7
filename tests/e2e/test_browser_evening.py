"""A new player's first evening, in a real browser at a phone's width (issue 29,
"Done means"): Eve signs up through the local mailbox and starts, with one click
from the home page and the dashboard, a game against a robot of each of the four
games; she plays each to its end, on the game page (every move typed and sent by
keyboard), through a turn link and by replying to a turn email; the robots'
replies show on her open page by themselves; she calls a JUMBULAYA and then
resigns (one ending on the page and in the email); she resigns a game whose seat
a robot takes over, and still opens it; and the "your turn" emails are counted:
none while she plays on the page, one once she has left.  Every page she meets
is checked by axe-core and must not scroll sideways at 390 px; nothing on any
page may fail (console errors, failed requests).

Robots answer "at once": in the site a Celery task plays each robot turn owed
(``games.tasks.play_robot_turn``, rung after the move's commit); the tests' broker
is in memory and nobody consumes it, so this test plays the owed turns itself,
from its own thread, with the task's function (``games.robots.turns.play``, through
``tests.notify.test_mail_when_away.robots_reply``) while the page stays open."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect

from devmail.models import Message
from games import kinds
from games.core import door, projection
from games.core.projection import game_lexicon
from games.engine.jumbulaya import GameStarted, start, state_to_json
from games.engine.tiles import full_set
from games.mail_out import outbox
from games.models import Event, Game, Seat
from tests.conftest import BOARD_LINES, BOARD_RACKS, CLAIM_THE_BOARD
from tests.e2e.conftest import PageWatch
from tests.e2e.test_browser_first_hour import mailbox_on
from tests.e2e.test_browser_keyboard import clean, tab_to
from tests.e2e.test_browser_live import SHOWN_WITHIN_MS, game_version
from tests.e2e.test_browser_play_robot import fits
from tests.e2e.test_browser_whole_game import left_the_site, link_in, newest_mail, sign_up
from tests.notify.test_mail_when_away import robots_reply

pytestmark = pytest.mark.django_db(transaction=True)

EVE = "eve.night@example.com"
ROBOT = "Robot Casual"
TAKER = "Robot Beginner"  # takes a leaver's seat
PHONE = {"width": 390, "height": 844}
#: Robot turns a game may take to end once only robots are left in it.
ROBOTS_TO_THE_END = 400


#: What the pages met got wrong (kept to the end, so one run names every page).
FOUND: list[str] = []


def met(page: Any) -> None:
    """A page Eve meets: axe-clean, and no wider than the phone."""
    page.wait_for_load_state()
    for check in (clean, fits):
        try:
            check(page)
        except AssertionError as e:
            FOUND.append(str(e))


def turn_emails() -> int:
    return Message.objects.filter(to=EVE, subject__icontains="your turn").count()


def eves_seat(game: Game) -> int:
    return Seat.objects.get(game=game, user__email=EVE).index


def to_move(game: Game) -> tuple[int, ...]:
    game.refresh_from_db()
    state = projection.current_state(game)
    return tuple(projection.kind_of(game).progress(state).to_move)


def over(game: Game) -> bool:
    game.refresh_from_db()
    return game.status == Game.Status.OVER


def one_click(page: Any, kind: str) -> Game:
    """Eve starts a game of ``kind`` against a robot with its button, by keyboard."""
    met(page)
    page.focus(f".play-now form:has(input[value='{kind}']) button")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.filter(kind=kind, seats__user__email=EVE).latest("pk")
    assert game.status == Game.Status.PLAYING
    expect(page.locator("main")).to_contain_text(ROBOT)
    return game


def send_by_keyboard(page: Any, move: str) -> None:
    """Focus the move field, type the move, Tab to the send button and press Enter
    (Enter in the field previews: the form's first button is Preview)."""
    page.wait_for_selector("#live[data-compose-ready]")
    page.fill("#notation", "")
    page.focus("#notation")
    page.keyboard.type(move)
    tab_to(page, "#move-form button.primary")
    with page.expect_response(lambda r: r.request.method == "POST" and "preview" not in r.url):
        page.keyboard.press("Enter")
    expect(page.locator("#live .notice")).to_have_text(re.compile(r"^Your move was made\."))
    met(page)


def answered_by_itself(page: Any, game: Game) -> None:
    """The robots play the turns owed them now, while Eve's page is open: the page
    shows the game as it is after them, with no click and no reload."""
    page.evaluate("() => { window.stayed = true; }")  # gone if the page reloads
    me = eves_seat(game)
    for _ in range(10):  # a game of three: one robot, then the other
        robots_reply(game)
        if over(game) or me in to_move(game):
            break
    assert over(game) or me in to_move(game), "the robots did not answer"
    expect(page.locator("#live")).to_have_attribute(
        "data-version", game_version(game), timeout=SHOWN_WITHIN_MS
    )
    assert page.evaluate("() => window.stayed") is True
    met(page)


def robots_to_the_end(game: Game) -> None:
    for _ in range(ROBOTS_TO_THE_END):
        if over(game):
            return
        robots_reply(game)
    assert over(game), "the robots did not finish the game"


def a_legal_move(game: Game) -> str:
    kind = projection.kind_of(game)
    state = projection.current_state(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    return str(kind.legal_moves(state, eves_seat(game), lexicon)[0])


def resign_on_the_page(page: Any, game: Game, asked: str = "") -> None:
    page.goto(page.url.split("?")[0])
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click("button[data-move='resign']")
    expect(page.locator("#confirm-title")).to_have_text(re.compile(r"^Resign from this game\?"))
    if asked:
        expect(page.locator("#confirm")).to_contain_text(asked)
    met(page)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Yes, resign").click()
    met(page)


def deal_the_board(game: Game, first: int) -> None:
    """The one-click JUMBULAYA game's deal, replaced before any move by
    ``tests.conftest``'s board (nine words; SPRINTS runs down it once the ninth
    move opens the claim window), ``first`` to move: a random deal reaches a
    callable board only by chance.  (``rigged_game`` does this to a game it makes.)"""
    old = Event.objects.get(game=game, seq=1)
    dealt = projection.current_state(game)
    rest = Counter(full_set())
    rest.subtract(t for group in [*BOARD_LINES, *BOARD_RACKS] for t in group)
    racks = BOARD_RACKS if first == 0 else BOARD_RACKS[::-1]
    started = GameStarted(
        rules=dealt.rules,
        lexicon=old.payload["lexicon"],
        lexicon_sha256=old.payload["lexicon_sha256"],
        players=dealt.players,
        first=first,
        lines=tuple(tuple(line) for line in BOARD_LINES),
        racks=tuple(tuple(r) for r in racks),
        bag=tuple(rest.elements()),
    )
    row = projection.event_row(game, started, 1, Event.Source.SYSTEM, None)
    Event.objects.filter(pk=old.pk).update(payload=row.payload, private=row.private)
    Game.objects.filter(pk=game.pk).update(state=state_to_json(start(started)), turn_seat=first)
    game.refresh_from_db()


def robot_plays(game: Game, move: str) -> None:
    """The robot's move of the board's script, as its turn would make it."""
    robot = 1 - eves_seat(game)
    game.refresh_from_db()
    door.submit(game.pk, robot, move, game.last_seq, Event.Source.ROBOT)


def test_a_new_players_first_evening(
    live_server: Any, browser: Any, settings: Any, problems: PageWatch
) -> None:
    base = live_server.url
    FOUND.clear()
    mailbox_on(settings, base)
    settings.JUMBULAYA_INBOUND_ESPS = []  # replies through the mailbox's own form
    context = problems.watch(browser.new_context(viewport=PHONE))
    page = sign_up(context, base, EVE, "Eve Night", "Eve")
    met(page)
    # Her mail, read in a browser not signed in (a turn link signs nobody in).
    reader = problems.watch(browser.new_context(viewport=PHONE)).new_page()

    # --- JUMBULAYA, from the home page: page, turn link, reply; a call, then a resignation.
    page.goto(f"{base}/")
    game = one_click(page, "jumbulaya")
    me = eves_seat(game)
    deal_the_board(game, first=me)
    page.reload()
    script = list(CLAIM_THE_BOARD)
    send_by_keyboard(page, script.pop(0))  # 1 STRANGE
    version = page.get_attribute("#live", "data-version")
    robot_plays(game, script.pop(0))
    expect(page.locator("#live")).not_to_have_attribute("data-version", version or "")
    expect(page.locator("#live")).to_have_attribute(
        "data-version", game_version(game), timeout=SHOWN_WITHIN_MS
    )
    outbox.sweep()
    assert turn_emails() == 0  # her page is open: it told her
    left_the_site(EVE)
    outbox.sweep()
    assert turn_emails() == 1  # away: one email
    # Through the turn link in it.
    mail = newest_mail(reader, base, EVE, f"Game {game.pk}: your turn")
    met(reader)
    reader.goto(link_in(mail, "/t/"))
    met(reader)
    send_by_keyboard(reader, script.pop(0))  # 3 ORB
    assert Event.objects.filter(game=game).latest("seq").source == Event.Source.LINK
    robot_plays(game, script.pop(0))
    # By replying to the next turn email.
    left_the_site(EVE)
    outbox.sweep()
    assert turn_emails() == 2
    newest_mail(reader, base, EVE, f"Game {game.pk}: your turn")
    reader.fill("textarea.mail-reply", script.pop(0))  # 5 TEN
    reader.click("form:has(textarea.mail-reply) button.primary")
    expect(reader.locator("#mail-news")).to_contain_text("the move was made")
    met(reader)
    assert Event.objects.filter(game=game).latest("seq").source == Event.Source.EMAIL
    robot_plays(game, script.pop(0))
    # Back on the page: the board is claimed, and the window opens with the robot to move.
    page.goto(f"{base}/games/{game.pk}/")
    met(page)
    while script:
        send_by_keyboard(page, script.pop(0))
        if script:
            robot_plays(game, script.pop(0))
            page.reload()
    game.refresh_from_db()
    assert game.window_closes_at is not None and game.turn_seat != me
    # Off her turn, Eve's call is sealed; then she resigns, and that withdraws it.
    page.focus("#jumbulaya-word")
    page.keyboard.type("SPRINTS")
    tab_to(page, ".call-form button.primary")
    with page.expect_response(lambda r: r.request.method == "POST" and "/move/" in r.url):
        page.keyboard.press("Enter")
    expect(page.locator(".sealed-claims")).to_contain_text("SPRINTS")
    met(page)
    resign_on_the_page(page, game, asked="SPRINTS")
    assert over(game)
    types = list(Event.objects.filter(game=game).order_by("seq").values_list("type", flat=True))
    assert "resigned" in types and "jumbulaya_verified" not in types
    page.reload()
    main = page.locator("main")
    expect(main).to_contain_text(f"Winner: {ROBOT}")
    expect(main).not_to_contain_text("Winner: Eve")
    expect(page.locator(".log-list")).to_contain_text("Eve resigned")
    met(page)
    left_the_site(EVE)
    outbox.sweep()
    ending = newest_mail(reader, base, EVE, f"Game {game.pk}")
    met(reader)
    assert "resigned" in ending and ROBOT in ending, ending
    assert "Eve won" not in ending and "You won" not in ending, ending

    # --- The crossword game, from the home page: three moves on the page, no email.
    page.goto(f"{base}/")
    game = one_click(page, "crossword")
    answered_by_itself(page, game)  # the robot may open
    before = turn_emails()
    for _ in range(3):
        if over(game):
            break
        send_by_keyboard(page, a_legal_move(game))
        answered_by_itself(page, game)
        outbox.sweep()
    assert turn_emails() == before  # each reply shown on her page, none mailed
    if not over(game):
        resign_on_the_page(page, game)
    assert over(game)

    # --- Blockers, from the dashboard: Eve and two robots.
    page.goto(f"{base}/dashboard/")
    game = one_click(page, "blockers")
    answered_by_itself(page, game)
    send_by_keyboard(page, a_legal_move(game))
    answered_by_itself(page, game)
    resign_on_the_page(page, game)  # her seat drops out; the robots play on
    robots_to_the_end(game)
    page.reload()
    met(page)

    # --- Tumble-Words, from the dashboard: to its natural end (the robot reaches 100).
    page.goto(f"{base}/dashboard/")
    game = one_click(page, "tumble")
    for _ in range(20):
        if over(game):
            break
        send_by_keyboard(page, ".")  # the empty crossword, always allowed
        answered_by_itself(page, game)
    assert over(game) and game.end_reason != "resigned", game.end_reason
    expect(page.locator("main")).to_contain_text(f"Winner: {ROBOT}")

    # --- A takeover: a game made on the new-game page, a robot to take a leaver's seat.
    page.goto(f"{base}/games/new/")
    met(page)
    page.check("#create-game input[name=kind][value=crossword]")
    page.check("#create-game input[name=robots][value=casual]")
    page.select_option("select[name=takeover_level]", "beginner")
    page.click("#create-game button.primary")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.filter(seats__user__email=EVE).latest("pk")
    assert game.takeover_level == "beginner" and game.kind == "crossword"
    answered_by_itself(page, game)
    send_by_keyboard(page, a_legal_move(game))
    answered_by_itself(page, game)
    resign_on_the_page(page, game, asked=f"{TAKER} will take your seat")
    robots_to_the_end(game)
    page.goto(f"{base}/games/{game.pk}/")
    left = f"You resigned from this game, and {TAKER} took your seat"
    expect(page.locator("main")).to_contain_text(left)
    expect(page.locator(".log-list")).to_contain_text(f"Eve resigned; {TAKER} took the seat.")
    assert page.locator("#move-form").count() == 0  # hers to read, not to play
    met(page)
    page.goto(f"{base}/dashboard/")
    expect(page.locator("#finished")).to_contain_text(f"You resigned, and {TAKER} took your seat")
    met(page)

    # The pages met inside the helpers: signing in, and the mailbox's list.
    for path in ("/account/sign-in/", f"/dev/mailbox/?to={EVE}"):
        reader.goto(f"{base}{path}")
        met(reader)

    # Every game she started, one of each kind and more, is over.
    started = Game.objects.filter(created_by__email=EVE)
    assert {g.kind for g in started} == {k.name for k in kinds.all()}
    assert all(g.status == Game.Status.OVER for g in started)
    assert problems.problems == [], "\n".join(problems.problems)
    assert FOUND == [], "\n".join(FOUND)
