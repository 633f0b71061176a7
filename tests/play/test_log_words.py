"""The log speaks words: every kind of event in plain sentences with the
players' current names, never the notation (which stays in the record) and
never which tiles were exchanged.

The deal is tests/conftest.py's ``board_game``: nine moves claim the board and
the ninth (Ann's "9 CUT") makes a JUMBULAYA callable; SPRINTS runs down lines
1 to 7, PRINTED is not a listed word.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.core import door, projection, windows
from games.engine.jumbulaya import line_points
from games.kinds.jumbulaya.log_words import game_log
from games.mail_out import outbox
from games.models import Event, Game
from tests.conftest import CLAIM_THE_BOARD

ANN, BOB = 0, 1
STRANGE = line_points(tuple("STRANGE"))


def send(game: Game, seat: int, move: str, source: str = Event.Source.WEB) -> None:
    seq = Game.objects.values_list("last_seq", flat=True).get(pk=game.pk)
    door.submit(game.pk, seat, move, seq, source)


def play(game: Game, moves: list[str]) -> None:
    """Each move by the seat whose turn it is."""
    for move in moves:
        seat = projection.current_state(Game.objects.get(pk=game.pk)).turn
        assert seat is not None
        send(game, seat, move)


def words(game: Game) -> list[str]:
    return [entry.words for entry in game_log(Game.objects.get(pk=game.pk))]


def test_every_turn_of_a_game_in_words(board_game: Callable[..., Game]) -> None:
    game = board_game(claim_window=False)
    play(game, CLAIM_THE_BOARD)
    send(game, BOB, "exchange K L")
    send(game, ANN, "pass")
    send(game, BOB, "timeout", Event.Source.DEADLINE)
    send(game, ANN, "jumbulaya printed")
    send(game, BOB, "jumbulaya sprints")
    log = words(game)
    scores = projection.current_state(Game.objects.get(pk=game.pk)).scores()
    assert log[0] == "The game began; Ann moves first."
    assert log[1] == f"Ann played STRANGE on line 1 (+{STRANGE})."
    stow = line_points(("ST", "O", "W"))
    assert log[8] == f"Bob played STOW on line 8 (+{stow})."  # "8 [ST]OW" in the notation
    assert log[9] == (
        f"Ann played CUT on line 9 (+{line_points(tuple('CUT'))}). All nine lines are "
        "claimed and one holds 7 or more tiles: a JUMBULAYA can now be called."
    )
    assert log[10] == "Bob exchanged 2 tiles."
    assert log[11] == "Ann passed."
    assert log[12] == "Bob ran out of time: the deadline passed and the turn was passed for them."
    assert log[13] == (
        "Ann called JUMBULAYA with PRINTED, which could not be verified (PRINTED is not in "
        "the word list (board)), and loses a turn."
    )
    assert log[14].startswith("Bob called JUMBULAYA: SPRINTS down lines 1 to 7 (+")
    assert log[14].endswith(
        f"The game is over: a JUMBULAYA was found. Final scores: Ann {scores[ANN]}, "
        f"Bob {scores[BOB]}. Bob won."
    )
    assert len(log) == 15
    for line in log:
        assert "[" not in line and "#" not in line


def test_an_exchange_never_says_which_tiles(
    board_game: Callable[..., Game], mailoutbox: list[Any]
) -> None:
    game = board_game(claim_window=False)
    outbox.sweep()
    mailoutbox.clear()
    send(game, ANN, "exchange F H")
    outbox.sweep()
    (turn,) = mailoutbox  # Bob's turn
    html = next(str(c) for c, mime in turn.alternatives if mime == "text/html")
    assert turn.subject == f"Game {game.pk}: your turn — Ann exchanged 2 tiles"
    for text in (turn.body, html):
        assert "Ann exchanged 2 tiles." in text and "F H" not in text
    (entry,) = [w for w in words(game) if "exchanged" in w]
    assert entry == "Ann exchanged 2 tiles."
    page_of_bob = Client()
    bob = game.seats.get(index=BOB).user
    assert bob is not None
    page_of_bob.force_login(bob)
    page = page_of_bob.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Ann exchanged 2 tiles." in page
    assert "F H" not in page and "exchange F" not in page.lower()


def test_sealed_claims_are_told_when_the_window_closes(board_game: Callable[..., Game]) -> None:
    game = board_game()
    play(game, CLAIM_THE_BOARD)
    send(game, ANN, "jumbulaya printed")  # sealed: Bob is to move
    send(game, BOB, "pass")
    send(game, BOB, "jumbulaya sprints")  # sealed: Ann is to move
    before = words(game)
    assert not any("PRINTED" in w or "SPRINTS" in w for w in before)  # sealed: nobody is told
    Game.objects.filter(pk=game.pk).update(window_closes_at=timezone.now() - timedelta(seconds=1))
    assert windows.close_windows() == 1
    log = words(game)[len(before) :]
    assert log[0] == (
        "Ann called JUMBULAYA with PRINTED, which could not be verified (PRINTED is not in "
        "the word list (board)), and loses a turn."
    )
    assert log[1].startswith("Bob called JUMBULAYA: SPRINTS down lines 1 to 7 (+")
    assert "The game is over: a JUMBULAYA was found. Final scores: Ann " in log[1]
    assert log[2] == (
        "The claim window closed and its sealed JUMBULAYA calls were judged: Ann's PRINTED "
        "could not be verified and cost a turn; Bob's SPRINTS was verified and ended the game."
    )


def test_resignations_and_removals(started_game: Callable[..., Game]) -> None:
    game = started_game(players=3)
    send(game, 2, "resign", Event.Source.DEADLINE)  # the sweep removes a seat so
    send(game, 1, "resign")
    log = words(game)
    assert log[-2] == "Cy was removed from the game after missing too many deadlines in a row."
    assert log[-1] == (
        "Bob resigned. The game is over: fewer than two players remain. "
        "Final scores: Ann 0, Bob 0, Cy 0. Ann won."
    )


@pytest.mark.django_db
def test_a_renamed_player_shows_the_new_name_in_old_games(
    board_game: Callable[..., Game], client: Client
) -> None:
    game = board_game(claim_window=False)
    play(game, CLAIM_THE_BOARD[:2])
    ann = game.seats.get(index=ANN).user
    assert ann is not None
    User.objects.filter(pk=ann.pk).update(display_name="Annabel")
    log = words(game)
    assert log[0] == "The game began; Annabel moves first."
    assert log[1] == f"Annabel played STRANGE on line 1 (+{STRANGE})."
    client.force_login(ann)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Annabel played STRANGE" in page and "Ann played" not in page
