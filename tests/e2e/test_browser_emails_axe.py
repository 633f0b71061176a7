"""Every HTML email of every kind of game passes axe-core (issue 29, point 13):
the reply marker and the footer's links in colours that can be read (they
were #999 and #777 on #f6f4ef, 2.59:1 and 4.07:1), a title, the language, a
main landmark (tables for layout are fine). Each email is rendered as the
outbox sends it (tests/notify/every_email.py) and loaded in the browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from games import kinds
from games.models import Game
from tests.e2e.conftest import axe_violations
from tests.notify.every_email import claim_window_emails, every_email

pytestmark = pytest.mark.django_db(transaction=True)

#: Each kind with its fewest players, and Tumble-Words with three besides.
GAMES = [(kind.name, max(2, kind.min_players)) for kind in kinds.all()] + [("tumble", 3)]


@pytest.mark.parametrize(("kind", "players"), GAMES, ids=[f"{k}-{p}" for k, p in GAMES])
def test_every_html_email_of_every_kind_passes_axe(
    browser: Any,
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    kind: str,
    players: int,
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    found = {}
    for email in every_email(kind, players, started_game, make_user):
        page.set_content(email.html)
        if (problems := axe_violations(page)) != "":
            found[email.name] = problems
    page.close()
    assert found == {}


def test_the_claim_window_emails_pass_axe(browser: Any, board_game: Callable[..., Game]) -> None:
    page = browser.new_page()
    found = {}
    for email in claim_window_emails(board_game):
        page.set_content(email.html)
        if (problems := axe_violations(page)) != "":
            found[email.name] = problems
    page.close()
    assert found == {}
