"""Playing the robot turns owed (:mod:`games.robots.owed`) through the one door.

A row is taken under a row lock with ``skip_locked`` and the time it was taken,
so two workers (a task delivered twice, a sweep beside a task) never play the
same row; a row left by a worker that died is taken over once it was taken
:data:`TAKE_TIMEOUT` ago.  The move is submitted with the row's ``seq`` as its
``expected_seq`` and an idempotency key of the row, and the row is marked done
in the move's transaction: a turn is never played twice, and a turn a person
overtook (the game moved on first) is done without a move.

A robot on its turn always ends it, at once: an answer the rules refuse, a
``wait``, or a robot that fails to answer at all is logged (by its code or its
type: no tiles in the log) and the robot makes the first move the rules accept
of a pass and the kind's legal moves (:func:`ending_moves`), else it times out
as a robot answering too late does.  So no game ever waits on a robot longer
than the robot takes to answer.  Off its turn there is nothing to end: such an
answer is only logged, and a call the robot has sealed already is not sent
twice.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.core import door
from games.core.projection import current_state, game_lexicon, kind_of, load_events
from games.core.windows import AlreadyCalled
from games.engine.errors import Refusal
from games.kinds.base import GameKind, State, WordIndex
from games.models import Event, Game, RobotTurn

log = logging.getLogger(__name__)

#: How long taking a row protects it while its worker may have died.  A robot answers
#: within its time budget (well under a second; the protocol allows 10 s), so a
#: row taken a minute ago belongs to a dead worker: with beat's sweep every minute, a
#: robot turn a killed worker held is played within two minutes (as the outbox's).
TAKE_TIMEOUT = timedelta(seconds=60)
#: Tries per row before it is given up (the deadline then times the robot out).
MAX_ATTEMPTS = 5
#: Rows one sweep plays at most (the next sweep takes the rest).
SWEEP_BATCH = 200
#: The kind's legal moves a robot whose own answer could not be made tries, at
#: most, after a pass (a kind may have no pass, or allow it only without a move).
ENDING_MOVES = 3


def _takeable(now: datetime) -> Q:
    free = Q(taken_at__isnull=True) | Q(taken_at__lt=now - TAKE_TIMEOUT)
    return Q(done_at__isnull=True, attempts__lt=MAX_ATTEMPTS, due_at__lte=now) & free


def take(row_id: int, now: datetime | None = None) -> RobotTurn | None:
    """Take row ``row_id`` to play it; ``None`` if it is done, not due, or
    another worker has it."""
    now = now or timezone.now()
    with transaction.atomic():
        row = (
            RobotTurn.objects.select_for_update(skip_locked=True)
            .filter(_takeable(now), pk=row_id)
            .first()
        )
        if row is None:
            return None
        row.taken_at = now
        row.attempts += 1
        row.save(update_fields=["taken_at", "attempts"])
    return row


def play(row_id: int) -> str | None:
    """Take and play one row.  Returns what came of it (``moved``, ``wait``,
    ``stale``, ``passed``, ``refused``), or ``None`` when this call did not
    play it (or failed: the row is given back for the sweep)."""
    row = take(row_id)
    if row is None:
        return None
    try:
        return _play(row)
    except Exception as e:
        # The type only: an exception's words may name the robot's tiles.
        log.exception("game %s: robot turn %s failed (%s)", row.game_id, row.pk, type(e).__name__)
        RobotTurn.objects.filter(pk=row.pk).update(
            taken_at=None, last_error=f"{type(e).__name__}: {e}"[:1000]
        )
        return None


def sweep(now: datetime | None = None) -> int:
    """Play every row that is due and free to take (a lost nudge, a human
    pace's delay, a failed try).  Returns how many this sweep played."""
    now = now or timezone.now()
    ids = list(
        RobotTurn.objects.filter(_takeable(now))
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
    if kind.robots is None:
        return _done(row, "stale")  # a kind without robots seats none
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    state = current_state(game)
    on_turn = row.seat in kind.progress(state).to_move
    rng = random.Random(secrets.randbits(64))
    try:
        answer = kind.robots.play(
            load_events(game), state, row.seat, lexicon, holder.robot_level, rng
        )
    except Exception as e:  # a robot that cannot answer must not hold the game
        # The type only: an exception's words may name the robot's tiles.
        why = f"could not answer ({type(e).__name__})"
    else:
        if answer.strip().lower() != "wait":
            try:
                return _submit(row, holder, answer, "moved")
            except AlreadyCalled:
                return _done(row, "wait")  # its call is sealed already: judged once
            except Refusal as refusal:
                why = f"answered a move the rules refused ({refusal.code})"
        elif not on_turn:
            return _done(row, "wait")
        else:
            why = "answered wait on its turn"
    if not on_turn:
        log.warning("game %s: robot %s %s", game.pk, holder.robot_level, why)
        return _done(row, "refused")  # off its turn there is nothing to end
    log.warning("game %s: robot %s %s; it ends its turn", game.pk, holder.robot_level, why)
    for move in ending_moves(kind, state, row.seat, lexicon):
        try:
            return _submit(row, holder, move, "passed")
        except Refusal:
            continue
    if kind.progress(state).to_move != (row.seat,):
        # Seats that move at once: the others have still to move, and a timeout
        # would close the turn for them too.  Their moves owe this robot a turn again.
        return _done(row, "refused")
    # Nothing the rules accept: the robot misses its turn, as an answer too
    # late does (seat-view.md), and the log says it timed out.
    return _submit(row, holder, "timeout", "timed_out", Event.Source.DEADLINE)


def ending_moves(
    kind: GameKind, state: State, seat: int, lexicon: WordIndex | None
) -> Iterator[str]:
    """The moves that may end a robot's turn when its own answer could not:
    a pass, then the first few of the kind's legal moves (found only if the
    pass is refused)."""
    yield "pass"
    try:
        moves = kind.legal_moves(state, seat, lexicon)
    except Exception as e:  # the last resort must not raise past the others
        log.warning("robot seat %s: its legal moves were not found (%s)", seat, type(e).__name__)
        return
    yield from moves[:ENDING_MOVES]


def _submit(
    row: RobotTurn, robot: User, move: str, outcome: str, source: str = Event.Source.ROBOT
) -> str:
    """Make ``move`` for the robot and mark the row done, in one transaction;
    a game that moved on first (or a move already made) marks it ``stale``, and a
    call sealed off its turn (no event until the window closes) ``sealed``."""
    key = f"robot:{row.game_id}:{row.seat}:{row.seq}"
    try:
        with transaction.atomic():
            done = door.submit(row.game_id, robot, move, row.seq, source, key)
            if done.sealed:
                outcome = "sealed"
            RobotTurn.objects.filter(pk=row.pk).update(done_at=timezone.now(), outcome=outcome)
    except (door.StaleMove, door.DuplicateMove, door.NotAPlayer):
        return _done(row, "stale")
    return outcome
