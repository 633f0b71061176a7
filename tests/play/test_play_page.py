"""The game page: what each viewer sees."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.test import Client

from accounts.models import User
from games.core.door import submit
from games.core.lobby import create_game
from games.core.projection import current_state
from games.engine.jumbulaya import PRESETS
from games.models import Game


def url(game: Game) -> str:
    return f"/games/{game.pk}/"


def test_each_seat_sees_its_own_rack_and_not_the_others(
    started_game: Callable[..., Game],
    seat_client: Callable[[Game, int], Client],
    scan: Callable[[str], Any],
) -> None:
    game = started_game(players=2)
    state = current_state(game)
    for seat in (0, 1):
        response = seat_client(game, seat).get(url(game))
        assert response.status_code == 200
        page = scan(response.content.decode())
        # exactly one rack element, marked with the viewer's own seat ...
        assert list(page.racks) == [str(seat)]
        # ... holding exactly the viewer's rack
        assert Counter(page.racks[str(seat)]) == Counter(state.racks[seat])
        other = 1 - seat
        assert str(other) not in page.racks
        # every line is on the page, in order, tile by tile
        line_tiles = [t for line in state.lines for t in line.tiles]
        rack_len = len(state.racks[seat])
        assert page.tiles[: len(line_tiles)] == line_tiles
        assert len(page.tiles) == len(line_tiles) + rack_len


def test_the_page_shows_scores_turn_deadline_bag_and_rack_sizes(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game(players=2)
    user = game.seats.get(index=0).user
    assert user is not None
    user.time_zone = "Asia/Tokyo"
    user.save()
    Game.objects.filter(pk=game.pk).update(deadline_at=datetime(2030, 1, 2, 23, 30, tzinfo=UTC))
    game.refresh_from_db()
    html = seat_client(game, 0).get(url(game)).content.decode()
    # 23:30 UTC is 08:30 the next day in Tokyo
    assert "Thu 3 Jan 2030, 08:30" in html and "Asia/Tokyo" in html
    assert "The bag holds 63 tiles." in html
    assert html.count("5 tiles in rack") == 2
    assert "0 points" in html
    state = current_state(game)
    turn_name = state.players[state.turn or 0]
    assert (
        "It is your turn." in html if state.turn == 0 else f"<strong>{turn_name}</strong>" in html
    )
    assert "The game began;" in html  # the log, in words


def test_mobile_viewport_and_stylesheet(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    html = seat_client(game, 0).get(url(game)).content.decode()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "css/game.css" in html and "js/compose.js" in html


def test_a_spectator_sees_the_board_but_no_rack_and_no_move_forms(
    started_game: Callable[..., Game],
    make_user: Callable[..., User],
    client_for: Callable[[User], Client],
    scan: Callable[[str], Any],
) -> None:
    game = started_game(is_public=True)
    response = client_for(make_user("eve")).get(url(game))
    assert response.status_code == 200
    html = response.content.decode()
    page = scan(html)
    assert page.racks == {}
    assert "Your rack" not in html
    assert "move-form" not in page.ids and "compose" not in page.ids
    assert f"/games/{game.pk}/move/" not in html
    assert "You are watching this game." in html
    state = current_state(game)
    assert len(page.tiles) == sum(len(line.tiles) for line in state.lines)


def test_a_private_game_is_not_found_for_others(
    started_game: Callable[..., Game],
    make_user: Callable[..., User],
    client_for: Callable[[User], Client],
) -> None:
    game = started_game(is_public=False)
    eve = client_for(make_user("eve"))
    assert eve.get(url(game)).status_code == 404
    assert eve.post(f"{url(game)}move/", {"notation": "pass"}).status_code == 404
    assert eve.post(f"{url(game)}preview/", {"notation": "pass"}).status_code == 404
    assert Client().get(url(game)).status_code == 302  # signing in first


def test_an_open_game_shows_who_has_joined(
    make_user: Callable[..., User], client_for: Callable[[User], Client]
) -> None:
    ann = make_user("ann")
    game = create_game(
        ann, seat_count=3, rules=PRESETS["official"], invite_emails=["secret@example.org"]
    )
    response = client_for(ann).get(url(game))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Waiting for players" in html and "starts as soon as every seat is taken" in html
    assert "<strong>Ann</strong> has joined (you)" in html
    assert "an invited player, who has not joined yet" in html
    assert "secret@example.org" not in html
    assert "move-form" not in html


def test_a_finished_game_shows_the_end_and_the_winners(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    client = seat_client(game, 0)
    response = client.post(
        f"{url(game)}move/",
        {
            "notation": "resign",
            "expected_seq": "1",
            "idempotency_key": "k" * 20,
            "confirmed": "yes",
        },
    )
    assert response.status_code == 302
    html = client.get(url(game)).content.decode()
    assert "The game is over" in html and "fewer than two players remain" in html
    assert "Winner: <strong>Bob</strong>" in html
    assert "move-form" not in html


def test_the_page_asks_whether_the_game_moved_on(
    started_game: Callable[..., Game],
    seat_client: Callable[[Game, int], Client],
    make_user: Callable[..., User],
    client_for: Callable[[User], Client],
) -> None:
    game = started_game(is_public=True)
    seat = game.turn_seat or 0
    waiting = seat_client(game, 1 - seat)
    page = waiting.get(f"/games/{game.pk}/").content.decode()
    changes = f"/games/{game.pk}/changes/?seen=1"
    assert f'hx-get="{changes}"' in page and 'hx-trigger="every 30s"' in page
    assert waiting.get(changes).status_code == 204  # nobody moved
    submit(game.pk, seat, "pass", 1, "web")
    submit(game.pk, 1 - seat, "pass", 2, "web")
    submit(game.pk, seat, "pass", 3, "web")
    news = waiting.get(changes)
    assert news.status_code == 200
    text = news.content.decode()
    assert "The game has moved on" in text and text.count("passed.") == 3
    assert 'id="moved-on"' in text and "hx-trigger" not in text  # it stops asking
    assert waiting.get(f"/games/{game.pk}/changes/?seen=4").status_code == 204
    spectator = client_for(make_user("eve"))
    assert spectator.get(changes).status_code == 200
    Game.objects.filter(pk=game.pk).update(is_public=False)
    assert spectator.get(changes).status_code == 404
    for bad in ("", "x", "-1", "9" * 12):
        assert waiting.get(f"/games/{game.pk}/changes/?seen={bad}").status_code == 400
