"""Ratings: a rated game changes its players' ratings once, when it ends, by
openskill's Plackett-Luce model over the final places (ties shared, seats
that resigned last); casual games change nothing; rated games have no hints."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import pytest
from django.core.management import call_command
from django.test import Client
from openskill.models import PlackettLuce

from accounts.models import User
from games.core import lobby
from games.core.door import submit
from games.core.lobby import create_game
from games.core.projection import ServiceError
from games.core.rebuild import rebuild_projection
from games.engine.jumbulaya import PRESETS
from games.models import Game
from ratings.models import Rating, RatingChange
from ratings.rating import final_ranks, rate_game
from tests.conftest import CANARY_LINES, CANARY_RACKS

#: A stalled round ends the game: two passes in a row of the two seats left.
STALL_AFTER_ONE_ROUND = dataclasses.replace(PRESETS["official"], stall_rounds=1)
FOUR_RACKS = [*CANARY_RACKS, ["E", "E", "I", "O", "U"]]


def play(game: Game, moves: Sequence[tuple[int, str]]) -> Game:
    for seat, move in moves:
        game.refresh_from_db()
        submit(game.pk, seat, move, game.last_seq, "web")
    game.refresh_from_db()
    return game


def expected(places: Sequence[int]) -> list[tuple[float, float]]:
    """What the library makes of new players finishing in ``places``."""
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in places], ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def changes(game: Game) -> list[RatingChange]:
    return list(RatingChange.objects.filter(game=game).order_by("seat"))


def test_places_share_ties_and_put_seats_out_last() -> None:
    assert final_ranks([10, 30, 20], frozenset()) == [3, 1, 2]
    assert final_ranks([10, 10, 5, 40], frozenset({3})) == [1, 1, 3, 4]
    assert final_ranks([0, 12, 0, 0], frozenset({0, 2})) == [3, 1, 3, 2]


def test_a_two_seat_game_rated_by_the_library_when_a_player_resigns(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(players=2, rated=True)
    assert not RatingChange.objects.filter(game=game).exists()
    play(game, [(1, "resign")])
    assert game.status == Game.Status.OVER
    rows = changes(game)
    assert [(r.seat, r.rank) for r in rows] == [(0, 1), (1, 2)]
    for row, (mu, sigma) in zip(rows, expected([1, 2]), strict=True):
        assert row.mu_after == pytest.approx(mu) and row.sigma_after == pytest.approx(sigma)
        rating = Rating.objects.get(user=row.user, kind="jumbulaya")
        assert (rating.mu, rating.sigma, rating.games) == (row.mu_after, row.sigma_after, 1)
    winner, loser = rows
    assert winner.ordinal_after > winner.ordinal_before
    assert loser.ordinal_after < loser.ordinal_before


def test_three_seats_rated_by_place_with_the_resigned_seat_last(
    rigged_game: Callable[..., Game],
) -> None:
    game = rigged_game(
        CANARY_LINES, CANARY_RACKS, players=3, rules=STALL_AFTER_ONE_ROUND, rated=True
    )
    # Bob builds CATS; Cy resigns; then a round of passes ends the game.
    play(game, [(0, "pass"), (1, "1 CATS"), (2, "resign"), (0, "pass"), (1, "pass")])
    assert game.status == Game.Status.OVER
    rows = changes(game)
    assert [r.rank for r in rows] == [2, 1, 3]  # Ann 0 points, Bob CATS, Cy resigned
    for row, (mu, sigma) in zip(rows, expected([2, 1, 3]), strict=True):
        assert row.mu_after == pytest.approx(mu) and row.sigma_after == pytest.approx(sigma)
    ann, bob, cy = rows
    assert bob.change > 0 > cy.change
    assert bob.change > ann.change > cy.change


def test_four_seats_share_a_tied_place(rigged_game: Callable[..., Game]) -> None:
    game = rigged_game(CANARY_LINES, FOUR_RACKS, players=4, rules=STALL_AFTER_ONE_ROUND, rated=True)
    moves = [(0, "pass"), (1, "1 CATS"), (2, "resign"), (3, "pass"), (0, "pass"), (1, "pass")]
    play(game, moves)
    assert game.status == Game.Status.OVER
    rows = changes(game)
    assert [r.rank for r in rows] == [2, 1, 4, 2]  # Ann and Di tie on 0 points
    for row, (mu, sigma) in zip(rows, expected([2, 1, 4, 2]), strict=True):
        assert row.mu_after == pytest.approx(mu) and row.sigma_after == pytest.approx(sigma)
    ann, bob, cy, di = rows
    assert ann.mu_after == pytest.approx(di.mu_after)
    assert bob.change > 0 > cy.change
    assert min(ann.change, di.change) > cy.change


def test_a_game_is_rated_exactly_once(started_game: Callable[..., Game]) -> None:
    game = play(started_game(players=2, rated=True), [(0, "resign")])
    before = {(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert len(changes(game)) == 2
    # The ending processed again: by the step itself, by the command, by a rebuild.
    assert rate_game(game) is False
    call_command("rate_games")
    rebuild_projection(game)
    game.refresh_from_db()
    assert rate_game(game) is False
    assert len(changes(game)) == 2
    assert {(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.all()} == before


def test_the_command_rates_a_finished_game_once(started_game: Callable[..., Game]) -> None:
    game = play(started_game(players=2, rated=True), [(0, "resign")])
    RatingChange.objects.filter(game=game).delete()
    Rating.objects.all().delete()
    call_command("rate_games")
    call_command("rate_games")
    assert [r.rank for r in changes(game)] == [2, 1]
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


def test_a_casual_game_changes_no_rating(started_game: Callable[..., Game]) -> None:
    game = play(started_game(players=2), [(1, "resign")])
    assert game.status == Game.Status.OVER and not game.rated
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_robot_has_a_rating(make_user: Callable[[str], User]) -> None:
    ann = make_user("ann")
    game = lobby.play_against_robot(ann, "beginner")
    assert game.rated
    play(game, [(0, "resign")])
    robot = game.seats.get(index=1).user
    assert robot is not None and robot.is_robot
    rating = Rating.objects.get(user=robot, kind="jumbulaya")
    assert rating.games == 1 and rating.ordinal > Rating.objects.get(user=ann).ordinal


def test_the_service_refuses_hints_in_a_rated_game(make_user: Callable[[str], User]) -> None:
    with pytest.raises(ServiceError, match="Hints are off in rated games"):
        create_game(
            make_user("ann"), seat_count=2, rules=PRESETS["official"], rated=True, hints=True
        )
    assert not Game.objects.exists()


def test_the_create_page_is_rated_by_default_and_refuses_hints_with_it(
    make_user: Callable[[str], User],
) -> None:
    client = Client()
    client.force_login(make_user("ann"))
    page = client.get("/games/new/").content.decode()
    assert 'name="rated"' in page and "checked" in page.split('name="rated"')[1].split(">")[0]
    form = {
        "kind": "jumbulaya",
        "seat_count": "2",
        "preset": "official",
        "options_from": "official",
        "lexicon_name": "default",
        "move_hours": "72",
        "timeout_limit": "3",
        "is_open": "on",
        "rack_limit": "5",
        "new_word": "current",
        "stall_rounds": "0",
        "claim_window": "on",
        "rated": "on",
        "hints": "on",
    }
    refused = client.post("/games/new/", form)
    assert refused.status_code == 400
    assert "Hints are off in rated games" in refused.content.decode()
    assert not Game.objects.exists()
    del form["hints"]
    made = client.post("/games/new/", form)
    assert made.status_code == 302
    assert Game.objects.get().rated
