"""Deadlines: when a move is due, the warning before it, and what happens when
it is late.

**Counting time.**  A seat has ``move_hours`` of *counting time* for a move.
Time stops counting while the player is on a declared vacation and, in games
that skip weekends, from Saturday 00:00 to Monday 00:00 in the player's own
time zone.  Hours are real elapsed hours (a day that has 23 or 25 hours because
the clocks change counts as 23 or 25), and the weekend is bounded by local
midnights, so a move due Friday 18:00 with 24 hours left is due Monday 18:00
local time whatever the clocks did over the weekend.

**The sweep** (every minute, :func:`games.core.timeouts.sweep_deadlines`):

* *Warnings*: once per deadline, a third of the move time before it, at most
  24 hours before (a 72-hour move is warned 24 hours ahead, a 12-hour move 4
  hours ahead).  Whenever a deadline is set, ``warn_at`` (indexed, like
  ``deadline_at``) is set with it (:func:`deadline_fields`); a warning is
  claimed by ``UPDATE ... SET warn_at = NULL WHERE warn_at IS NOT NULL`` so it
  goes once, and a deadline that moves re-arms it.
* *Timeouts*: games whose ``deadline_at`` has passed are claimed a batch at a
  time: their rows are read with ``SKIP LOCKED`` and one conditional UPDATE
  moves their ``deadline_at`` ``CLAIM_HOLD`` ahead, so a concurrent sweep takes
  other games (or, without row locks, finds them no longer due).  A sweep that dies after claiming
  leaves a deadline that falls due again a minute later, so the next sweep
  takes it over.  The timeout itself is a move, so the one door makes it
  (:func:`games.core.timeouts.time_out_due`, through :func:`games.core.door.submit`)
  with ``expected_seq`` = the sequence the sweep saw, so a move made in the
  same instant either lands first (the timeout is stale and skipped) or is
  refused by its own stale check: never both, never a double timeout.
* *Removal*: the timeout that brings a seat's ``timeouts_in_a_row`` to the
  game's ``timeout_limit`` resigns that seat in the same transaction and tells
  every player.  The game goes on while two or more players remain.  A seat
  whose player's mail has stopped is still auto-passed, but not removed until
  mail reaches them again or they have seen the page's warning at least one
  full move time ago (:func:`removal_may_go`); the next timeout after that
  removes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games.core.projection import kind_of
from games.kinds.base import KindEvent
from games.mail_out import outbox, tracking
from games.models import Event as EventRow
from games.models import Game, Notification, Seat, Vacation, moving_seats

#: How far a sweep's claim moves an overdue deadline: a claim left by a sweep
#: that died is taken over by the sweep after it.
CLAIM_HOLD = timedelta(minutes=1)
#: Games one claim takes (a sweep claims batch after batch).
SWEEP_BATCH = 200
#: How long one sweep goes on claiming; beat starts the next a minute later.
SWEEP_BUDGET = timedelta(seconds=45)
#: The longest warning lead, and the share of the move time for shorter ones.
MAX_WARNING_LEAD = timedelta(hours=24)
WARNING_SHARE = 3

Interval = tuple[datetime, datetime]


# --- counting time -------------------------------------------------------------


def time_zone(name: str | None) -> ZoneInfo:
    """The zone called ``name``, or UTC when it is not one."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _local_midnight(day: date, tz: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=tz)


def weekend_at_or_after(moment: datetime, tz: ZoneInfo) -> Interval:
    """The weekend (Saturday 00:00 to Monday 00:00 in ``tz``) that contains
    ``moment`` or, failing that, the next one."""
    day = moment.astimezone(tz).date()
    weekday = day.weekday()  # Monday 0 … Sunday 6
    saturday = day - timedelta(days=weekday - 5) if weekday >= 5 else day + timedelta(5 - weekday)
    start = _local_midnight(saturday, tz).astimezone(UTC)
    end = _local_midnight(saturday + timedelta(days=2), tz).astimezone(UTC)
    return start, end


def effective(vacation: Vacation) -> Interval:
    """The span a vacation really covers: it stops when it was ended early (a
    vacation ended before it began covers nothing)."""
    end = vacation.ends_at
    if vacation.ended_early_at is not None:
        end = min(end, max(vacation.starts_at, vacation.ended_early_at))
    return vacation.starts_at, end


def vacation_spans(user_id: int | None, after: datetime) -> list[Interval]:
    """The user's vacations (as they stand) that end after ``after``."""
    if user_id is None:
        return []
    spans = [effective(v) for v in Vacation.objects.filter(user_id=user_id, ends_at__gt=after)]
    return sorted((s, e) for s, e in spans if e > after and e > s)


@dataclass(frozen=True)
class Calendar:
    """When a player's time does not count: weekends (if skipped) and vacations."""

    tz: ZoneInfo
    skip_weekends: bool
    vacations: tuple[Interval, ...] = ()

    def next_stop(self, moment: datetime) -> Interval | None:
        """The stop containing ``moment`` (start ≤ moment < end), else the next
        one to begin; ``None`` when time counts from here on."""
        spans: list[Interval] = [
            (s.astimezone(UTC), e.astimezone(UTC)) for s, e in self.vacations if e > moment
        ]
        if self.skip_weekends:
            spans.append(weekend_at_or_after(moment, self.tz))
        if not spans:
            return None
        inside = [s for s in spans if s[0] <= moment]
        if inside:
            return min(inside, key=lambda s: s[1])
        return min(spans)


def walk(start: datetime, amount: timedelta, calendar: Calendar) -> datetime:
    """The moment ``amount`` of counting time after ``start`` (in UTC: the sums
    are of real time, whatever the clocks do).  Stops are skipped; a deadline
    never lands inside one (it moves past it)."""
    cursor, left = start.astimezone(UTC), amount
    for _ in range(10_000):  # stops are finite in any window a deadline spans
        stop = calendar.next_stop(cursor)
        if stop is None:
            return cursor + left
        begin, end = stop
        if begin <= cursor:
            cursor = end
            continue
        if cursor + left <= begin:
            return cursor + left
        left -= begin - cursor
        cursor = end
    raise RuntimeError("a deadline that never comes")


def counted(start: datetime, end: datetime, calendar: Calendar) -> timedelta:
    """The counting time between ``start`` and ``end`` (zero if ``end`` is not
    later)."""
    total, cursor, end = timedelta(0), start.astimezone(UTC), end.astimezone(UTC)
    while cursor < end:
        stop = calendar.next_stop(cursor)
        if stop is None:
            return total + (end - cursor)
        begin, stop_end = stop
        if begin > cursor:
            total += min(begin, end) - cursor
        cursor = max(cursor, stop_end)
    return total


def _seat_user(game: Game, seat: int) -> tuple[int | None, str]:
    row = (
        Seat.objects.filter(game_id=game.pk, index=seat)
        .values_list("user_id", "user__time_zone")
        .first()
    )
    if row is None:
        return None, "UTC"
    return row[0], row[1] or "UTC"


def calendar_for(game: Game, user_id: int | None, tz_name: str, after: datetime) -> Calendar:
    return Calendar(time_zone(tz_name), game.skip_weekends, tuple(vacation_spans(user_id, after)))


def with_vacation_flags(seats: QuerySet[Seat], now: datetime) -> QuerySet[Seat]:
    """``seats`` with their users, each annotated ``vacation_ahead``: whether its
    user has a vacation that ends after ``now``.  The move path reads (and ends)
    vacations only for players who have one, which is seldom."""
    ahead = Vacation.objects.filter(user_id=OuterRef("user_id"), ends_at__gt=now)
    return seats.select_related("user").annotate(vacation_ahead=Exists(ahead))


def vacation_ahead(seat: Seat) -> bool:
    """Whether ``seat``'s user may have a vacation ahead (True unless the row
    came from :func:`with_vacation_flags` and says otherwise)."""
    return bool(getattr(seat, "vacation_ahead", True))


def deadline_after(game: Game, seat: int, now: datetime, row: Seat | None = None) -> datetime:
    """When ``seat``'s move, due from ``now``, is late: ``move_hours`` of counting
    time after ``now``.  ``row`` is the seat's row with its user, when the caller
    has it already (from :func:`with_vacation_flags`, it spares the vacation
    query for a player who has none ahead)."""
    if row is None:
        user_id, tz_name = _seat_user(game, seat)
    else:
        user_id = row.user_id if vacation_ahead(row) else None
        tz_name = row.user.time_zone if row.user is not None else "UTC"
    calendar = calendar_for(game, user_id, tz_name, now)
    return walk(now, timedelta(minutes=game.move_minutes), calendar)


def warning_lead(move_hours: float) -> timedelta:
    """How long before the deadline the warning goes: a third of the move
    time, at most 24 hours."""
    return min(MAX_WARNING_LEAD, timedelta(hours=move_hours) / WARNING_SHARE)


def deadline_fields(game: Game, deadline: datetime | None) -> dict[str, datetime | None]:
    """The projection's fields for a new ``deadline`` (``None``: none): the
    deadline, when its warning is due, and no warning sent for it yet."""
    warn = None if deadline is None else deadline - warning_lead(game.move_hours)
    return {"deadline_at": deadline, "warn_at": warn, "warned_at": None}


def recount(game: Game, before: Calendar, after: Calendar, since: datetime) -> datetime | None:
    """The seat's deadline once its calendar changed from ``before`` to
    ``after`` at ``since``: the counting time left stays the same."""
    if game.deadline_at is None:
        return None
    left = counted(since, game.deadline_at, before)
    return walk(since, left, after)


def move_deadlines(user_id: int, old_spans: Sequence[Interval], since: datetime) -> int:
    """Recompute the deadlines of the games where it is ``user_id``'s turn after
    their vacations changed at ``since`` (``old_spans``: their vacation spans
    before the change, from :func:`vacation_spans`).  The counting time left on
    each deadline stays the same; every deadline that moves has its warning
    re-armed.  Call inside a transaction.  Returns how many deadlines moved."""
    moved = 0
    seats = moving_seats(
        Seat.objects.filter(user_id=user_id, game__status=Game.Status.PLAYING)
    ).values_list("game_id", "index", "user__time_zone")
    for game_id, index, tz_name in seats:
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.PLAYING or not game.may_move(index):
            continue
        # The turn began at or before the last event: from whichever is later,
        # the time up to now was running time of this turn.
        last = EventRow.objects.filter(game_id=game_id, seq=game.last_seq).first()
        start = max(since, last.created_at) if last is not None else since
        new_cal = calendar_for(game, user_id, tz_name, start)
        old_cal = Calendar(new_cal.tz, new_cal.skip_weekends, tuple(old_spans))
        deadline = recount(game, old_cal, new_cal, start)
        if deadline is None or deadline == game.deadline_at:
            continue
        Game.objects.filter(pk=game_id).update(**deadline_fields(game, deadline))
        moved += 1
    return moved


# --- after a move ----------------------------------------------------------------


def timed_out_seats(game: Game, events: Sequence[KindEvent]) -> list[int]:
    """The seats ``events`` time out, in order: the one on turn, or every seat
    a simultaneous turn (a sealed round) still waited for when it closed."""
    kind = kind_of(game)
    found = (kind.event_seat(e) for e in events if kind.is_timeout(e))
    return list(dict.fromkeys(s for s in found if s is not None))


# --- the sweep -------------------------------------------------------------------


def warn_due(now: datetime | None = None) -> int:
    """Owe each warning that has come due, once.  Returns how many."""
    now = now or timezone.now()
    candidates = (
        Game.objects.filter(
            status=Game.Status.PLAYING,
            warn_at__lte=now,
            deadline_at__gt=now,
            turn_seat__isnull=False,
        )
        .order_by("warn_at")
        .values_list("pk", "last_seq", "deadline_at", "turn_seat")[:SWEEP_BATCH]
    )
    sent = 0
    for pk, seq, deadline, turn in candidates:
        assert turn is not None  # filtered above
        with transaction.atomic():
            claimed = Game.objects.filter(
                pk=pk, last_seq=seq, deadline_at=deadline, warn_at__isnull=False
            ).update(warn_at=None, warned_at=now)
            if claimed != 1:
                continue
            game = Game.objects.get(pk=pk)
            # Every seat that may still move: the one on turn, and the others of a
            # simultaneous turn that have not moved yet.
            users = moving_seats(Seat.objects.filter(game_id=pk)).order_by("index")
            outbox.owe(
                game,
                Notification.Kind.DEADLINE_WARNING,
                users=list(users.values_list("user_id", flat=True)),
                seq=seq,
            )
            sent += 1
    return sent


def claim_overdue(now: datetime) -> list[tuple[int, int, datetime, int]]:
    """Claim up to :data:`SWEEP_BATCH` overdue games in one short transaction:
    their rows are read with ``SKIP LOCKED`` (a concurrent sweep takes others)
    and their ``deadline_at`` moved :data:`CLAIM_HOLD` ahead by one conditional
    UPDATE.  Returns (game, last_seq, hold, turn_seat) of each claimed game."""
    hold = timezone.now() + CLAIM_HOLD
    with transaction.atomic():
        rows = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(status=Game.Status.PLAYING, deadline_at__lte=now, turn_seat__isnull=False)
            .order_by("deadline_at")
            .values_list("pk", "last_seq", "turn_seat")[:SWEEP_BATCH]
        )
        if not rows:
            return []
        claimed = Game.objects.filter(
            pk__in=[pk for pk, _, _ in rows], status=Game.Status.PLAYING, deadline_at__lte=now
        ).update(deadline_at=hold, warn_at=None)  # late: no warning any more
        if claimed != len(rows):  # without row locks (SQLite), another sweep got some
            taken = set(
                Game.objects.filter(pk__in=[pk for pk, _, _ in rows], deadline_at=hold).values_list(
                    "pk", flat=True
                )
            )
            rows = [row for row in rows if row[0] in taken]
    return [(pk, seq, hold, turn) for pk, seq, turn in rows if turn is not None]


def away_until_map(user_ids: Iterable[int], now: datetime) -> dict[int, datetime]:
    """For each of ``user_ids`` on vacation at ``now``, when they are back."""
    back: dict[int, datetime] = {}
    rows = Vacation.objects.filter(
        Q(ended_early_at__isnull=True) | Q(ended_early_at__gt=now),
        user_id__in=list(user_ids),
        ends_at__gt=now,
    ).order_by("starts_at")
    spans: dict[int, list[Interval]] = {}
    for v in rows:
        spans.setdefault(v.user_id, []).append(effective(v))
    for uid, items in spans.items():
        end: datetime | None = None
        for s, e in items:
            if e <= s:
                continue
            if end is None and s <= now < e:
                end = e
            elif end is not None and s <= end:  # a vacation that follows on
                end = max(end, e)
        if end is not None:
            back[uid] = end
    return back


def removal_may_go(user_id: int | None, move_minutes: int, now: datetime | None = None) -> bool:
    """Whether a seat at its limit of missed turns may be removed: its
    player's mail is not stopped, or they were warned on the page at least
    ``move_minutes`` ago (a full deadline's time to act on it)."""
    return tracking.removal_may_go(user_id, move_minutes, now or timezone.now())
