"""Who was late, counted after each move (a follower of
:class:`games.core.followers.Moved`): the seats' timeouts in a row, and a
vacation its player's own move ends (:mod:`games.timing.vacations`)."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from games.core.followers import Moved
from games.core.projection import kind_of
from games.models import Seat, Vacation
from games.timing.deadlines import (
    move_deadlines,
    timed_out_seats,
    vacation_ahead,
    vacation_spans,
)


def on_move(moved: Moved) -> None:
    """Bookkeeping after an accepted move (a follower, inside its transaction;
    the seats are the game's, locked with it; the deal counts nothing): count the seats'
    timeouts in a row (any turn a seat plays itself resets its count; a
    deadline that closes a simultaneous turn times out every seat it waited
    for), and a move by a player on vacation ends the vacation, bringing back
    in the deadlines it extended in their other games (see
    :mod:`games.timing.vacations`)."""
    if moved.mover is None:
        return
    game, seats, events = moved.game, moved.seats, moved.events
    kind = kind_of(game)
    seat = seats[moved.mover]
    mover = moved.mover
    others = [s for s in timed_out_seats(game, events) if s != mover]
    if others:
        Seat.objects.filter(game_id=game.pk, index__in=others).update(
            timeouts_in_a_row=F("timeouts_in_a_row") + 1
        )
        for other in others:  # the rows are locked with their game: these are the counts
            seats[other].timeouts_in_a_row += 1
    own = [e for e in events if kind.event_seat(e) == seat.index]
    if not own:
        return
    mine = Seat.objects.filter(pk=seat.pk)
    if any(kind.is_timeout(e) for e in own):
        mine.update(timeouts_in_a_row=F("timeouts_in_a_row") + 1)
        seat.timeouts_in_a_row += 1  # the row is locked with its game: this is the count
        return
    if all(kind.is_resignation(e) for e in own):
        return
    if seat.timeouts_in_a_row:
        mine.update(timeouts_in_a_row=0)
    if seat.user_id is not None and vacation_ahead(seat):
        now = timezone.now()
        before = vacation_spans(seat.user_id, now)
        ended = Vacation.objects.filter(
            user_id=seat.user_id, starts_at__lte=now, ends_at__gt=now, ended_early_at__isnull=True
        ).update(ended_early_at=now)
        if ended:
            move_deadlines(seat.user_id, before, now)
