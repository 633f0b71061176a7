"""Two players in two browser contexts play a short game to its end through the
real pages: sign in by email, moves typed and composed by tapping tiles, a
refused move, and a JUMBULAYA call off one's turn, sealed until the claim window closes."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from games.core import lexicons, windows
from games.core.projection import event_row
from games.engine.jumbulaya import PRESETS, GameStarted, start, state_to_json
from games.engine.tiles import full_set
from games.models import Event, Game, Seat
from tests.conftest import BOARD_LINES, BOARD_RACKS
from tests.e2e.conftest import PolicyWatch, axe_violations

LINES, RACKS = BOARD_LINES, BOARD_RACKS

pytestmark = pytest.mark.django_db(transaction=True)


def a_dealt_game(word_list: str, ann: User, bob: User) -> Game:
    """A game between Ann (seat 0, first) and Bob with a known deal: nine lines
    that are words, so nine shuffles claim the board and SPRINTS runs down it."""
    lex = lexicons.load(word_list)
    rules = PRESETS["official"]
    left = Counter(full_set())
    left.subtract(t for group in [*LINES, *RACKS] for t in group)
    started = GameStarted(
        rules=rules,
        lexicon=word_list,
        lexicon_sha256=lex.sha256,
        players=("Ann", "Bob"),
        first=0,
        lines=tuple(tuple(line) for line in LINES),
        racks=tuple(tuple(r) for r in RACKS),
        bag=tuple(sorted(left.elements())),
    )
    game = Game.objects.create(
        created_by=ann,
        seat_count=2,
        rules=rules.to_json(),
        lexicon_name=word_list,
        lexicon_sha256=lex.sha256,
        status=Game.Status.PLAYING,
    )
    Seat.objects.create(game=game, index=0, user=ann)
    Seat.objects.create(game=game, index=1, user=bob)
    state = start(started)
    event_row(game, started, state.seq, Event.Source.SYSTEM, None).save()
    Game.objects.filter(pk=game.pk).update(
        last_seq=state.seq, turn_seat=state.turn, state=state_to_json(state)
    )
    return game


def sign_in(browser: Any, base: str, email: str, csp: PolicyWatch) -> Any:
    """A browser context signed in through the real email flow, watched for
    violations of the Content-Security-Policy."""
    context = csp.watch(browser.new_context(viewport={"width": 390, "height": 844}))
    page = context.new_page()
    page.goto(f"{base}/account/sign-in/")
    page.fill("input[name=email]", email)
    page.click("main form button.primary")
    page.wait_for_url(re.compile(r"/account/sign-in/sent/"))
    link = re.search(r"https?://\S+/account/sign-in/\S+/", mail.outbox[-1].body)
    assert link is not None, mail.outbox[-1].body
    path = link.group(0).split("://", 1)[1].split("/", 1)[1]
    page.goto(f"{base}/{path}")
    assert page.url.endswith(f"/{path}"), "a GET of the link must not sign in"
    page.click("main form button.primary")
    page.wait_for_url(re.compile(r"/dashboard/"))
    return page


def post(page: Any, button: str) -> None:
    """Click a move form's button and wait for the server's answer. (Waiting for the
    "networkidle" load state instead returns at once: the page reached it before the
    click, so the next move could race this one.)"""
    with page.expect_response(lambda r: r.request.method == "POST" and "/move/" in r.url):
        page.click(button)


def send(page: Any, notation: str) -> None:
    page.fill("#notation", notation)
    post(page, "#move-form button.primary")


def test_two_players_play_a_whole_game(
    live_server: Any, browser: Any, board_words: str, csp: PolicyWatch
) -> None:
    ann = User.objects.create_user(username="ann", email="ann@example.com", display_name="Ann")
    bob = User.objects.create_user(username="bob", email="bob@example.com", display_name="Bob")
    game = a_dealt_game(board_words, ann, bob)
    base = live_server.url
    anns = sign_in(browser, base, "ann@example.com", csp)
    bobs = sign_in(browser, base, "bob@example.com", csp)
    url = f"{base}/games/{game.pk}/"
    anns.goto(url)
    bobs.goto(url)
    assert "It is your turn" in anns.inner_text(".status")
    assert axe_violations(anns) == ""
    assert anns.inner_text("[data-rack='0']").split() == RACKS[0]
    assert bobs.locator("[data-rack='0']").count() == 0  # Bob never sees Ann's rack

    def ann_moves(notation: str) -> None:
        anns.goto(url)
        send(anns, notation)

    def bob_moves(notation: str) -> None:
        bobs.goto(url)
        send(bobs, notation)

    ann_moves("1 STRANGE")
    # The line takes its owner's colour, the one of Ann's row in the players' list.
    line_colour = anns.eval_on_selector(
        ".line[data-line='1']", "e => getComputedStyle(e).borderLeftColor"
    )
    assert line_colour == anns.eval_on_selector(
        ".player.owner-0", "e => getComputedStyle(e).borderLeftColor"
    )
    assert line_colour != anns.eval_on_selector(
        ".line[data-line='2']", "e => getComputedStyle(e).borderLeftColor"
    )
    # A refused move: the engine's message shows next to the form, nothing changes.
    bob_moves("2 PEA")
    expect(bobs.locator("#move-error")).to_contain_text("PEA is not in the word list")
    assert axe_violations(bobs) == ""
    assert Event.objects.filter(game=game).count() == 2
    bob_moves("2 APE")
    ann_moves("3 ORB")
    # Bob composes DIM by tapping the tiles of line 4.
    bobs.goto(url)
    for tile in ("D", "I", "M"):
        bobs.click(f".line[data-line='4'] .tile[data-tile='{tile}']")
    assert bobs.input_value("#notation") == "4 D-I-M"
    post(bobs, "#move-form button.primary")
    for who, notation in [(ann_moves, "5 TEN"), (bob_moves, "6 OAT"), (ann_moves, "7 BUS"),
                          (bob_moves, "8 [ST]OW"), (ann_moves, "9 CUT")]:  # fmt: skip
        who(notation)
    assert Event.objects.filter(game=game).count() == 10

    # The ninth line claimed, a JUMBULAYA can be called: the claim window opens
    # (the default for games over days). It is Bob's turn: Ann's call, off her turn,
    # stays sealed until the window closes (one on his own turn is judged at once).
    anns.goto(url)
    assert "Claim window open until" in anns.inner_text(".status")
    anns.fill("#jumbulaya-word", "sprints")
    # The preview by the call box says what the call would score.
    expect(anns.locator("#call-preview")).to_contain_text("it scores 10 points (7 tiles)")
    assert axe_violations(anns) == ""
    post(anns, ".call-form button.primary")
    expect(anns.locator("#live")).to_contain_text("Your claim is sealed until")
    bobs.goto(url)
    assert "SPRINTS" not in bobs.content()  # sealed: Bob sees nothing of it
    assert Event.objects.filter(game=game).count() == 10
    Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now())
    assert windows.close_windows() == 1  # what beat does every minute
    bobs.goto(url)
    anns.goto(url)
    for page in (anns, bobs):
        status = page.inner_text(".status")
        assert "The game is over" in status and "Ann" in status
    # Ann, who called, is told what became of her call; Bob called nothing.
    assert "sealed JUMBULAYA calls: SPRINTS: verified" in anns.inner_text(".status")
    assert "sealed JUMBULAYA calls" not in bobs.inner_text(".status")
    log = bobs.inner_text("#log") if bobs.locator("#log").count() else bobs.content()
    assert "Ann called JUMBULAYA: SPRINTS" in log
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    assert game.state is not None and game.state["jumbulaya"]["points"] == 10
    # The pages, htmx and the compose script needed nothing the policy refuses.
    assert csp.violations == []
