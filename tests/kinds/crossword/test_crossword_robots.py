"""Robots and hints of the crossword game, through the service: a robot seat
plays a game to its end, and hints are the seat's best word moves by points
(the analysis page: test_crossword_commands.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.test import Client

from accounts.models import User
from games.coach import hints
from games.core import door, lobby
from games.kinds import get
from games.models import Event, Game
from games.robots import turns


def signed_in(game: Game, seat: int) -> Client:
    user = game.seats.get(index=seat).user
    assert user is not None
    client = Client()
    client.force_login(user)
    return client


def test_a_robot_seat_plays_a_game_to_its_end(make_user: Callable[[str], User]) -> None:
    ann = make_user("ann")
    kind = get("crossword")
    game = lobby.create_game(
        ann, kind="crossword", seat_count=2, rules=kind.presets["standard"], robots=["expert"]
    )
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    robot = game.seats.get(index=1).user
    assert robot is not None and robot.display_name == "Robot Expert"
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        if game.turn_seat == 0:
            door.submit(game.pk, ann, "pass", game.last_seq, Event.Source.WEB)
        else:
            assert turns.sweep() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    robot_moves = game.events.filter(seat=1).exclude(type="game_started")
    assert robot_moves.filter(type="played").exists()
    # Ann only passed: the robot won (six scoreless turns in a row cannot come
    # while it scores, so it went out, or the passes and its exchanges ended it).
    assert game.end_reason in ("went_out", "scoreless")
    assert game.state is not None
    scores = kind.scores_from_state(game.state, 2)
    assert scores[1] > scores[0]


def test_hints_are_the_best_word_moves_by_points(xw_game: Callable[..., Game]) -> None:
    game = xw_game(["JESUSAT", "DOGCATE"], hints=True)
    assert hints.prepare(game.pk, 0, game.last_seq)  # the task, off the request
    client = signed_in(game, 0)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Show hints" in page
    # The best: JESUS with its J on the double letter at 8D (or D8) and its last S
    # on the star: (16 + 1 + 1 + 1 + 1) × 2 + 15 = 55.
    first = page[page.index('class="hint-list"') :]
    assert 'value="8D JESUS"' in first[:400] or 'value="D8 JESUS"' in first[:400]
    assert "55 points" in first[:600]
