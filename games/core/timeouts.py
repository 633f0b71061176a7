"""Time-outs: a late move is timed out, and a seat late too often removed
(or taken over by a robot, when the game says so).

These are moves nobody sends, so they are made through the one door
(:func:`games.core.door.submit`); :mod:`games.timing.deadlines` decides which
are due and never imports this module.
"""

from __future__ import annotations

import logging
import time as time_module
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.core.door import StaleMove, submit
from games.core.projection import ServiceError, current_state, kind_of
from games.core.submitted import Submitted
from games.core.takeover import take_over
from games.engine.errors import Refusal
from games.mail_out import outbox
from games.models import Event, Game, Notification, SeatChange
from games.timing import deadlines

log = logging.getLogger(__name__)


def sweep_deadlines() -> int:
    """Send the warnings due and time out the late moves.  Returns the number of
    moves written (timeouts and removals)."""
    deadlines.warn_due()
    return time_out_due()


def time_out_due(now: datetime | None = None) -> int:
    """Claim the overdue games a batch at a time (:func:`games.timing.deadlines.claim_overdue`)
    and time out each one's seat to move, until none is left or
    :data:`games.timing.deadlines.SWEEP_BUDGET` is spent (the next sweep goes on).
    Returns the number of moves written."""
    now = now or timezone.now()
    began = time_module.monotonic()
    written = 0
    while time_module.monotonic() - began < deadlines.SWEEP_BUDGET.total_seconds():
        batch = deadlines.claim_overdue(now)
        with outbox.one_nudge():
            for pk, seq, hold, turn in batch:
                written += _time_out(pk, seq, hold, turn)
        if len(batch) < deadlines.SWEEP_BATCH:
            break
    return written


def _time_out(game_id: int, seq: int, hold: datetime, seat: int) -> int:
    """The claimed game's timeout (and the seat's removal if it was one timeout
    too many), in one transaction with the emails it owes."""
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.last_seq != seq or game.deadline_at != hold or game.turn_seat != seat:
                return 0  # a move or a vacation changed the game since the claim
            done = submit(game_id, seat, "timeout", seq, Event.Source.DEADLINE)
            if done.overtaken:
                return 0  # the timeout would have ended the game: a sealed JUMBULAYA did first
            written = 1
            kind = kind_of(done.game)
            at = kind.progress(done.state)
            # The seat on turn, or every seat a simultaneous turn still waited for.
            late = deadlines.timed_out_seats(done.game, done.events) or [seat]
            outbox.owe(
                done.game,
                Notification.Kind.TIMED_OUT,
                users=[done.seats[s].user_id for s in late],
                seq=at.seq,
            )
            for index in late:
                written += _remove_if_late_too_often(done, index)
            return written
    except StaleMove:
        return 0  # a move made in the same instant won
    except (ServiceError, Refusal) as e:
        log.warning("game %s: the deadline could not time out seat %s: %s", game_id, seat, e)
        return 0


def _remove_if_late_too_often(done: Submitted, seat: int) -> int:
    """After a timeout (in its transaction), remove ``seat`` if that was one
    timeout too many (a robot takes it over when the game says so).  Returns
    the moves written: 1 for a resignation, else 0."""
    game = done.game
    kind = kind_of(game)
    game.refresh_from_db(fields=["last_seq", "state", "status"])
    state = current_state(game)
    at = kind.progress(state)
    mover = done.seats[seat]
    if (
        mover.timeouts_in_a_row < game.timeout_limit
        or at.over
        or not kind.in_game(state, seat)
        or not deadlines.removal_may_go(mover.user_id, game.move_minutes)
    ):
        return 0
    if take_over(game, done.seats, seat, state, SeatChange.Reason.TIMEOUTS):
        return 0
    removed = submit(game.pk, seat, "resign", at.seq, Event.Source.DEADLINE)
    outbox.owe(
        removed.game,
        Notification.Kind.REMOVED,
        users=[s.user_id for s in done.seats],
        seq=kind.progress(removed.state).seq,
    )
    return 1
