"""The analysis page: for whoever may see the replay, once the game is over;
404 for anyone else; never a traceback."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games.coach import analysis
from games.models import Game
from games.models import GameAnalysis as Stored

pytestmark = pytest.mark.django_db


def signed_in(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def url(game: Game) -> str:
    return f"/games/{game.pk}/analysis/"


def test_each_player_sees_the_turns_the_jumbulayas_and_the_totals(
    finished_game: Callable[..., Game],
) -> None:
    game = finished_game()
    analysis.analyse_game(game.pk)
    for seat in game.seats.all():
        response = signed_in(seat.user).get(url(game))
        assert response.status_code == 200
        html = response.content.decode()
        assert '<caption id="turns-caption">Every turn' in html and "Robot's choice" in html
        assert "1 S-T-R-A-N-G-E" in html
        assert "SPRINTS" in html and "Bob" in html and "Ann" in html
        assert 'scope="col"' in html


def test_it_is_linked_from_the_replay_and_the_game_page(finished_game: Callable[..., Game]) -> None:
    game = finished_game()
    client = signed_in(game.seats.get(index=0).user)
    for page in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/"):
        assert url(game) in client.get(page).content.decode()


def test_without_a_stored_analysis_the_page_computes_one(
    finished_game: Callable[..., Game],
) -> None:
    game = finished_game()
    Stored.objects.all().delete()
    response = signed_in(game.seats.get(index=1).user).get(url(game))
    assert response.status_code == 200
    assert "Robot's choice" not in response.content.decode()  # computed without it


def test_a_failed_analysis_says_it_is_being_prepared(
    finished_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.web import analysis_views

    game = finished_game()

    def broken(game: Game) -> None:
        raise RuntimeError("the word list is gone")

    monkeypatch.setattr(analysis_views, "analysis_of", broken)
    response = signed_in(game.seats.get(index=0).user).get(url(game))
    assert response.status_code == 200
    assert "being prepared" in response.content.decode()


def test_others_get_404_and_a_public_game_s_spectators_see_it(
    finished_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    game = finished_game()
    stranger = make_user("eve")
    assert signed_in(stranger).get(url(game)).status_code == 404
    assert signed_in(None).get(url(game)).status_code in (302, 404)  # to sign in
    Game.objects.filter(pk=game.pk).update(is_public=True)
    assert signed_in(stranger).get(url(game)).status_code == 200
    assert signed_in(stranger).get("/games/999999/analysis/").status_code == 404


def test_a_game_still_being_played_has_none(board_game: Callable[..., Game]) -> None:
    game = board_game()
    assert signed_in(game.seats.get(index=0).user).get(url(game)).status_code == 404
