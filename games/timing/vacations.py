"""Vacations: a player declares an absence and their deadlines stop counting
while it lasts.

* An absence starts no more than an hour ago and no more than a year ahead,
  ends after it starts, and lasts at most a year.
* Each calendar year (in the player's time zone) allows
  ``settings.JUMBULAYA_VACATION_DAYS`` days of absence in all (30 by default);
  an absence that spans New Year counts in each year for its part.
* Absences may not overlap.
* Declaring one, or ending one early from the vacation page, recomputes the
  deadlines of the player's games where it is their turn (the counting time
  left stays the same) and re-arms their warnings.  A move made during an
  absence ends it too (:func:`games.timing.lateness.on_move`), and the deadlines
  it extended in the player's other games come back in, as when it is ended
  from the vacation page: the days not taken are not charged, so they must not
  count either.
* Opponents see when a player is back: :func:`away_until`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.core.projection import ServiceError
from games.models import Vacation
from games.timing import deadlines

#: How far back an absence may start (so "from now" is never refused).
START_GRACE = timedelta(hours=1)
#: How far ahead an absence may start, and the longest one.
HORIZON = timedelta(days=366)


class VacationRefused(ServiceError):
    code = "vacation_refused"


def allowance_days() -> int:
    """Days of absence allowed per calendar year."""
    return settings.JUMBULAYA_VACATION_DAYS


def _year_span(user: User, year: int) -> tuple[datetime, datetime]:
    tz = deadlines.time_zone(user.time_zone)
    return deadlines._local_midnight(date(year, 1, 1), tz), deadlines._local_midnight(
        date(year + 1, 1, 1), tz
    )


def _overlap(a: tuple[datetime, datetime], b: tuple[datetime, datetime]) -> timedelta:
    return max(timedelta(0), min(a[1], b[1]) - max(a[0], b[0]))


def used(user: User, year: int, *, exclude: int | None = None) -> timedelta:
    """The absence ``user`` has declared in calendar ``year`` (as it stands:
    an absence ended early counts up to its end)."""
    span = _year_span(user, year)
    rows = Vacation.objects.filter(user=user, starts_at__lt=span[1], ends_at__gt=span[0])
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    return sum((_overlap(deadlines.effective(v), span) for v in rows), timedelta(0))


@dataclass(frozen=True)
class Budget:
    year: int
    allowed: timedelta
    used: timedelta

    @property
    def left(self) -> timedelta:
        return max(timedelta(0), self.allowed - self.used)

    @property
    def left_days(self) -> float:
        return round(self.left / timedelta(days=1), 1)

    @property
    def used_days(self) -> float:
        return round(self.used / timedelta(days=1), 1)


def budget(user: User, year: int | None = None) -> Budget:
    """The user's absence allowance for ``year`` (this year by default)."""
    if year is None:
        year = timezone.now().astimezone(deadlines.time_zone(user.time_zone)).year
    return Budget(year, timedelta(days=allowance_days()), used(user, year))


def _days(amount: timedelta) -> str:
    days = round(amount / timedelta(days=1), 1)
    return f"{days:g} day{'' if days == 1 else 's'}"


def _when(moment: datetime, user: User) -> str:
    local = moment.astimezone(deadlines.time_zone(user.time_zone))
    return local.strftime("%a %d %b %Y %H:%M")


def declare(user: User, starts_at: datetime, ends_at: datetime) -> Vacation:
    """Record an absence for ``user`` and extend their deadlines by it.
    Raises :class:`VacationRefused` (nothing changed) with a reason."""
    now = timezone.now()
    if timezone.is_naive(starts_at) or timezone.is_naive(ends_at):
        raise VacationRefused("Give the start and end with their time zone.")
    if starts_at < now - START_GRACE:
        raise VacationRefused("An absence cannot start in the past: start it now or later.")
    if ends_at <= starts_at:
        raise VacationRefused("An absence must end after it starts.")
    if starts_at > now + HORIZON or ends_at - starts_at > HORIZON:
        raise VacationRefused("An absence starts within a year from now and lasts a year at most.")
    with transaction.atomic():
        # One declaration at a time per user, so two cannot both pass the checks.
        user = User.objects.select_for_update().get(pk=user.pk)
        for other in Vacation.objects.filter(
            user=user, starts_at__lt=ends_at, ends_at__gt=starts_at
        ):
            s, e = deadlines.effective(other)
            if s < ends_at and starts_at < e:
                raise VacationRefused(
                    f"This absence overlaps the one you declared from {_when(s, user)} to "
                    f"{_when(e, user)}: change the dates, or end that one first."
                )
        allowed = timedelta(days=allowance_days())
        tz = deadlines.time_zone(user.time_zone)
        for year in range(starts_at.astimezone(tz).year, ends_at.astimezone(tz).year + 1):
            span = _year_span(user, year)
            wanted = _overlap((starts_at, ends_at), span)
            taken = used(user, year)
            if taken + wanted > allowed:
                left = max(timedelta(0), allowed - taken)
                raise VacationRefused(
                    f"This absence takes {_days(wanted)} of {year}, but you have "
                    f"{_days(left)} left of your {allowance_days()} days for {year}."
                )
        before = deadlines.vacation_spans(user.pk, now - START_GRACE)
        vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
        deadlines.move_deadlines(user.pk, before, min(now, starts_at))
    return vacation


def end_early(user: User, vacation_id: int) -> Vacation:
    """End (or, if it has not begun, cancel) one of ``user``'s absences now.  The
    deadlines it extended come back in by the part that no longer happens."""
    now = timezone.now()
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        vacation = Vacation.objects.filter(user=user, pk=vacation_id).first()
        if vacation is None:
            raise VacationRefused("There is no such absence of yours.")
        if deadlines.effective(vacation)[1] <= now:
            raise VacationRefused("That absence is already over.")
        before = deadlines.vacation_spans(user.pk, now)
        vacation.ended_early_at = now
        vacation.save(update_fields=["ended_early_at"])
        deadlines.move_deadlines(user.pk, before, now)
    return vacation


def listed(user: User) -> list[Vacation]:
    """The user's absences, latest first."""
    return list(Vacation.objects.filter(user=user).order_by("-starts_at"))


def away_until(user: User) -> datetime | None:
    """When ``user``, now on vacation, is back; ``None`` if they are not away."""
    return deadlines.away_until_map([user.pk], timezone.now()).get(user.pk)


def away_until_many(user_ids: list[int]) -> dict[int, datetime]:
    """:func:`away_until` for several players at once (a game page's seats)."""
    return deadlines.away_until_map(user_ids, timezone.now())
