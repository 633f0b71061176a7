"""A JUMBULAYA call on one's own turn while the claim window is open is judged
at once, as the rules judge a call (game-record.md, rule 3): it is that turn's
move, and a sealed call never stands in for one.  A failed call costs the turn
and the window stays open; a verified one joins the sealed calls and the
window closes now: the longest valid call wins (ties: the earliest made).

The deal is tests/conftest.py's ``board_game``: the ninth move opens the
window with Bob to move; SPRINTS and RAINOUT (7 tiles) and SPRINTSO (8) run
down the board, PRINTED is not a listed word.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.core import projection
from games.kinds import presentation
from games.kinds.jumbulaya.models import JumbulayaClaim
from games.models import Event, Game
from tests.claims.test_claims_window import opened, send, types_after

ANN, BOB = 0, 1
Outcome = JumbulayaClaim.Outcome

pytestmark = pytest.mark.django_db


def outcomes(game: Game) -> list[tuple[int, str, str]]:
    return list(game.claims.order_by("created_at", "pk").values_list("seat", "word", "outcome"))


def test_a_failed_call_on_ones_turn_costs_that_turn_at_once(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTS")  # sealed: Bob is to move
    seq = game.last_seq
    done = send(game, BOB, "jumbulaya PRINTED")
    assert not done.sealed and not done.state.over
    game.refresh_from_db()
    assert types_after(game, seq) == [("jumbulaya_failed", BOB)]
    assert game.turn_seat == ANN and game.window_closes_at is not None  # the window stays open
    assert outcomes(game) == [(ANN, "SPRINTS", "")]  # Ann's call is still sealed


def test_a_verified_call_on_ones_turn_closes_the_window_and_the_longest_wins(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTS")
    seq = game.last_seq
    done = send(game, BOB, "jumbulaya SPRINTSO")
    assert not done.sealed and not done.overtaken and done.state.over
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "jumbulaya"
    assert game.window_closes_at is None
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    made = Event.objects.get(game=game, seq=seq + 1)
    assert made.source == Event.Source.WEB  # Bob's own call, from his channel
    assert outcomes(game) == [(ANN, "SPRINTS", Outcome.OVERTAKEN), (BOB, "SPRINTSO", Outcome.MADE)]
    assert [type(e).__name__ for e in done.events] == ["JumbulayaVerified"]


def test_a_longer_sealed_call_wins_over_a_call_on_ones_turn(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya SPRINTSO")
    seq = game.last_seq
    done = send(game, BOB, "jumbulaya SPRINTS")
    assert done.overtaken and done.state.over
    game.refresh_from_db()
    assert types_after(game, seq) == [("jumbulaya_verified", ANN)]
    assert outcomes(game) == [(ANN, "SPRINTSO", Outcome.MADE), (BOB, "SPRINTS", Outcome.OVERTAKEN)]


def test_a_sealed_call_as_long_and_earlier_wins(board_game: Callable[..., Game]) -> None:
    game = opened(board_game)
    send(game, ANN, "jumbulaya RAINOUT")
    seq = game.last_seq
    assert send(game, BOB, "jumbulaya SPRINTS").overtaken
    assert types_after(game, seq) == [("jumbulaya_verified", ANN)]


def test_ones_own_sealed_call_made_again_on_ones_turn_is_judged_at_once(
    board_game: Callable[..., Game],
) -> None:
    """A robot seals what it sees off its turn and calls it again on its turn:
    the call is judged then, once, and ends the game."""
    game = opened(board_game)
    send(game, BOB, "pass")
    send(game, BOB, "jumbulaya SPRINTS")  # sealed: Ann is to move
    send(game, ANN, "pass")
    seq = Game.objects.get(pk=game.pk).last_seq
    done = send(game, BOB, "jumbulaya SPRINTS")
    assert not done.overtaken and done.state.over
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    assert outcomes(game) == [(BOB, "SPRINTS", Outcome.MADE)]


def test_with_no_sealed_call_a_call_on_ones_turn_ends_the_game_as_without_a_window(
    board_game: Callable[..., Game],
) -> None:
    game = opened(board_game)
    seq = game.last_seq
    done = send(game, BOB, "jumbulaya SPRINTS")
    assert not done.sealed and not done.overtaken and done.state.over
    game.refresh_from_db()
    assert types_after(game, seq) == [("jumbulaya_verified", BOB)]
    assert game.window_closes_at is None and not game.claims.exists()
    assert projection.replay_game(game) == done.state


def test_the_preview_says_how_a_call_will_be_judged(board_game: Callable[..., Game]) -> None:
    game = opened(board_game)
    shown = presentation.of(projection.kind_of(game))
    on_turn = " ".join(shown.preview(game, BOB, "jumbulaya SPRINTS").details)
    off_turn = " ".join(shown.preview(game, ANN, "jumbulaya SPRINTS").details)
    assert "It is your turn, so the call is judged at once" in on_turn
    assert "if not, it costs you this turn" in on_turn
    assert "your call is sealed until the window closes" in off_turn
    assert "judged at once" not in off_turn
    game.window_closes_at = None  # without a window, neither is said
    assert "sealed" not in " ".join(shown.preview(game, ANN, "jumbulaya SPRINTS").details)
