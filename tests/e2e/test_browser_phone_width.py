"""At a phone's width (390 CSS pixels) no page is wider than the screen, and
every control is a target of at least 24 × 24 pixels (WCAG 2.2's target size,
2.5.8, without its spacing exception: kept simple, every button, field, box,
board square and tile is that big itself; a link in running text is exempt).

Signed in, every page a new player meets, with content in it: the dashboard,
the new-game and open-games pages, the profile, the player's own page and each
kind's leaderboard; for each kind a game page while it is played (moves made,
its hints open) and, once over, the game page, its replay and its analysis;
the local mailbox and a message in it; the how-to-play pages where the site
has them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import NoReverseMatch, reverse

from accounts.models import User
from accounts.tokens import sign_in_url
from devmail.models import Message
from games import kinds
from games.coach import analysis, hints
from games.core.door import submit
from games.core.lobby import create_game, join_game
from games.core.projection import current_state, game_lexicon
from games.mail_out import outbox
from games.models import Event, Game
from tests.analysis.conftest import ENDING
from tests.conftest import CLAIM_THE_BOARD
from tests.e2e.conftest import PageWatch

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = 390
TARGET = 24

#: What is too wide or too small on the page as it is now: the page's own width
#: when wider than the screen (and the elements that reach past it), and each
#: control under 24 px in either dimension (those not shown, of no size, skipped).
MEASURE = """([width, target]) => {
  const found = [];
  const page = document.documentElement.scrollWidth;
  if (page > width) {
    found.push(`the page is ${page} px wide`);
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.right > width + 0.5 && box.width > 0 && el.closest('[data-scrolls]') === null) {
        found.push(`  reaching ${Math.round(box.right)} px: ${el.outerHTML.slice(0, 100)}`);
        if (found.length > 6) break;
      }
    }
  }
  const controls = 'button, a.button, input:not([type=hidden]), select, textarea, summary, ' +
    '[role=button], [tabindex]:not([tabindex="-1"]), td[data-square], .tile.pickable';
  const small = new Map();  // one line for each kind of target (its tag and class)
  for (const el of document.querySelectorAll(controls)) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width < target || box.height < target) {
      const kind = `${el.tagName}.${el.classList[0] || ''}[${el.type || ''}]`;
      const seen = small.get(kind);
      if (seen) { seen.count += 1; continue; }
      const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
      small.set(kind, {count: 1, said: `${size} px: ${el.outerHTML.slice(0, 100)}`});
    }
  }
  for (const {count, said} of small.values()) found.push(`${count} target(s) like ${said}`);
  return found;
}"""


def players(make_user: Callable[[str], User], kind: str, *names: str, **options: Any) -> Game:
    """A started game of ``kind`` between the users called ``names``, Ann first."""
    users = [User.objects.filter(username=n).first() or make_user(n) for n in names]
    game_kind = kinds.get(kind)
    game = create_game(
        users[0],
        kind=kind,
        seat_count=len(users),
        rules=next(iter(game_kind.presets.values())),
        invite_emails=[u.email for u in users[1:]],
        **options,
    )
    for user in users[1:]:
        join_game(game.pk, user)
    game.refresh_from_db()
    return game


def move(game: Game, notation: str | None = None) -> None:
    """The seat to move makes ``notation``, or the first move its kind lists."""
    game.refresh_from_db()
    kind = kinds.get(game.kind)
    state = current_state(game)
    seat = kind.progress(state).to_move[0]
    if notation is None:
        lexicon = game_lexicon(game) if kind.uses_word_list else None
        notation = kind.legal_moves(state, seat, lexicon)[0]
    submit(game.pk, seat, notation, game.last_seq, Event.Source.WEB)


def resign_all_but_one(game: Game) -> None:
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            return
        move(game, "resign")


def test_no_page_is_wider_than_a_phone_and_every_target_is_24_px(
    live_server: Any,
    browser: Any,
    board_game: Callable[..., Game],
    make_user: Callable[[str], User],
    settings: Any,
    problems: PageWatch,
) -> None:
    base = live_server.url
    settings.JUMBULAYA_MAILBOX = True
    settings.JUMBULAYA_SITE_URL = base
    settings.MAILERS = {"default": {"BACKEND": "devmail.backend.EmailBackend", "OPTIONS": {}}}
    # Ann and Bob's JUMBULAYA: the board claimed halfway, then played out to a call.
    jumbulaya = board_game(claim_window=False, hints=True)
    moves = [(i % 2, m) for i, m in enumerate(CLAIM_THE_BOARD)] + ENDING
    for _, notation in moves[:4]:
        move(jumbulaya, notation)
    crossword = players(make_user, "crossword", "ann", "bob", hints=True)
    blockers = players(make_user, "blockers", "ann", "bob", "cy", hints=True)
    tumble = players(make_user, "tumble", "ann", "bob", hints=True)
    for game, count in ((crossword, 4), (blockers, 6), (tumble, 4)):
        for _ in range(count):
            move(game)
    games = [jumbulaya, crossword, blockers, tumble]
    for game in games:
        game.refresh_from_db()
        for seat in kinds.get(game.kind).progress(current_state(game)).to_move:
            hints.prepare(game.pk, seat, game.last_seq)

    page = problems.watch(browser.new_context(viewport={"width": WIDTH, "height": 844})).new_page()
    ann = User.objects.get(username="ann")
    page.goto(sign_in_url(ann.email, ann.last_login))
    page.click("main form button.primary")
    page.wait_for_url(f"{base}/dashboard/")
    found: list[str] = []

    def visit(path: str, open_hints: bool = False) -> None:
        assert page.goto(base + path).ok, path
        page.wait_for_load_state("networkidle")
        if open_hints and page.locator("#hints summary").count():
            page.click("#hints summary")
        wrong = page.evaluate(MEASURE, [WIDTH, TARGET])
        found.extend(f"{path}: {said}" for said in wrong)

    for game in games:  # while they are played, as each player to move sees them
        visit(f"/games/{game.pk}/", open_hints=True)

    for _, notation in moves[4:]:
        move(jumbulaya, notation)
    for game in games[1:]:
        resign_all_but_one(game)
    for game in games:
        assert analysis.analyse_game(game.pk)
    outbox.sweep()  # the games' emails, into the local mailbox
    mail = Message.objects.filter(to__contains=ann.email).first()  # her newest
    assert mail is not None

    paths = ["/", "/dashboard/", "/games/new/", "/games/open/", "/account/profile/"]
    paths += ["/players/Ann/", "/dev/mailbox/", f"/dev/mailbox/{mail.pk}/"]
    paths += [f"/leaderboard/{kind.name}/" for kind in kinds.all()]
    for game in games:
        paths += [f"/games/{game.pk}/", f"/games/{game.pk}/replay/?step=1"]
        paths += [f"/games/{game.pk}/replay/?step={game.last_seq - 1}"]
        paths += [f"/games/{game.pk}/analysis/"]
    try:
        paths += [reverse("games:how_to_play_index")]
        paths += [reverse("games:how_to_play", args=[kind.name]) for kind in kinds.all()]
    except NoReverseMatch:
        pass  # no how-to-play pages yet
    for path in paths:
        visit(path)

    assert found == [], "\n".join(found)
    assert problems.problems == [], "\n".join(problems.problems)
