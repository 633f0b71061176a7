"""Every kind of page in a real browser: none logs an error to the console (a 404
for an icon or a script, a script error, a refused policy) or has a request fail,
and axe-core finds nothing wrong with any of them.  Pages that answer with an
error status on purpose (a link that does not work, a game that is not there)
are visited too: they must show their message cleanly, with nothing else wrong."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from accounts.tokens import sign_in_url
from games.core.door import submit
from games.core.lobby import create_game
from games.core.tokens import invite_token
from games.engine.jumbulaya import PRESETS
from games.mail_out import outbox
from games.mail_out.turnlinks import turn_token, unsubscribe_token
from games.models import Event, Game, RecordUpload
from tests.e2e.conftest import PageWatch, axe_violations

pytestmark = pytest.mark.django_db(transaction=True)


def finish(game: Game) -> None:
    """A pass each, then the player to move resigns: a 2-player game is over."""
    for notation in ("pass", "pass", "resign"):
        game.refresh_from_db()
        assert game.turn_seat is not None
        submit(game.pk, game.turn_seat, notation, game.last_seq, Event.Source.WEB)


def visit(page: Any, url: str, watch: PageWatch, status: int = 200) -> list[str]:
    """Open ``url`` (answered with ``status``) and wait for its scripts; what axe
    finds wrong with it, if anything."""
    watch.expect(*({status} - {200}))
    response = page.goto(url)
    assert response is not None and response.status == status, url
    page.wait_for_load_state("networkidle")
    watch.expect()
    found = axe_violations(page)
    return [found] if found else []


def test_every_kind_of_page_is_clean(
    live_server: Any,
    browser: Any,
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    settings: Any,
    problems: PageWatch,
) -> None:
    base = live_server.url
    settings.JUMBULAYA_MAILBOX = True
    settings.JUMBULAYA_SITE_URL = base
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    playing = started_game()
    ann = playing.seats.get(index=0).user
    bob = playing.seats.get(index=1).user
    assert ann is not None and bob is not None
    if playing.turn_seat == 1:  # Ann moves next, so she has a pass to confirm
        submit(playing.pk, 1, "pass", 1, Event.Source.WEB)
        playing.refresh_from_db()
    over = create_game(ann, seat_count=2, rules=PRESETS["official"], invite_emails=[bob.email])
    from games.core.lobby import join_game

    join_game(over.pk, bob)
    finish(over)
    waiting = create_game(
        ann, seat_count=3, rules=PRESETS["official"], invite_emails=["cy@example.com"], is_open=True
    )
    outbox.sweep()  # the emails, into the local mailbox
    # An uploaded record, so that the upload page lists one with its Delete button.
    RecordUpload.objects.create(
        owner=ann, name="kept.json", record={}, players=["Zed", "Yolanda"], turn_count=3, size=900
    )
    found: list[str] = []

    # Signed out, as someone arriving from an email.
    visitor = problems.watch(browser.new_context()).new_page()
    anns_turn = f"/t/{turn_token(ann.pk, playing.pk, playing.last_seq)}/"
    bobs_wait = f"/t/{turn_token(bob.pk, playing.pk, 1)}/"
    signed_out = [
        ("/", 200),
        ("/account/sign-in/", 200),
        (sign_in_url(ann.email, ann.last_login).removeprefix(base), 200),
        (anns_turn, 200),
        (bobs_wait, 200),
        ("/t/not-a-link/", 400),
        (f"/invite/{invite_token(waiting.pk, 'cy@example.com')}/", 200),
        ("/invite/not-an-invitation/", 400),
        (f"/unsubscribe/{unsubscribe_token(ann.pk, None)}/", 200),
        ("/favicon.ico", 200),
    ]
    for path, status in signed_out:
        if path == "/favicon.ico":
            assert visitor.goto(base + path).ok  # the redirect to the icon itself
            continue
        found += visit(visitor, base + path, problems, status)
    visitor.goto(base + "/account/sign-in/")
    visitor.fill("input[name=email]", ann.email)
    visitor.click("main form button.primary")
    visitor.wait_for_url(re.compile(r"/account/sign-in/sent/"))
    found += visit(visitor, visitor.url, problems)

    # Signed in, every page of the site.
    page = problems.watch(browser.new_context()).new_page()
    page.goto(sign_in_url(ann.email, ann.last_login))
    page.click("main form button.primary")
    page.wait_for_url(re.compile(r"/dashboard/"))
    signed_in = [
        ("/dashboard/", 200),
        ("/games/new/", 200),
        ("/games/open/", 200),
        (f"/games/{playing.pk}/", 200),
        (f"/games/{waiting.pk}/", 200),
        (f"/games/{over.pk}/", 200),
        (f"/games/{over.pk}/replay/?step=1", 200),
        ("/records/upload/", 200),
        ("/account/profile/", 200),
        ("/settings/email/", 200),
        ("/vacation/", 200),
        ("/dev/mailbox/", 200),
        ("/games/987654/", 404),
    ]
    for path, status in signed_in:
        found += visit(page, base + path, problems, status)
    # An email, framed in the mailbox (whatever its subject says).
    page.goto(f"{base}/dev/mailbox/?to={ann.email}")
    page.locator("main table a").first.click()  # the newest email
    page.wait_for_url(re.compile(r"/dev/mailbox/\d+/$"))
    found += visit(page, page.url, problems)
    # The question asked before a pass, on the game page.
    page.goto(f"{base}/games/{playing.pk}/")
    with page.expect_response(lambda r: "/move/" in r.url):
        page.click("button[data-move=pass]")
    page.wait_for_selector("#confirm")
    found += [v for v in [axe_violations(page)] if v]

    assert found == [], "\n".join(found)
    assert problems.problems == [], "\n".join(problems.problems)
