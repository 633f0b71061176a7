"""Vacations: declaring, the yearly allowance, overlaps, ending early, and
the page."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.core.door import submit
from games.core.lobby import create_game, join_game
from games.engine.jumbulaya import PRESETS
from games.models import Game, Seat, Vacation
from games.timing import vacations

T0 = datetime(2026, 3, 2, 9, tzinfo=UTC)  # a Monday
H = timedelta(hours=1)
D = timedelta(days=1)

pytestmark = pytest.mark.django_db


def turn_user(game: Game) -> User:
    assert game.turn_seat is not None
    user = Seat.objects.get(game=game, index=game.turn_seat).user
    assert user is not None
    return user


def test_declaring_extends_deadlines_where_it_is_my_turn(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False):
        game = started_game(move_hours=72)
        me = turn_user(game)
        other = Seat.objects.exclude(user=me).get(game=game).user
        assert other is not None
        vacations.declare(me, T0 + 24 * H, T0 + 48 * H)
        game.refresh_from_db()
        assert game.deadline_at == T0 + 96 * H
        # The opponent's vacation changes nothing: it is not their turn.
        vacations.declare(other, T0 + 10 * H, T0 + 20 * H)
        game.refresh_from_db()
        assert game.deadline_at == T0 + 96 * H


def test_a_vacation_starting_within_the_hour_counts_from_its_start(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=72)
        me = turn_user(game)
        clock.move_to(T0 + 2 * H)
        vacations.declare(me, T0 + timedelta(minutes=90), T0 + 12 * H)
        game.refresh_from_db()
        # 10.5 hours of absence, all of it inside the running time.
        assert game.deadline_at == T0 + 72 * H + 10.5 * H
        assert vacations.away_until(me) == T0 + 12 * H


def test_refusals(started_game: Callable[..., Game], settings: object) -> None:
    with time_machine.travel(T0, tick=False):
        game = started_game()
        me = turn_user(game)
        with pytest.raises(vacations.VacationRefused, match="past"):
            vacations.declare(me, T0 - 2 * H, T0 + D)
        with pytest.raises(vacations.VacationRefused, match="end after it starts"):
            vacations.declare(me, T0 + D, T0 + D)
        first = vacations.declare(me, T0 + D, T0 + 21 * D)
        with pytest.raises(vacations.VacationRefused, match="overlaps"):
            vacations.declare(me, T0 + 20 * D, T0 + 22 * D)
        with pytest.raises(vacations.VacationRefused, match="10 days left"):
            vacations.declare(me, T0 + 30 * D, T0 + 41 * D)
        vacations.declare(me, T0 + 30 * D, T0 + 40 * D)
        assert vacations.budget(me).left == timedelta(0)
        for start, end in [
            (T0 + 400 * D, T0 + 401 * D),  # too far ahead
            (T0 + D, T0 + 400 * D),  # too long (and never counted year by year)
            (datetime(9999, 12, 30, tzinfo=UTC), datetime(9999, 12, 31, tzinfo=UTC)),
        ]:
            with pytest.raises(vacations.VacationRefused, match="within a year"):
                vacations.declare(me, start, end)
        assert Vacation.objects.filter(user=me).count() == 2
        assert first.pk


def test_the_allowance_is_a_setting_and_per_calendar_year(
    started_game: Callable[..., Game], settings: object
) -> None:
    settings.JUMBULAYA_VACATION_DAYS = 5
    december = datetime(2026, 12, 29, 12, tzinfo=UTC)
    with time_machine.travel(december, tick=False):
        game = started_game()
        me = turn_user(game)
        # 2.5 days in 2026 and 3.5 in 2027: each fits its own year.
        v = vacations.declare(me, december, december + 6 * D)
        assert vacations.budget(me, 2026).used == 2.5 * D
        assert vacations.budget(me, 2027).used == 3.5 * D
        with pytest.raises(vacations.VacationRefused, match="of 2027"):
            vacations.declare(me, december + 7 * D, december + 9 * D)
        assert v.pk


def test_moving_during_a_vacation_ends_it_and_changes_nothing_else(
    started_game: Callable[..., Game],
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=72)
        me = turn_user(game)
        vacation = vacations.declare(me, T0, T0 + 5 * D)
        game.refresh_from_db()
        assert game.deadline_at == T0 + 5 * D + 72 * H
        clock.move_to(T0 + 3 * H)
        submit(game.pk, game.turn_seat or 0, "pass", game.last_seq, "web")
        vacation.refresh_from_db()
        assert vacation.ended_early_at == T0 + 3 * H
        assert vacations.away_until(me) is None
        assert vacations.budget(me).used == 3 * H


def test_a_move_during_a_vacation_brings_back_the_deadlines_it_extended_elsewhere(
    started_game: Callable[..., Game], make_user: Callable[[str], User]
) -> None:
    """Else the absence could be declared, ended at once by a move, and declared
    again: a few hours of allowance for days of extra time in other games."""
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=72)
        me = turn_user(game)
        zed = make_user("zed")
        elsewhere = create_game(
            me, seat_count=2, rules=PRESETS["official"], invite_emails=[zed.email], move_hours=72
        )
        join_game(elsewhere.pk, zed)
        elsewhere.refresh_from_db()
        if elsewhere.turn_seat != 0:  # Zed passes: my turn there too
            submit(elsewhere.pk, 1, "pass", 1, "web")
        vacations.declare(me, T0, T0 + 5 * D)
        elsewhere.refresh_from_db()
        assert elsewhere.deadline_at == T0 + 5 * D + 72 * H
        clock.move_to(T0 + 3 * H)
        submit(game.pk, game.turn_seat or 0, "pass", game.last_seq, "web")
        elsewhere.refresh_from_db()
        # three hours of absence were taken: the deadline keeps those, no more
        assert elsewhere.deadline_at == T0 + 3 * H + 72 * H
        assert elsewhere.warned_at is None
        assert vacations.budget(me).used == 3 * H


def test_ending_early_brings_the_deadline_back(started_game: Callable[..., Game]) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        game = started_game(move_hours=72)
        me = turn_user(game)
        vacation = vacations.declare(me, T0 + 10 * H, T0 + 4 * D)
        clock.move_to(T0 + 20 * H)
        vacations.end_early(me, vacation.pk)
        game.refresh_from_db()
        # Ten hours of it happened: the deadline keeps those.
        assert game.deadline_at == T0 + 82 * H
        assert game.warned_at is None
        with pytest.raises(vacations.VacationRefused, match="already over"):
            vacations.end_early(me, vacation.pk)


def test_away_until_follows_vacations_that_run_on(make_user: Callable[[str], User]) -> None:
    me = make_user("ann")
    Vacation.objects.create(user=me, starts_at=T0 - H, ends_at=T0 + D)
    Vacation.objects.create(user=me, starts_at=T0 + D, ends_at=T0 + 3 * D)
    Vacation.objects.create(user=me, starts_at=T0 + 5 * D, ends_at=T0 + 6 * D)
    with time_machine.travel(T0, tick=False):
        assert vacations.away_until(me) == T0 + 3 * D
        assert vacations.away_until_many([me.pk]) == {me.pk: T0 + 3 * D}
    with time_machine.travel(T0 + 4 * D, tick=False):
        assert vacations.away_until(me) is None


def test_the_vacation_page(make_user: Callable[[str], User]) -> None:
    me = make_user("ann")
    me.time_zone = "Europe/Paris"
    me.save()
    client = Client()
    url = reverse("games:vacation")
    assert client.get(url).status_code == 302
    client.force_login(me)
    with time_machine.travel(T0, tick=False):
        page = client.get(url)
        assert page.status_code == 200
        assert b"30 days" in page.content
        done = client.post(
            url,
            {"action": "declare", "starts_at": "2026-03-10T08:00", "ends_at": "2026-03-12T08:00"},
        )
        assert done.status_code == 302
        v = Vacation.objects.get(user=me)
        assert v.starts_at == datetime(2026, 3, 10, 7, tzinfo=UTC)  # 08:00 in Paris
        refused = client.post(
            url,
            {"action": "declare", "starts_at": "2026-03-11T08:00", "ends_at": "2026-03-13T08:00"},
        )
        assert refused.status_code == 400
        assert b"overlaps" in refused.content
        assert b"Traceback" not in refused.content
        bad = client.post(url, {"action": "declare", "starts_at": "soon", "ends_at": ""})
        assert bad.status_code == 400
        client.post(url, {"action": "end", "vacation": str(v.pk)})
        v.refresh_from_db()
        assert v.ended_early_at == T0
        page = client.get(url)
        assert b"cancelled" in page.content
        nothing = client.post(url, {"action": "end", "vacation": "nope"}, follow=True)
        assert b"no such absence" in nothing.content
