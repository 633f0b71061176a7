"""The deadline sweep: timeouts once, warnings once, removal after too many
timeouts in a row."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from time_machine import Traveller

from accounts.models import User
from games.core import timeouts
from games.core.door import StaleMove, submit
from games.core.lobby import create_game, join_game
from games.core.projection import current_state
from games.engine.jumbulaya import PRESETS
from games.mail_out.emails import message_for
from games.models import Event, Game, Notification, Seat
from games.timing import deadlines, vacations

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)  # a Monday
H = timedelta(hours=1)

pytestmark = pytest.mark.django_db


def a_game(make_user: Callable[[str], User], name: str, move_hours: int) -> Game:
    """A started two-player game of ``name``-a and ``name``-b."""
    a, b = make_user(f"{name}a"), make_user(f"{name}b")
    game = create_game(
        a, seat_count=2, rules=PRESETS["official"], invite_emails=[b.email], move_hours=move_hours
    )
    join_game(game.pk, b)
    game.refresh_from_db()
    return game


def kinds(game: Game, kind: str) -> list[int]:
    return list(
        Notification.objects.filter(game=game, kind=kind)
        .order_by("pk")
        .values_list("user_id", flat=True)
    )


def seat_user(game: Game, index: int) -> int:
    uid = Seat.objects.get(game=game, index=index).user_id
    assert uid is not None
    return uid


def test_a_sweep_with_nothing_due_does_nothing(started_game: Callable[..., Game]) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=72)
        events = Event.objects.count()
        notes = Notification.objects.count()
        clock.move_to(T0 + 47 * H)
        assert timeouts.sweep_deadlines() == 0
    game.refresh_from_db()
    assert Event.objects.count() == events
    assert Notification.objects.count() == notes
    assert game.deadline_at == T0 + 72 * H
    assert game.warned_at is None


def test_an_overdue_move_is_timed_out_exactly_once(started_game: Callable[..., Game]) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=72)
        late = game.turn_seat
        assert late is not None
        clock.move_to(T0 + 72 * H)
        assert timeouts.sweep_deadlines() == 1
        assert timeouts.sweep_deadlines() == 0
        clock.move_to(T0 + 72 * H + 5 * 60 * H / 60)
        assert timeouts.sweep_deadlines() == 0
    timed_out = Event.objects.filter(game=game, type="timed_out")
    assert timed_out.count() == 1
    event = timed_out.get()
    assert (event.seat, event.source, event.seq) == (late, "deadline", 2)
    game.refresh_from_db()
    nxt = 1 - late
    assert game.turn_seat == nxt
    assert game.last_seq == 2
    assert game.deadline_at == T0 + 144 * H
    assert game.warned_at is None
    assert Seat.objects.get(game=game, index=late).timeouts_in_a_row == 1
    assert kinds(game, "timed_out") == [seat_user(game, late)]
    assert Notification.objects.get(game=game, kind="timed_out").event_seq == 2
    assert Notification.objects.filter(
        game=game, kind="your_turn", user_id=seat_user(game, nxt), event_seq=2
    ).exists()


def test_a_move_just_made_wins_over_a_claimed_timeout(
    started_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move lands between the sweep's claim and its timeout: the timeout is
    stale and skipped."""
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=24)
        seat = game.turn_seat
        assert seat is not None
        clock.move_to(T0 + 25 * H)
        real = timeouts._time_out

        def move_first(game_id: int, seq: int, hold: datetime, turn: int) -> int:
            submit(game_id, turn, "pass", seq, "web")
            return real(game_id, seq, hold, turn)

        monkeypatch.setattr(timeouts, "_time_out", move_first)
        assert timeouts.sweep_deadlines() == 0
    assert list(Event.objects.filter(game=game).values_list("type", flat=True)) == [
        "game_started",
        "passed",
    ]
    assert Seat.objects.get(game=game, index=seat).timeouts_in_a_row == 0
    assert kinds(game, "timed_out") == []


def test_a_move_after_the_timeout_is_refused_cleanly(started_game: Callable[..., Game]) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=24)
        seat = game.turn_seat
        assert seat is not None
        clock.move_to(T0 + 24 * H)
        assert timeouts.sweep_deadlines() == 1
        with pytest.raises(StaleMove, match="moved on"):
            submit(game.pk, seat, "pass", 1, "web")
    assert list(Event.objects.filter(game=game).values_list("type", flat=True)) == [
        "game_started",
        "timed_out",
    ]


def test_a_claim_left_by_a_dead_sweep_is_taken_over(
    started_game: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=24)
        clock.move_to(T0 + 24 * H)

        def crash(*args: object) -> int:
            raise SystemExit("the worker died")

        monkeypatch.setattr(timeouts, "_time_out", crash)
        with pytest.raises(SystemExit):
            timeouts.sweep_deadlines()
        monkeypatch.undo()
        game.refresh_from_db()
        assert game.deadline_at == T0 + 24 * H + deadlines.CLAIM_HOLD
        assert timeouts.sweep_deadlines() == 0  # the claim still holds
        clock.move_to(T0 + 24 * H + deadlines.CLAIM_HOLD)
        assert timeouts.sweep_deadlines() == 1
    assert Event.objects.filter(game=game, type="timed_out").count() == 1


@pytest.mark.parametrize(("move_hours", "lead_hours"), [(72, 24), (12, 4), (36, 12), (240, 24)])
def test_the_warning_goes_once_at_its_proportional_point(
    started_game: Callable[..., Game], move_hours: int, lead_hours: int
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=move_hours)
        due = T0 + move_hours * H
        clock.move_to(due - lead_hours * H - timedelta(minutes=1))
        timeouts.sweep_deadlines()
        assert kinds(game, "warning") == []
        clock.move_to(due - lead_hours * H)
        timeouts.sweep_deadlines()
        timeouts.sweep_deadlines()
        clock.move_to(due - timedelta(minutes=1))
        timeouts.sweep_deadlines()
    assert kinds(game, "warning") == [seat_user(game, game.turn_seat or 0)]
    game.refresh_from_db()
    assert game.warned_at == due - lead_hours * H


def test_games_with_sooner_deadlines_not_yet_warned_do_not_hold_up_a_warning_due(
    make_user: Callable[[str], User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six 6-hour games fall due first, but their warnings (2 hours ahead) are
    not due yet; a 72-hour game's warning (24 hours ahead) is, and goes even
    when a sweep takes two games at a time."""
    monkeypatch.setattr(deadlines, "SWEEP_BATCH", 2)
    with time_machine.travel(T0, tick=False) as clock:
        long_game = a_game(make_user, "long", move_hours=72)  # due at 72 h, warned from 48 h
        clock.move_to(T0 + 45 * H)
        short = [a_game(make_user, f"short{i}", move_hours=6) for i in range(6)]  # due at 51 h
        clock.move_to(T0 + 48 * H + timedelta(minutes=1))  # the short ones are warned from 49 h
        assert deadlines.warn_due() == 1
        assert deadlines.warn_due() == 0
    assert kinds(long_game, "warning") != []
    assert all(kinds(g, "warning") == [] for g in short)


def test_the_warning_is_rearmed_when_a_vacation_extends_the_deadline(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=72)
        seat = game.turn_seat
        assert seat is not None
        user = Seat.objects.get(game=game, index=seat).user
        assert user is not None
        clock.move_to(T0 + 50 * H)
        timeouts.sweep_deadlines()
        assert len(kinds(game, "warning")) == 1
        vacations.declare(user, T0 + 60 * H, T0 + 84 * H)
        game.refresh_from_db()
        assert game.deadline_at == T0 + 96 * H
        assert game.warned_at is None
        timeouts.sweep_deadlines()
        assert len(kinds(game, "warning")) == 1  # 46 h before the new deadline
        clock.move_to(T0 + 72 * H)
        timeouts.sweep_deadlines()
        assert len(kinds(game, "warning")) == 2
        assert Event.objects.filter(game=game, type="timed_out").count() == 0
        clock.move_to(T0 + 96 * H)
        assert timeouts.sweep_deadlines() == 1


def _run_out(game: Game, clock: Traveller) -> int:
    game.refresh_from_db()
    assert game.deadline_at is not None
    clock.move_to(game.deadline_at)
    return timeouts.sweep_deadlines()


def _others_pass(game: Game, until_seat: int) -> None:
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING and game.turn_seat != until_seat:
        assert game.turn_seat is not None
        submit(game.pk, game.turn_seat, "pass", game.last_seq, "web")
        game.refresh_from_db()


def test_three_timeouts_in_a_row_remove_the_seat_and_the_game_goes_on(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=3, move_hours=24)
        late = game.turn_seat
        assert late is not None
        for n in (1, 2):
            assert _run_out(game, clock) == 1
            assert Seat.objects.get(game=game, index=late).timeouts_in_a_row == n
            _others_pass(game, late)
        assert kinds(game, "removed") == []
        assert _run_out(game, clock) == 2  # the timeout and the removal
    game.refresh_from_db()
    state = current_state(game)
    assert state.resigned == frozenset({late})
    assert game.status == Game.Status.PLAYING
    assert game.turn_seat not in (None, late)
    resigned = Event.objects.get(game=game, type="resigned")
    assert (resigned.seat, resigned.source) == (late, "deadline")
    everyone = sorted(seat_user(game, i) for i in range(3))
    assert sorted(kinds(game, "removed")) == everyone
    assert len(kinds(game, "timed_out")) == 3


def test_each_removal_email_names_the_seat_removed(started_game: Callable[..., Game]) -> None:
    """Two seats removed one after the other: the second email names the
    second seat (the first keeps its count of timeouts)."""
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=4, move_hours=24, timeout_limit=1)
        first = game.turn_seat
        assert first is not None
        assert _run_out(game, clock) == 2
        game.refresh_from_db()
        second = game.turn_seat
        assert second is not None and second != first
        assert _run_out(game, clock) == 2
        names = current_state(game).players
        sent = {}
        for note in Notification.objects.filter(game=game, kind="removed").select_related(
            "game", "user"
        ):
            message = message_for(note)
            assert message is not None
            sent.setdefault(note.event_seq, []).append((note.user_id, message.subject))
    (one, two) = [sent[seq] for seq in sorted(sent)]
    for removed, subjects in ((first, one), (second, two)):
        for user_id, subject in subjects:
            if user_id == seat_user(game, removed):
                assert "you were removed" in subject
            else:
                assert f"{names[removed]} was removed" in subject


def test_a_turn_played_resets_the_count(started_game: Callable[..., Game]) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=2, move_hours=24)
        late = game.turn_seat
        assert late is not None
        for _ in range(2):
            _run_out(game, clock)
            _others_pass(game, late)
        assert Seat.objects.get(game=game, index=late).timeouts_in_a_row == 2
        game.refresh_from_db()
        submit(game.pk, late, "pass", game.last_seq, "web")
        assert Seat.objects.get(game=game, index=late).timeouts_in_a_row == 0
        _others_pass(game, late)
        assert _run_out(game, clock) == 1
    assert Event.objects.filter(game=game, type="resigned").count() == 0


def test_removal_in_a_two_player_game_ends_it(started_game: Callable[..., Game]) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(players=2, move_hours=24)
        late = game.turn_seat
        assert late is not None
        for _ in range(2):
            assert _run_out(game, clock) == 1
            _others_pass(game, late)
        assert _run_out(game, clock) == 2
        assert timeouts.sweep_deadlines() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    assert game.end_reason == "resigned"
    assert game.deadline_at is None
    both = sorted(seat_user(game, i) for i in range(2))
    assert sorted(kinds(game, "removed")) == both
    assert sorted(kinds(game, "game_over")) == both
