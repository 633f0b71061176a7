"""Every page of every kind of game in the right words (issue 29, point 8): a
game of each kind (Tumble-Words with two players and with three) played a few
turns, then to its end, and every page about it (the game page and its live
part, its previews, a refused move, the turn link, the replay, the analysis,
the dashboard, the players' pages, the leaderboard) as a player, a spectator
and a player who left it (resigned), and the pages about no game: no count
with the wrong form of its noun, no other game's name, and the log's words,
never a move in the notation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest
from django.test import Client

from accounts.models import User
from games import kinds
from games.core import door, lobby
from games.core.tokens import invite_url
from games.models import Event, Game
from tests.leaks import pages
from tests.notify.every_email import play, to_move
from tests.wording import main_of, notation_shown, other_kinds_named, plural_slips, text_of

pytestmark = pytest.mark.django_db

GAMES = [(kind.name, max(2, kind.min_players)) for kind in kinds.all()] + [("tumble", 3)]


def log_of(html: str) -> str:
    """The words of a page's log (the moves in words), if it has one."""
    found = re.search(r'<section class="log".*?</section>', html, flags=re.S)
    return text_of(found.group(0)) if found else ""


def wrong_words(what: str, html: str, kind: str | None, moves: tuple[str, ...]) -> list[str]:
    words = text_of(main_of(html))
    found = [f"{what}: plural: {s!r}" for s in plural_slips(words)]
    if kind is not None:
        found += [f"{what}: names {s!r}" for s in other_kinds_named(words, kind)]
        found += [f"{what}: log shows {m!r}" for m in notation_shown(log_of(html), moves, kind)]
    return found


def every_page(game: Game, client: Client, seat: int | None) -> Iterator[tuple[str, str]]:
    yield from pages(game, client, seat)
    for path in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/analysis/"):
        response = client.get(path)
        if response.status_code == 200:
            yield path, response.content.decode()


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "players"), GAMES, ids=[f"{k}-{p}" for k, p in GAMES])
def test_every_page_of_every_kind_is_in_words(
    client: Client,
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    kind: str,
    players: int,
) -> None:
    shape = kinds.get(kind)
    rules = next(iter(shape.presets.values()))
    game = started_game(players=players, kind=kind, rules=rules, is_public=True)
    moves = tuple(play(game, 2 * players))
    spectator = make_user("zoe")
    # The last seat leaves the game (a resignation), the others play on.
    last = players - 1
    if players > 2:
        game.refresh_from_db()
        door.submit(game.pk, last, "resign", game.last_seq, Event.Source.WEB)
    problems = []
    viewers = [(0, game.seats.get(index=0).user), (None, spectator)]
    if players > 2:
        viewers.append((last, game.seats.get(index=last).user))
    for over in (False, True):
        if over:  # then to its end: the replay, the analysis, the final words
            while (movers := to_move(game)) and game.status != Game.Status.OVER:
                door.submit(game.pk, movers[0], "resign", game.last_seq, Event.Source.WEB)
                game.refresh_from_db()
        for seat, user in viewers:
            assert user is not None
            client.force_login(user)
            for what, html in every_page(game, client, seat):
                about = None if what in {"/dashboard/", "/games/open/"} else kind  # every game
                problems += wrong_words(f"{seat}/{over}/{what}", html, about, moves)
            for path in (f"/players/{user.public_name}/", f"/leaderboard/{kind}/"):
                response = client.get(path)
                if response.status_code == 200:
                    problems += wrong_words(path, response.content.decode(), None, ())
    # The invitation's page, to a game of the kind still open.
    host = make_user("hal")
    invited = lobby.create_game(
        host, kind=kind, seat_count=players, rules=rules, invite_emails=["newcomer@example.com"]
    )
    client.logout()
    page = client.get(urlsplit(invite_url(invited.pk, "newcomer@example.com")).path)
    assert page.status_code == 200
    problems += wrong_words("invitation", page.content.decode(), kind, ())
    assert problems == []


def test_the_pages_about_no_game_are_in_words(
    client: Client, make_user: Callable[[str], User]
) -> None:
    problems = []
    for path in ("/", "/how-to-play/", "/account/sign-in/"):
        problems += wrong_words(path, client.get(path).content.decode(), None, ())
    client.force_login(make_user("ann"))
    for path in ("/dashboard/", "/games/new/", "/games/open/", "/settings/email/", "/vacation/"):
        response = client.get(path)
        assert response.status_code == 200, path
        problems += wrong_words(path, response.content.decode(), None, ())
    assert problems == []
