"""Players' pages and leaderboards: ratings and their history drawn on the
server, games played and won, average score, best words, recent games; and
nothing of a live game's racks."""

from __future__ import annotations

from collections.abc import Callable
from xml.etree import ElementTree

import pytest
from django.test import Client

from accounts.models import User
from games.core.door import submit
from games.core.lobby import create_game, join_game
from games.engine.jumbulaya import PRESETS
from games.models import Game
from tests import leaks
from tests.conftest import CANARY_LINES, CANARY_RACKS

SVG = "{http://www.w3.org/2000/svg}"


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def svgs(html: str) -> list[ElementTree.Element]:
    out = []
    while "<svg" in html:
        start = html.index("<svg")
        end = html.index("</svg>", start) + len("</svg>")
        out.append(ElementTree.fromstring(html[start:end]))
        html = html[end:]
    return out


def finished_rated_game(rigged_game: Callable[..., Game]) -> Game:
    """Bob builds CATS on line 1, then Ann resigns: Bob wins a rated game."""
    game = rigged_game(CANARY_LINES, CANARY_RACKS, players=3, rated=True)
    for seat, move in [(0, "pass"), (1, "1 CATS"), (2, "resign"), (0, "resign")]:
        game.refresh_from_db()
        submit(game.pk, seat, move, game.last_seq, "web")
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    return game


def test_a_players_page_shows_rating_history_results_and_best_words(
    rigged_game: Callable[..., Game],
) -> None:
    game = finished_rated_game(rigged_game)
    bob = game.seats.get(index=1).user
    ann = game.seats.get(index=0).user
    assert bob is not None and ann is not None
    for who in (str(bob.pk), "bob", "BOB"):
        page = signed_in(ann).get(f"/players/{who}/")
        assert page.status_code == 200
    html = page.content.decode()
    assert "<h1>Bob" in html
    assert "Won</dt><dd>1</dd>" in html.replace("\n", "").replace("  ", "")
    assert "CATS</span>: " in html  # the best word, from the log
    assert f"/games/{game.pk}/" in html
    [chart] = svgs(html)
    assert chart.get("role") == "img"
    assert chart.find(f"{SVG}title") is not None and chart.find(f"{SVG}desc") is not None
    assert len(chart.findall(f".//{SVG}polyline")) == 1
    assert "Rating after" in html  # the same numbers as a table


def test_an_unknown_player_is_a_404_and_a_shared_name_asks_which(
    make_user: Callable[[str], User],
) -> None:
    ann = make_user("ann")
    other = User.objects.create_user(username="ann2", email="a2@example.com", display_name="Ann")
    client = signed_in(ann)
    assert client.get("/players/nobody/").status_code == 404
    both = client.get("/players/ann/").content.decode()
    assert f"/players/{ann.pk}/" in both and f"/players/{other.pk}/" in both


def test_the_leaderboard_ranks_by_rating_and_the_dashboard_links_it(
    rigged_game: Callable[..., Game],
) -> None:
    game = finished_rated_game(rigged_game)
    ann = game.seats.get(index=0).user
    assert ann is not None
    client = signed_in(ann)
    page = client.get("/leaderboard/jumbulaya/").content.decode()
    html = page.split('<table class="leaderboard">')[1]
    assert html.index(">Bob</a>") < html.index(">Ann</a>")
    assert html.index(">Bob</a>") < html.index(">Cy</a>")
    assert client.get("/leaderboard/chess/").status_code == 404
    dashboard = client.get("/dashboard/").content.decode()
    assert 'href="/leaderboard/jumbulaya/"' in dashboard
    assert f'href="/players/{ann.pk}/"' in dashboard


@pytest.mark.slow
def test_players_pages_and_the_leaderboard_show_no_live_rack(
    rigged_game: Callable[..., Game],
) -> None:
    done = finished_rated_game(rigged_game)
    ann, bob, cy = (s.user for s in done.seats.all())
    assert ann is not None and bob is not None and cy is not None
    live = create_game(
        ann, seat_count=3, rules=PRESETS["official"], invite_emails=[bob.email, cy.email]
    )
    join_game(live.pk, bob)
    join_game(live.pk, cy)
    live.refresh_from_db()
    assert live.turn_seat is not None
    submit(live.pk, live.turn_seat, "pass", live.last_seq, "web")
    live.refresh_from_db()
    hidden = leaks.hands(live)
    for seat in live.seats.all():
        assert seat.user is not None
        client = signed_in(seat.user)
        others = {s: hand for s, hand in hidden.items() if s != seat.index}
        for url in (
            "/leaderboard/jumbulaya/",
            *(f"/players/{s.user_id}/" for s in live.seats.all()),
        ):
            html = client.get(url).content.decode()
            assert not leaks.leaks(html, others), url
