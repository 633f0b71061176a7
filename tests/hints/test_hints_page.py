"""Hints on the game page and its htmx partial: on, only for the player to
move (once a task has stored them: tests/hints/test_stored_hints.py); off,
nothing at all."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from games.coach import hints
from games.models import Game

pytestmark = pytest.mark.django_db


def client_of(game: Game, seat: int) -> Client:
    user = game.seats.get(index=seat).user
    assert user is not None
    client = Client()
    client.force_login(user)
    return client


def pages(client: Client, game: Game) -> list[str]:
    """The whole page and its live partial (what htmx swaps in)."""
    url = f"/games/{game.pk}/"
    whole = client.get(url)
    part = client.get(url, headers={"HX-Request": "true"})
    assert whole.status_code == part.status_code == 200
    assert 'id="live"' in part.content.decode() and "<html" not in part.content.decode()
    return [whole.content.decode(), part.content.decode()]


def test_with_hints_on_the_player_to_move_sees_the_best_moves(
    board_game: Callable[..., Game],
) -> None:
    game = board_game(hints=True)
    assert hints.prepare(game.pk, 0, game.last_seq)  # what the task does
    found = hints.find(game, 0)
    assert found and found[0].notation == "1 S-T-R-A-N-G-E"
    for html in pages(client_of(game, 0), game):
        assert "Show hints" in html
        assert f'data-suggest="{found[0].notation}"' in html
        assert 'name="suggested"' in html


def test_the_other_seat_and_spectators_never_see_them(
    board_game: Callable[..., Game], make_user: Callable[[str], object]
) -> None:
    game = board_game(hints=True, is_public=True)
    assert hints.prepare(game.pk, 0, game.last_seq)
    assert not hints.prepare(game.pk, 1, game.last_seq)  # not Bob's turn: none for him
    for html in pages(client_of(game, 1), game):
        assert "Show hints" not in html and "hint-list" not in html
    watcher = Client()
    watcher.force_login(make_user("eve"))  # type: ignore[arg-type]
    for html in pages(watcher, game):
        assert "Show hints" not in html and "hint-list" not in html


def test_with_hints_off_nothing_is_shown(board_game: Callable[..., Game]) -> None:
    game = board_game()
    assert hints.hints_now(game, 0) is None
    assert not hints.prepare(game.pk, 0, game.last_seq)
    for html in pages(client_of(game, 0), game):
        assert "Show hints" not in html and "hint-list" not in html


def test_a_hint_fills_the_move_field_without_javascript(board_game: Callable[..., Game]) -> None:
    game = board_game(hints=True)
    response = client_of(game, 0).post(
        f"/games/{game.pk}/preview/",
        {"suggested": "1 S-T-R-A-N-G-E", "expected_seq": game.last_seq},
    )
    assert response.status_code == 200
    assert 'value="1 S-T-R-A-N-G-E"' in response.content.decode()


def test_the_create_page_offers_the_option(
    client: Client, make_user: Callable[..., object]
) -> None:
    client.force_login(make_user("ann"))  # type: ignore[arg-type]
    html = client.get("/games/new/").content.decode()
    assert 'name="hints"' in html
