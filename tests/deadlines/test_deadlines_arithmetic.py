"""Deadline arithmetic: move time, skipped weekends in each player's time zone,
clock changes and vacations."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from games.models import Game, Seat, Vacation
from games.timing import deadlines
from games.timing.deadlines import Calendar, counted, walk

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")
TOKYO = ZoneInfo("Asia/Tokyo")
H = timedelta(hours=1)


def local(tz: ZoneInfo, year: int, month: int, day: int, hour: int = 0) -> datetime:
    return datetime(year, month, day, hour, tzinfo=tz)


def test_plain_move_time_is_real_hours() -> None:
    cal = Calendar(PARIS, skip_weekends=False)
    start = local(PARIS, 2026, 3, 28, 12)  # Saturday before the clocks go forward
    due = walk(start, 24 * H, cal)
    assert due.astimezone(UTC) - start.astimezone(UTC) == 24 * H
    # The night was an hour short, so the wall clock says 13:00.
    assert due.astimezone(PARIS).hour == 13


def test_friday_evening_with_a_day_left_is_due_monday_evening() -> None:
    cal = Calendar(PARIS, skip_weekends=True)
    due = walk(local(PARIS, 2026, 3, 6, 18), 24 * H, cal)
    assert due.astimezone(PARIS) == local(PARIS, 2026, 3, 9, 18)


def test_weekend_skip_across_the_spring_clock_change() -> None:
    """Paris moves its clocks on Sunday 29 March 2026: Monday 18:00 local is
    still the deadline, 71 real hours after Friday 18:00 (6 + 0 + 18 counted)."""
    cal = Calendar(PARIS, skip_weekends=True)
    start = local(PARIS, 2026, 3, 27, 18)
    due = walk(start, 24 * H, cal)
    local_due = due.astimezone(PARIS)
    assert (local_due.date().isoformat(), local_due.hour, local_due.minute) == ("2026-03-30", 18, 0)
    assert due.astimezone(UTC) - start.astimezone(UTC) == 71 * H
    assert counted(start, due, cal) == 24 * H


def test_weekend_skip_across_the_autumn_clock_change() -> None:
    cal = Calendar(PARIS, skip_weekends=True)
    start = local(PARIS, 2026, 10, 23, 18)  # the clocks go back on Sunday 25 October
    due = walk(start, 24 * H, cal)
    assert due.astimezone(PARIS).replace(tzinfo=None) == datetime(2026, 10, 26, 18)
    assert due.astimezone(UTC) - start.astimezone(UTC) == 73 * H


def test_a_move_started_on_saturday_starts_counting_on_monday() -> None:
    cal = Calendar(NEW_YORK, skip_weekends=True)
    due = walk(local(NEW_YORK, 2026, 3, 7, 10), 30 * H, cal)  # Saturday; clocks change Sunday
    assert due.astimezone(NEW_YORK).replace(tzinfo=None) == datetime(2026, 3, 10, 6)


def test_weekends_are_the_players_own() -> None:
    """The same instant, Friday 20:00 UTC, is Saturday morning in Tokyo and
    Friday afternoon in New York."""
    start = datetime(2026, 3, 6, 20, tzinfo=UTC)
    tokyo = walk(start, 24 * H, Calendar(TOKYO, skip_weekends=True))
    new_york = walk(start, 24 * H, Calendar(NEW_YORK, skip_weekends=True))
    # Tokyo: weekend already running; counting starts Monday 00:00 Tokyo time.
    assert tokyo.astimezone(TOKYO).replace(tzinfo=None) == datetime(2026, 3, 10, 0)
    # New York: 9 h of Friday (15:00 EST to midnight), then 15 h of Monday (EDT by then).
    assert new_york.astimezone(NEW_YORK).replace(tzinfo=None) == datetime(2026, 3, 9, 15)
    assert tokyo != new_york


def test_a_long_move_skips_every_weekend_it_spans() -> None:
    cal = Calendar(PARIS, skip_weekends=True)
    due = walk(local(PARIS, 2026, 3, 2, 9), 10 * 24 * H, cal)  # Monday, ten days
    assert due.astimezone(PARIS).replace(tzinfo=None) == datetime(2026, 3, 16, 9)


def test_a_vacation_extends_the_deadline_by_its_length() -> None:
    start = datetime(2026, 3, 2, 0, tzinfo=UTC)
    away = (start + 24 * H, start + 48 * H)
    cal = Calendar(ZoneInfo("UTC"), False, (away,))
    assert walk(start, 72 * H, cal) == start + 96 * H


def test_a_deadline_inside_a_vacation_moves_past_it_plus_the_time_left() -> None:
    start = datetime(2026, 3, 2, 0, tzinfo=UTC)
    away = (start + 60 * H, start + 100 * H)
    cal = Calendar(ZoneInfo("UTC"), False, (away,))
    assert walk(start, 72 * H, cal) == start + 112 * H


def test_vacations_and_weekends_together() -> None:
    start = local(PARIS, 2026, 3, 5, 12)  # Thursday noon
    away = (local(PARIS, 2026, 3, 9, 0), local(PARIS, 2026, 3, 10, 0))  # all Monday
    cal = Calendar(PARIS, True, (away,))
    # Thursday 12h + Friday 24h = 36 h; 12 h more on Tuesday.
    assert walk(start, 48 * H, cal).astimezone(PARIS).replace(tzinfo=None) == datetime(
        2026, 3, 10, 12
    )


def test_a_vacation_already_under_way_pushes_the_start() -> None:
    start = datetime(2026, 3, 2, 12, tzinfo=UTC)
    away = (start - 2 * H, start + 10 * H)
    cal = Calendar(ZoneInfo("UTC"), False, (away,))
    assert walk(start, 24 * H, cal) == start + 34 * H


@pytest.mark.django_db
def test_deadline_after_reads_the_players_zone_and_vacations(
    started_game: Callable[..., Game],
) -> None:
    game = started_game(move_hours=24)
    seat = game.turn_seat
    assert seat is not None
    user = Seat.objects.get(game=game, index=seat).user
    assert user is not None
    user.time_zone = "Europe/Paris"
    user.save(update_fields=["time_zone"])
    friday = local(PARIS, 2026, 3, 27, 18)
    assert deadlines.deadline_after(game, seat, friday) == friday + 24 * H
    Game.objects.filter(pk=game.pk).update(skip_weekends=True)
    game.refresh_from_db()
    due = deadlines.deadline_after(game, seat, friday)
    assert due.astimezone(PARIS).replace(tzinfo=None) == datetime(2026, 3, 30, 18)
    Vacation.objects.create(
        user=user, starts_at=local(PARIS, 2026, 3, 30, 0), ends_at=local(PARIS, 2026, 4, 1, 0)
    )
    due = deadlines.deadline_after(game, seat, friday)
    assert due.astimezone(PARIS).replace(tzinfo=None) == datetime(2026, 4, 1, 18)


@pytest.mark.django_db
def test_a_new_turn_gets_its_deadline_from_the_service(started_game: Callable[..., Game]) -> None:
    t0 = datetime(2026, 3, 6, 20, tzinfo=UTC)  # a Friday evening
    with time_machine.travel(t0, tick=False):
        game = started_game(move_hours=48)
    assert game.deadline_at == t0 + 48 * H
    assert game.warned_at is None
