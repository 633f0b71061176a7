"""The one door for writes: submit() and the projection it keeps."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.core.door import DuplicateMove, NotAPlayer, StaleMove, submit
from games.core.lobby import create_game
from games.core.projection import ServiceError, current_state, game_lexicon, replay_game
from games.core.rebuild import rebuild_projection
from games.engine.jumbulaya import PRESETS, Refusal, commands, legal_moves
from games.models import Event, Game, Notification


def a_legal_move(game: Game) -> str:
    state = current_state(game)
    assert state.turn is not None
    moves = legal_moves(state, state.turn, game_lexicon(game))
    return moves[0].notation() if moves else "pass"


def test_a_game_starts_when_its_seats_are_full(started_game: Callable[..., Game]) -> None:
    game = started_game(players=3)
    assert game.status == Game.Status.PLAYING
    assert game.last_seq == 1 and game.turn_seat in (0, 1, 2)
    assert game.deadline_at is not None
    start = Event.objects.get(game=game, seq=1)
    assert start.type == "game_started" and start.private_seat is None
    assert set(start.private) == {"racks", "bag"}  # the deal is server-only
    assert "racks" not in start.payload and "bag" not in start.payload
    assert current_state(game) == replay_game(game)
    kinds = sorted(Notification.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == ["invited", "invited", "started", "started", "started", "your_turn"]


def test_submit_appends_events_and_keeps_the_projection(started_game: Callable[..., Game]) -> None:
    game = started_game()
    seat = game.turn_seat
    move = a_legal_move(game)
    done = submit(game.pk, seat, move, 1, Event.Source.WEB)
    game.refresh_from_db()
    assert game.last_seq == 2 == done.state.seq
    assert game.turn_seat == 1 - seat
    row = Event.objects.get(game=game, seq=2)
    assert row.seat == seat and row.source == "web"
    if row.type == "word_built":
        assert row.private_seat == seat and set(row.private) == {"drawn"}
    assert current_state(game) == replay_game(game) == done.state


def test_a_move_may_name_the_player_instead_of_the_seat(
    started_game: Callable[..., Game], make_user: Callable[..., Any]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    player = game.seats.get(index=seat).user
    done = submit(game.pk, player, "pass", 1, Event.Source.WEB)
    assert done.events[0].seat == seat and done.state.seq == 2
    with pytest.raises(NotAPlayer):
        submit(game.pk, make_user("eve"), "pass", 2, Event.Source.WEB)
    with pytest.raises(NotAPlayer, match="no such game"):
        submit(game.pk + 1000, player, "pass", 2, Event.Source.WEB)
    assert Event.objects.filter(game=game).count() == 2


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"move_hours": 0}, "1 to 336 hours"),
        ({"move_hours": 337}, "1 to 336 hours"),
        ({"timeout_limit": 0}, "1 to 20 missed turns"),
        ({"timeout_limit": 21}, "1 to 20 missed turns"),
        ({"seat_count": 5}, "2 to 4 players"),
    ],
)
def test_a_game_out_of_bounds_is_not_made(
    make_user: Callable[..., Any], options: dict[str, int], why: str
) -> None:
    ann = make_user("ann")
    settings = {"seat_count": 2, "rules": PRESETS["official"]} | options
    with pytest.raises(ServiceError, match=why):
        create_game(ann, **settings)
    assert not Game.objects.exists()


def test_a_new_game_has_a_claim_window_unless_asked_otherwise(
    make_user: Callable[..., Any],
) -> None:
    ann = make_user("ann")
    assert create_game(ann, seat_count=2, rules=PRESETS["official"]).window_on
    game = create_game(ann, seat_count=2, rules=PRESETS["official"], claim_window=False)
    assert not game.window_on


def test_deals_and_draws_come_from_the_system_generator_when_made(
    started_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deal is shuffled, and every draw is picked, by ``secrets.SystemRandom``
    at that moment: nothing seeded, nothing drawn in advance."""
    used: list[str] = []

    class Watched(secrets.SystemRandom):
        def shuffle(self, x: Any) -> None:
            used.append("shuffle")
            super().shuffle(x)

        def sample(self, population: Any, k: int, **kw: Any) -> list[Any]:
            used.append(f"sample {k}")
            return super().sample(population, k, **kw)

    assert type(commands._RANDOM) is secrets.SystemRandom
    monkeypatch.setattr(secrets, "SystemRandom", Watched)
    monkeypatch.setattr(commands, "_RANDOM", Watched())
    game = started_game()
    assert used == ["shuffle"]
    seat = game.turn_seat
    rack = current_state(game).racks[seat]
    submit(game.pk, seat, f"exchange {rack[0]} {rack[1]}", 1, Event.Source.WEB)
    assert used == ["shuffle", "sample 2"]


def test_a_stale_move_changes_nothing(started_game: Callable[..., Game]) -> None:
    game = started_game()
    seat = game.turn_seat
    submit(game.pk, seat, "pass", 1, Event.Source.WEB)
    with pytest.raises(StaleMove, match="moved on"):
        submit(game.pk, 1 - seat, "pass", 1, Event.Source.WEB)
    assert Event.objects.filter(game=game).count() == 2


def test_a_repeated_idempotency_key_changes_nothing(started_game: Callable[..., Game]) -> None:
    game = started_game()
    seat = game.turn_seat
    submit(game.pk, seat, "pass", 1, Event.Source.EMAIL, idempotency_key="msg-1@example.com")
    with pytest.raises(DuplicateMove):
        submit(
            game.pk, 1 - seat, "pass", 2, Event.Source.EMAIL, idempotency_key="msg-1@example.com"
        )
    assert Event.objects.filter(game=game).count() == 2


def test_a_refused_move_changes_nothing(started_game: Callable[..., Game]) -> None:
    game = started_game()
    seat = game.turn_seat
    with pytest.raises(Refusal) as refused:
        submit(game.pk, 1 - seat, "pass", 1, Event.Source.WEB)
    assert refused.value.code == "not_your_turn"
    with pytest.raises(Refusal) as refused:
        submit(game.pk, seat, "3 QQQ", 1, Event.Source.WEB)
    assert refused.value.code == "unknown_tile"
    game.refresh_from_db()
    assert game.last_seq == 1 and Event.objects.filter(game=game).count() == 1


def test_resign_ends_a_two_player_game(started_game: Callable[..., Game]) -> None:
    game = started_game()
    seat = game.turn_seat
    submit(game.pk, 1 - seat, "resign", 1, Event.Source.WEB)  # off turn is allowed
    game.refresh_from_db()
    assert game.status == Game.Status.OVER and game.end_reason == "resigned"
    assert game.turn_seat is None and game.finished_at is not None
    assert Notification.objects.filter(game=game, kind="game_over").count() == 2


@pytest.mark.django_db(transaction=True)
def test_twenty_threads_submitting_the_same_move_append_one_event(
    started_game: Callable[..., Game],
) -> None:
    game = started_game()
    seat = game.turn_seat
    move = a_legal_move(game)
    barrier = threading.Barrier(20)
    outcomes: list[str] = []
    lock = threading.Lock()

    def attempt() -> None:
        try:
            barrier.wait()
            submit(game.pk, seat, move, 1, Event.Source.WEB)
            result = "ok"
        except StaleMove:
            result = "stale"
        except Exception as e:  # anything else is a failure of the test
            result = repr(e)
        finally:
            connection.close()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=attempt) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok"] + ["stale"] * 19
    assert Event.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.last_seq == 2 and current_state(game) == replay_game(game)


def test_rebuild_games_restores_a_damaged_projection(
    started_game: Callable[..., Game], capsys: pytest.CaptureFixture[str]
) -> None:
    game = started_game()
    submit(game.pk, game.turn_seat, "pass", 1, Event.Source.WEB)
    call_command("rebuild_games", "--check")
    assert "found 0 that differed" in capsys.readouterr().out
    damaged = dict(game.__class__.objects.get(pk=game.pk).state)
    damaged["idle"] = 7
    Game.objects.filter(pk=game.pk).update(state=damaged, turn_seat=None)
    with pytest.raises(CommandError, match="1 games differ"):
        call_command("rebuild_games", "--check")
    call_command("rebuild_games")
    game.refresh_from_db()
    assert current_state(game) == replay_game(game)
    assert game.turn_seat == replay_game(game).turn
    call_command("rebuild_games", "--check")


def test_a_rebuild_keeps_the_deadline_of_the_turn_the_log_says_though_the_state_was_lost(
    started_game: Callable[..., Game],
) -> None:
    """The deadline may have moved since the turn began (a vacation): a rebuild of
    a game whose stored state is gone keeps it while the turn is the log's."""
    game = started_game()
    assert game.deadline_at is not None
    moved = game.deadline_at + timedelta(days=3)
    Game.objects.filter(pk=game.pk).update(state=None, deadline_at=moved)
    assert rebuild_projection(game)
    game.refresh_from_db()
    assert game.deadline_at == moved and current_state(game) == replay_game(game)


def test_rebuild_games_brings_a_game_marked_over_back_into_play(
    started_game: Callable[..., Game],
) -> None:
    """Status, deadline and times follow the log too: a game wrongly marked over
    (so the sweep would never time it out) is playing again, with the deadline
    of its turn counted from its last event."""
    game = started_game(move_hours=24)
    submit(game.pk, game.turn_seat, "pass", 1, Event.Source.WEB)
    game.refresh_from_db()
    kept = (game.deadline_at, game.turn_seat, game.started_at)
    last = Event.objects.get(game=game, seq=2).created_at
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.OVER, deadline_at=None, finished_at=last, turn_seat=None
    )
    with pytest.raises(CommandError, match="1 games differ"):
        call_command("rebuild_games", "--check")
    call_command("rebuild_games", str(game.pk))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.finished_at is None
    assert (game.turn_seat, game.started_at) == kept[1:]
    assert game.deadline_at == last + timedelta(hours=24)
    assert abs((game.deadline_at - kept[0]).total_seconds()) < 5
    call_command("rebuild_games", "--check")
