"""What the contract's tests, and the kinds' own, do with a game of any kind:
start one between people and robots, sign a seat in, read its state, find a
move its kind says is legal (the contract never writes a kind's notation) and
send it, end the game by resignations, and replay its record with
``manage.py replay``."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games.core import door, lobby
from games.core.projection import current_state, game_lexicon, kind_of, load_events
from games.models import Event, Game

#: Moves that give a turn or the game away: never the move a test makes.
GIVING_UP = {"pass", "resign", "timeout"}
#: The people a test seats, in seat order.
NAMES = ("ann", "bob", "cy", "di", "ed")


def started_between(
    make_user: Callable[[str], User],
    kind: str,
    seats: int,
    rules: Any,
    robots: Sequence[str] = (),
    **options: Any,
) -> Game:
    """A started game of ``kind`` made through the lobby: its creator Ann in
    seat 0, the robots of ``robots`` (rungs of the ladder) after her, then
    people (Bob, Cy…) invited and joined in the seats left; dealt at random."""
    people = [make_user(n) for n in NAMES[: seats - len(robots)]]
    game = lobby.create_game(
        people[0],
        kind=kind,
        seat_count=seats,
        rules=rules,
        invite_emails=[u.email for u in people[1:]],
        robots=robots,
        **options,
    )
    for user in people[1:]:
        lobby.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seat_user(game: Game, seat: int) -> User:
    user = game.seats.get(index=seat).user
    assert user is not None
    return user


def text(response: Any) -> str:
    """A response's text, its escaped quotes and typographic apostrophes written plainly."""
    html = str(response.content.decode())
    return html.replace("&#x27;", "'").replace("&quot;", '"').replace("\u2019", "'")


def state_as[S](game: Game, cls: type[S]) -> S:
    """``game``'s state now (the row read again), checked to be a ``cls``."""
    game.refresh_from_db()
    state = current_state(game)
    assert isinstance(state, cls)
    return state


def move_form(game: Game, notation: str, key: str) -> dict[str, str]:
    game.refresh_from_db()
    return {
        "notation": notation,
        "expected_seq": str(game.last_seq),
        "idempotency_key": f"contract-{key}-0123456789",
    }


def viewers_of(game: Game, spectator: User) -> dict[int | None, User]:
    """Every seat's user, and under ``None`` a ``spectator``: what the leak
    scan (tests/leaks.py) reads a game as."""
    viewers: dict[int | None, User] = {
        s.index: s.user for s in game.seats.select_related("user") if s.user is not None
    }
    viewers[None] = spectator
    return viewers


def to_move(game: Game) -> int:
    """The first seat that may move now."""
    game.refresh_from_db()
    movers = kind_of(game).progress(current_state(game)).to_move
    assert movers, "nobody is to move"
    return movers[0]


def a_move(game: Game, seat: int) -> str:
    """A move ``seat`` may make now that plays (not a pass nor a resignation):
    the first its kind lists, else (a rack that makes no word) the strongest
    robot's answer, else a pass."""
    kind = kind_of(game)
    state = current_state(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    for move in kind.legal_moves(state, seat, lexicon):
        if kind.verb_of(move) not in GIVING_UP:
            return move
    if kind.robots is not None:
        strongest = kind.robots.strongest
        answer = kind.robots.play(
            load_events(game), state, seat, lexicon, strongest, random.Random(1)
        )
        if answer.strip().lower() != "wait":
            return answer
    return "pass"


def play_one(game: Game, seat: int | None = None) -> tuple[int, str]:
    """Make one move for ``seat`` (the first to move unless given) through
    the service; returns the seat and the move."""
    seat = to_move(game) if seat is None else seat
    move = a_move(game, seat)
    door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    return seat, move


def resign_all_but(game: Game, keep: int) -> None:
    """Every seat but ``keep`` resigns, in seat order: the game is over."""
    for seat in range(game.seat_count):
        if seat != keep:
            game.refresh_from_db()
            if game.status == Game.Status.PLAYING:
                door.submit(game.pk, seat, "resign", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    assert game.status == Game.Status.OVER


def replayed(record: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """What ``manage.py replay`` prints of ``record``, a downloaded record,
    which it must find legal turn by turn (exit code 0)."""
    path = tmp_path / "record.json"
    path.write_bytes(record)
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path))
    assert exited.value.code == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out
