"""Playing the robot turns owed (:mod:`games.robots.owed`) through the one door.

A row is claimed under a row lock taken with ``skip_locked`` and a claim time,
so two workers (a task delivered twice, a sweep beside a task) never play the
same row; a claim left by a worker that died is taken over once it is
:data:`CLAIM_TIMEOUT` old.  The move is submitted with the row's ``seq`` as its
``expected_seq`` and an idempotency key of the row, and the row is marked done
in the move's transaction: a turn is never played twice, and a turn a person
overtook (the game moved on first) is done without a move.  A robot's answer
the rules refuse is logged (by its code: no tiles in the log) and the robot
passes instead, so a robot never stalls a game.
"""

from __future__ import annotations

import logging
import random
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.core import services
from games.core.projection import current_state, game_lexicon, kind_of, load_events
from games.engine.errors import Refusal
from games.models import Event, Game, RobotTurn

log = logging.getLogger(__name__)

#: How long a claim protects a row whose worker may have died.  A robot answers
#: within its time budget (well under a second; the protocol allows 10 s), so a
#: claim a minute old belongs to a dead worker: with beat's sweep every minute, a
#: robot turn a killed worker held is played within two minutes (as the outbox's).
CLAIM_TIMEOUT = timedelta(seconds=60)
#: Tries per row before it is given up (the deadline then times the robot out).
MAX_ATTEMPTS = 5
#: Rows one sweep plays at most (the next sweep takes the rest).
SWEEP_BATCH = 200


def _claimable(now: datetime) -> Q:
    unclaimed = Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - CLAIM_TIMEOUT)
    return Q(done_at__isnull=True, attempts__lt=MAX_ATTEMPTS, due_at__lte=now) & unclaimed


def claim(row_id: int, now: datetime | None = None) -> RobotTurn | None:
    """Take row ``row_id`` to play it; ``None`` if it is done, not due, or
    another worker has it."""
    now = now or timezone.now()
    with transaction.atomic():
        row = (
            RobotTurn.objects.select_for_update(skip_locked=True)
            .filter(_claimable(now), pk=row_id)
            .first()
        )
        if row is None:
            return None
        row.claimed_at = now
        row.attempts += 1
        row.save(update_fields=["claimed_at", "attempts"])
    return row


def play(row_id: int) -> str | None:
    """Claim and play one row.  Returns what came of it (``moved``, ``wait``,
    ``stale``, ``passed``, ``refused``), or ``None`` when this call did not
    play it (or failed: the claim is released for the sweep)."""
    row = claim(row_id)
    if row is None:
        return None
    try:
        return _play(row)
    except Exception as e:
        # The type only: an exception's words may name the robot's tiles.
        log.exception("game %s: robot turn %s failed (%s)", row.game_id, row.pk, type(e).__name__)
        RobotTurn.objects.filter(pk=row.pk).update(
            claimed_at=None, last_error=f"{type(e).__name__}: {e}"[:1000]
        )
        return None


def sweep(now: datetime | None = None) -> int:
    """Play every row that is due and free to take (a lost nudge, a human
    pace's delay, a failed try).  Returns how many this sweep played."""
    now = now or timezone.now()
    ids = list(
        RobotTurn.objects.filter(_claimable(now))
        .order_by("due_at", "pk")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    return sum(1 for pk in ids if play(pk) is not None)


def _done(row: RobotTurn, outcome: str) -> str:
    RobotTurn.objects.filter(pk=row.pk).update(done_at=timezone.now(), outcome=outcome)
    return outcome


def _play(row: RobotTurn) -> str:
    game = Game.objects.get(pk=row.game_id)
    if game.status != Game.Status.PLAYING or game.last_seq != row.seq:
        return _done(row, "stale")
    holder = game.seats.select_related("user").get(index=row.seat).user
    if holder is None or not holder.robot_level:
        return _done(row, "stale")
    kind = kind_of(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    state = current_state(game)
    rng = random.Random(secrets.randbits(64))
    if kind.robots is None:
        return _done(row, "stale")  # a kind without robots seats none
    answer = kind.robots.play(load_events(game), state, row.seat, lexicon, holder.robot_level, rng)
    if answer.strip().lower() == "wait":
        return _done(row, "wait")
    try:
        return _submit(row, holder, answer, "moved")
    except Refusal as refusal:
        log.warning(
            "game %s: robot %s's answer was refused (%s); it passes instead",
            game.pk,
            holder.robot_level,
            refusal.code,
        )
    if row.seat not in kind.progress(state).to_move:
        return _done(row, "refused")  # off its turn there is nothing to pass
    return _submit(row, holder, "pass", "passed")


def _submit(row: RobotTurn, robot: User, move: str, outcome: str) -> str:
    """Make ``move`` for the robot and mark the row done, in one transaction;
    a game that moved on first (or a move already made) marks it ``stale``."""
    key = f"robot:{row.game_id}:{row.seat}:{row.seq}"
    try:
        with transaction.atomic():
            services.submit(row.game_id, robot, move, row.seq, Event.Source.ROBOT, key)
            RobotTurn.objects.filter(pk=row.pk).update(done_at=timezone.now(), outcome=outcome)
    except (services.StaleMove, services.DuplicateMove, services.NotAPlayer):
        return _done(row, "stale")
    return outcome
