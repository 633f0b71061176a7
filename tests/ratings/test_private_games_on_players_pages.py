"""A private game shows on players' pages, leaderboards and ratings histories
only to those who may see the game (issue 27, finding 4): its players.
Anyone else signed in sees no game id, opponent, score, result or best play
of it; a rating (a number) still counts it."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core.door import submit
from games.models import Game
from tests.conftest import CANARY_LINES, CANARY_RACKS


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def finished_game(rigged_game: Callable[..., Game], **options: object) -> Game:
    """Bob builds CATS on line 1, then Ann resigns: Bob wins a rated game of two."""
    game = rigged_game(CANARY_LINES, CANARY_RACKS, players=2, rated=True, **options)
    for seat, move in [(0, "pass"), (1, "1 CATS"), (0, "resign")]:
        game.refresh_from_db()
        submit(game.pk, seat, move, game.last_seq, "web")
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    return game


def traces(game: Game) -> list[str]:
    """What would tell of ``game`` on a page: its link, its id in the rating
    history's table, its best play."""
    return [f"/games/{game.pk}/", f"game {game.pk},", "CATS"]


def folded(html: str) -> str:
    return " ".join(html.split()).replace("> <", "><")


def test_a_private_game_shows_only_to_its_players(
    rigged_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = finished_game(rigged_game)
    assert not game.is_public
    ann, bob = (s.user for s in game.seats.order_by("index"))
    assert ann is not None and bob is not None
    cy = make_user("cy")
    pages = [f"/players/{bob.pk}/", f"/players/{ann.pk}/", "/leaderboard/jumbulaya/"]
    for player in (ann, bob):
        html = signed_in(player).get(pages[0]).content.decode()
        assert all(trace in html for trace in traces(game)), player
        assert "Won</dt><dd>1</dd>" in folded(html)
    for url in pages:
        page = signed_in(cy).get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        assert not [trace for trace in traces(game) if trace in html], url
    bobs = folded(signed_in(cy).get(pages[0]).content.decode())
    # No opponent, result or score: the figures count only the games Cy may see.
    assert "Against" not in bobs and ">Ann<" not in bobs
    assert "Games finished</dt><dd>0</dd>" in bobs and "Won</dt><dd>0</dd>" in bobs
    assert "Average score</dt><dd>none yet</dd>" in bobs
    # The rating itself still counts the game: a number, no game in it.
    assert "1 rated game)" in bobs
    # A visitor who is not signed in is sent to sign in, and sees nothing of it.
    for url in pages:
        page = Client().get(url)
        assert page.status_code == 302 and page["Location"].startswith(
            reverse("accounts:sign_in")
        ), url


def test_a_public_game_shows_to_anyone_signed_in(
    rigged_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = finished_game(rigged_game, is_public=True)
    bob = game.seats.get(index=1).user
    assert bob is not None
    html = signed_in(make_user("cy")).get(f"/players/{bob.pk}/").content.decode()
    assert all(trace in html for trace in traces(game))
