"""A whole game played as two new users would, in a real browser, on the embedded
default (the local mailbox stands in for their email): Ann signs up and names
herself, starts a game and invites Bob by address; Bob follows the invitation
email to his seat; they move on the game page, through a turn link and by
replying to a turn email, a pass is confirmed, the game ends with a confirmed
resignation, and Ann replays it with the keyboard.  Every page is checked by
axe-core, and nothing on any page may fail (console errors, failed requests)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.core import projection
from games.engine.jumbulaya import legal_moves
from games.mail_out import outbox
from games.models import Event, Game, Notification, Seat
from tests.e2e.conftest import PageWatch
from tests.e2e.test_browser_first_hour import mailbox_on
from tests.e2e.test_browser_keyboard import clean

pytestmark = pytest.mark.django_db(transaction=True)

ANN = "ann.lee@example.com"
BOB = "bob.ray@example.com"


def newest_mail(page: Any, base: str, to: str, subject: str) -> str:
    """Open the newest email to ``to`` whose subject holds ``subject`` in the local
    mailbox, as its reader would, and give its text."""
    page.goto(f"{base}/dev/mailbox/?to={to}")
    page.locator("main table").get_by_role(
        "link", name=re.compile(re.escape(subject), re.I)
    ).first.click()
    page.wait_for_url(re.compile(r"/dev/mailbox/\d+/$"))
    return str(page.inner_text(".mail-text"))


def left_the_site(email: str, page: Any = None) -> None:
    """The player closed the page five minutes ago: their presence ran out
    (games/live/presence.py), so the turn emails deferred while they played are due.
    ``page``, their open game page, is closed first: left open, its live stream
    would note them as here again when the next move rings, and defer the email
    once more."""
    if page is not None:
        page.goto("about:blank")
    User.objects.filter(email=email).update(present_until=None)
    Notification.objects.filter(user__email=email, sent_at__isnull=True).update(retry_at=None)


def link_in(text: str, path: str) -> str:
    found = re.search(rf"https?://\S+{path}\S*", text)
    assert found is not None, text
    return found.group(0)


def sign_up(context: Any, base: str, email: str, offered: str, name: str) -> Any:
    """A new account through the sign-in email; the name offered from the address
    (``offered``) is replaced by ``name``."""
    page = context.new_page()
    page.goto(f"{base}/account/sign-in/")
    page.fill("input[name=email]", email)
    page.click("main form button.primary")
    page.wait_for_url(re.compile(r"/account/sign-in/sent/"))
    page.goto(link_in(newest_mail(page, base, email, "sign-in link"), "/account/sign-in/"))
    page.click("main form button.primary")
    page.wait_for_url(re.compile(r"/account/profile/"))
    clean(page)
    field = page.get_by_label("Display name")
    expect(field).to_have_value(offered)
    field.fill(name)
    page.click("button[name=action][value=profile]")
    page.wait_for_load_state()
    assert User.objects.get(email=email).display_name == name
    return page


def a_legal_word(game: Game) -> str:
    """A word move the player to move could make now (any deal has plenty)."""
    game.refresh_from_db()
    state = projection.current_state(game)
    moves = legal_moves(state, state.turn, projection.game_lexicon(game))
    assert moves, "no word move in this deal"
    return moves[0].notation()


def test_a_whole_game_as_new_users(
    live_server: Any, browser: Any, settings: Any, problems: PageWatch
) -> None:
    base = live_server.url
    mailbox_on(settings, base)
    settings.JUMBULAYA_INBOUND_ESPS = []  # replies through the mailbox's own form

    # Ann signs up, names herself and starts a game for two, inviting Bob.
    anns_context = problems.watch(browser.new_context())
    anns = sign_up(anns_context, base, ANN, "Ann Lee", "Ann")
    anns.goto(f"{base}/games/new/")
    clean(anns)
    anns.fill("textarea[name=invite_emails]", BOB)
    anns.click("#create-game button.primary")
    anns.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(created_by__email=ANN)
    outbox.sweep()  # what the worker does: the invitation goes out

    # Bob follows the invitation to his seat: one page, his name asked there.
    bobs_context = problems.watch(browser.new_context())
    bobs = bobs_context.new_page()
    invitation = newest_mail(bobs, base, BOB, "invites you")
    assert "Players already seated: Ann." in invitation
    bobs.goto(link_in(invitation, "/invite/"))
    clean(bobs)
    bobs.get_by_label("Display name").fill("Bob")
    bobs.get_by_label("Display name").press("Enter")
    bobs.wait_for_url(f"{base}/games/{game.pk}/")
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    users = {s.index: s.user for s in Seat.objects.filter(game=game).select_related("user")}
    pages = {ANN: anns, BOB: bobs}

    def mover() -> tuple[str, Any]:
        game.refresh_from_db()
        assert game.turn_seat is not None
        user = users[game.turn_seat]
        assert user is not None
        return user.email, pages[user.email]

    def events() -> int:
        return Event.objects.filter(game=game).count()

    # 1. On the game page.
    email, page = mover()
    word = a_legal_word(game)
    page.goto(f"{base}/games/{game.pk}/")
    clean(page)
    page.fill("#notation", word)
    with page.expect_response(lambda r: r.request.method == "POST" and "/move/" in r.url):
        page.click("#move-form button.primary")
    expect(page.locator("#live")).to_contain_text("Your move was made.")
    assert events() == 2
    line, played = word.split()[0], re.sub(r"[^A-Z]", "", word.split()[1])
    name = "Ann" if email == ANN else "Bob"
    # The log speaks words (the notation stays in the record).
    expect(page.locator(".log-list li").first).to_contain_text(
        f"{name} played {played} on line {line}"
    )

    # 2. Through the turn link in the email, in a browser that is not signed in.
    email, _ = mover()
    outbox.sweep()
    turns = Notification.objects.filter(user__email=email, kind=Notification.Kind.YOUR_TURN)
    assert turns.count() == 1 and turns.get().sent_at is None  # they are on the site
    left_the_site(email, pages[email])  # told on the open page; mailed once they have left
    outbox.sweep()
    reader = problems.watch(browser.new_context()).new_page()
    turn_mail = newest_mail(reader, base, email, f"Game {game.pk}: your turn — {name} played")
    word = a_legal_word(game)
    reader.goto(link_in(turn_mail, "/t/"))
    reader.wait_for_selector("#live[data-compose-ready]")
    clean(reader)
    reader.fill("#notation", word)
    with reader.expect_response(lambda r: r.request.method == "POST"):
        reader.click("#move-form button.primary")
    expect(reader.locator("#live")).to_contain_text("Your move was made.")
    expect(reader.locator("#live")).not_to_contain_text("refused")
    assert events() == 3
    assert Event.objects.get(game=game, seq=3).source == Event.Source.LINK

    # 3. By replying to the turn email from the mailbox.
    email, _ = mover()
    left_the_site(email, pages[email])
    outbox.sweep()
    word = a_legal_word(game)
    newest_mail(reader, base, email, "your turn")
    reader.fill("textarea.mail-reply", f"{word}\n\nYour move, friend.")
    reader.click("form:has(textarea.mail-reply) button.primary")
    expect(reader.locator("#mail-news")).to_contain_text("the move was made")
    assert events() == 4
    assert Event.objects.get(game=game, seq=4).source == Event.Source.EMAIL

    # 4. A pass on the game page is asked about once, then made.
    email, page = mover()
    page.goto(f"{base}/games/{game.pk}/")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click("button[data-move='pass']")
    expect(page.locator("#confirm-title")).to_have_text("Pass your turn?")
    clean(page)
    assert events() == 4  # asked, not done
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Yes, pass").click()
    expect(page.locator("#live")).to_contain_text("Your move was made.")
    assert Event.objects.get(game=game, seq=5).type == "passed"

    # 5. The other player resigns (asked once): the game is over.
    email, page = mover()
    page.goto(f"{base}/games/{game.pk}/")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click("button[data-move='resign']")
    expect(page.locator("#confirm-title")).to_have_text("Resign from this game?")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Yes, resign").click()
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    for who in (ANN, BOB):  # their pages said so; the emails go once they have left
        left_the_site(who, pages[who])
    outbox.sweep()
    for who in (ANN, BOB):
        assert "over" in newest_mail(reader, base, who, "over").lower()

    # 6. Ann replays the game with the keyboard.
    anns.goto(f"{base}/games/{game.pk}/replay/")
    where = anns.locator("#replay-where")
    expect(where).to_have_text("Step 0 of 5")
    anns.keyboard.press("ArrowRight")
    expect(where).to_have_text("Step 1 of 5")
    expect(anns.locator(".replay-board li.changed")).to_have_count(1)
    anns.keyboard.press("End")
    expect(where).to_have_text("Step 5 of 5")
    anns.keyboard.press("ArrowLeft")
    expect(where).to_have_text("Step 4 of 5")
    anns.keyboard.press("Home")
    expect(where).to_have_text("Step 0 of 5")
    clean(anns)
    assert problems.problems == [], "\n".join(problems.problems)
