"""The outbox: emails owed are ``Notification`` rows, written in the same
transaction as the event that caused them.  After the commit a task is nudged
to send them; a beat sweep sends whatever a lost nudge missed.  Each row is
taken with a conditional UPDATE before it is sent, so two senders never send
the same row.  Taking a row is a lease of :data:`TAKE_LEASE`, renewed every
:data:`HEARTBEAT` while its send is in progress (a thread of the sender's), so
a slow send is never taken over and a row left by a sender that died is taken
over by the next sweep once its lease has run out.

Once the mail server has taken a message, the sender does not let go of that
fact: it records the row sent, and while the database is away it keeps trying,
backing off, for up to :data:`RECORD_PATIENCE` (longer than a database
restart) before anything else may take the row.  A failed send's release is
retried the same way.  Should a row be sent again after all (its sender died
between the send and the record, or the database was away for longer than
that, or came back only after the lease ran out and a sweep took the row
first), the copy carries the same ``Message-ID`` as the first send (it is built
from the row), so mail clients and providers can drop it.

A send that failed because the database did is due again at the next sweep.
One that failed by our mail path (the server away or refusing our
credentials, sender or relaying; the ESP's API down or refusing our key:
:mod:`.whose_fault`) raises the operator's alarm (:mod:`.mail_alarm`, said
once, not per row) and blames no one: every row waits for the path's next
try, its attempt not counted, and goes once the path works (the first email
that goes clears the alarm).  A send that fails otherwise (the recipient
refused for now, a message refused for its content) is tried again later and
later: a minute, then twice as long each time up to ``MAX_RETRY_DELAY``,
:data:`MAX_ATTEMPTS` times in all (about a week), and a message that can
never go stops being tried (its ``last_error`` says why, in the admin).  A
recipient refused for good stops mail to the address (:mod:`.tracking`).

A "your turn" email (or a deadline's warning) to a player who is on the site
now (:mod:`games.live.presence`: a game page open and used in the last few
minutes, which is told of every move as it happens) is not sent but deferred,
uncounted, to when their presence runs out; by then it is sent only if it is
still their turn and no newer turn email of that game was owed them since.

Each recipient gets their emails in the order they were owed (by row id): a
row waits while an older row to the same recipient is still unsent, and
sending a row sends the rows it held back right after it.  So a turn email
whose first send failed is not overtaken by the next one; a row that has
failed :data:`HOLD_ATTEMPTS` times stops holding the others back (it goes when
it can), so one message that cannot go does not stop a player's mail for a
week.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from datetime import datetime, timedelta

from celery import current_app
from django.core.mail import EmailMultiAlternatives
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.live import presence
from games.mail_out import mail_alarm, tracking, whose_fault
from games.mail_out.emails import message_for
from games.mail_out.whose_fault import REASONS
from games.models import Game, InboundMail, MailStatus, Notification
from ops import logs
from ops.models import Alarm

log = logging.getLogger(__name__)

#: How long taking a row protects it without being renewed: a sender that died
#: (or lost the database) leaves the row to the next sweep after this.
TAKE_LEASE = timedelta(seconds=60)
#: How often a send in progress renews its lease (a third of the lease: two
#: renewals may fail before the row can be taken over).
HEARTBEAT = TAKE_LEASE / 3
#: How long a sender keeps trying to record what became of a send (sent, or
#: released for a retry) while the database does not answer.
RECORD_PATIENCE = timedelta(minutes=5)
#: The longest pause, in seconds, between two of those tries (and between two
#: tries to renew a lease once a renewal has failed).
RECORD_RETRY_MAX = 2.0
#: Errors that say the database is away (the connection dropped, the server is
#: restarting), not that the statement is wrong.
DATABASE_AWAY = (OperationalError, InterfaceError)
#: Rows one sweep takes at most: it sends the first NUDGE_BATCH and rings the
#: rest as send tasks (the next sweep takes what is left).
SWEEP_BATCH = 2000
#: Rows one nudge of :func:`one_nudge` names (one task sends them in turn).
NUDGE_BATCH = 50
#: Sends tried per row before it is given up; and the longest wait between two.
MAX_ATTEMPTS = 40
MAX_RETRY_DELAY = timedelta(hours=6)
#: Failed sends after which a row no longer holds back the recipient's later
#: rows (1 + 2 + 4 + ... + 128 minutes: about four hours of retries).
HOLD_ATTEMPTS = 8
#: What waits while its recipient is on the site (:mod:`games.live.presence`).
WAIT_WHILE_HERE = frozenset({Notification.Kind.YOUR_TURN, Notification.Kind.DEADLINE_WARNING})
#: The task that sends the rows a nudge names.
SEND_TASK = "games.tasks.send_notifications"
#: The rows waiting for :func:`one_nudge`'s nudge, inside one.
_pending: ContextVar[list[int] | None] = ContextVar("outbox_pending", default=None)


def owe(
    game: Game,
    kind: str,
    *,
    users: Iterable[int | None] = (),
    emails: Iterable[str] = (),
    seq: int | None = None,
    inbound: InboundMail | None = None,
    robots: Collection[int] | None = None,
) -> list[Notification]:
    """Record emails owed (inside the caller's transaction) and nudge a sender
    for after the commit.  ``inbound``: the email reply they answer.  Robots
    get no email: no row is written for a robot's account (``robots``: the
    robots' ids among ``users``, when the caller has them loaded; else read)."""
    ids = [uid for uid in users if uid is not None]
    if ids and robots is None:
        robots = set(
            User.objects.filter(pk__in=ids).exclude(robot_level="").values_list("pk", flat=True)
        )
    if robots:
        ids = [uid for uid in ids if uid not in robots]
    rows = [
        Notification(kind=kind, user_id=uid, game=game, event_seq=seq, inbound=inbound)
        for uid in ids
    ] + [Notification(kind=kind, email=email, game=game, event_seq=seq) for email in emails]
    created = Notification.objects.bulk_create(rows)
    nudge(n.pk for n in created)
    return created


def nudge(ids: Iterable[int]) -> None:
    """Ask a worker to send these rows once the transaction commits.  A broker
    that is down changes nothing: the move stands and the sweep sends them.
    Inside :func:`one_nudge`, the committed rows wait for its single nudge."""
    ids = list(ids)
    if not ids:
        return
    pending = _pending.get()
    if pending is not None:
        transaction.on_commit(lambda: pending.extend(ids))
    else:
        transaction.on_commit(lambda: _ring(ids))


@contextmanager
def one_nudge() -> Iterator[None]:
    """Collect the nudges of many transactions (a sweep's hundreds of
    timeouts) and ring once, in batches of :data:`NUDGE_BATCH`, at the end:
    one broker message per batch instead of one per transaction."""
    pending: list[int] = []
    token = _pending.set(pending)
    try:
        yield
    finally:
        _pending.reset(token)
        # After the commits whose rows it names: at once in autocommit, else
        # when the enclosing transaction commits (its callbacks run in order).
        transaction.on_commit(lambda: _ring_batches(pending))


def _ring_batches(ids: list[int]) -> None:
    for start in range(0, len(ids), NUDGE_BATCH):
        _ring(ids[start : start + NUDGE_BATCH])


def _ring(ids: list[int]) -> None:
    """Ask for :func:`games.tasks.send_notifications` by its name: the tasks
    import the outbox, not the other way round."""
    try:
        # A short argsrepr spares Celery a saferepr of the list on every move.
        current_app.send_task(SEND_TASK, (ids,), argsrepr=f"({len(ids)} rows)", kwargsrepr="{}")
    except Exception as e:  # the broker is a doorbell: the rows wait for the sweep
        log.warning("could not reach the broker (%s); %d emails wait for the sweep", e, len(ids))


def _same_recipient() -> Q:
    """Rows to the recipient of the outer row: the same user, or for a row
    without one (an invitation) the same address."""
    return Q(user_id=OuterRef("user_id")) | Q(
        user__isnull=True, email=OuterRef("email"), email__gt=""
    )


def _held_back() -> Exists:
    """An older row to the same recipient that is still to be sent first."""
    return Exists(
        Notification.objects.filter(
            _same_recipient(),
            pk__lt=OuterRef("pk"),
            sent_at__isnull=True,
            held_at__isnull=True,
            attempts__lt=HOLD_ATTEMPTS,
        )
    )


def _takeable() -> Q:
    now = timezone.now()
    free = Q(taken_at__isnull=True) | Q(taken_at__lt=now - TAKE_LEASE)
    due = Q(retry_at__isnull=True) | Q(retry_at__lte=now)
    return (
        Q(sent_at__isnull=True, held_at__isnull=True, attempts__lt=MAX_ATTEMPTS)
        & free
        & due
        & Q(~_held_back())
    )


def retry_delay(attempts: int) -> timedelta:
    """How long after its ``attempts``-th failed send a row is tried again."""
    return min(MAX_RETRY_DELAY, timedelta(minutes=2 ** min(attempts - 1, 16)))


def _take(notification_id: int) -> datetime | None:
    """Take a row for sending: the time it was taken (which names the lease), or None if
    the row is sent, not due, or another sender has it."""
    now = timezone.now()
    taken = Notification.objects.filter(_takeable(), pk=notification_id).update(
        taken_at=now, attempts=F("attempts") + 1
    )
    return now if taken == 1 else None


def take(notification_id: int) -> bool:
    """Take a row for sending; False if it is sent or another sender has it."""
    return _take(notification_id) is not None


def _reconnect() -> None:
    """Drop a connection that may be broken, so the next query opens a new one
    (never inside a transaction, which closing would break)."""
    if not connection.in_atomic_block:
        with suppress(Exception):
            connection.close()


class Heartbeat:
    """Renews a row's lease every :data:`HEARTBEAT` while its send is in
    progress, from a thread of its own (on its own database connection), so a
    live slow send is never taken over.  A renewal is conditional on the lease
    still being this sender's (its ``taken_at``); one that fails because the
    database is away is tried again every :data:`RECORD_RETRY_MAX` seconds."""

    def __init__(self, notification_id: int, taken_at: datetime) -> None:
        self.notification_id = notification_id
        #: The lease's current time: the one the next renewal or release names.
        self.taken_at = taken_at
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"outbox-heartbeat-{notification_id}", daemon=True
        )

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def renew(self) -> bool:
        """Move the lease's time to now; False if the row is no longer ours."""
        now = timezone.now()
        renewed = Notification.objects.filter(
            pk=self.notification_id, taken_at=self.taken_at, sent_at__isnull=True
        ).update(taken_at=now)
        if renewed:
            self.taken_at = now
        return renewed == 1

    def _run(self) -> None:
        pause = HEARTBEAT.total_seconds()
        try:
            while not self._stop.wait(pause):
                try:
                    if not self.renew():
                        log.warning("notification %s: its lease was lost", self.notification_id)
                        return
                    pause = HEARTBEAT.total_seconds()
                except DATABASE_AWAY:
                    _reconnect()
                    pause = RECORD_RETRY_MAX
        finally:
            with suppress(Exception):
                connection.close()  # this thread's own connection


def _record(notification_id: int, what: str, write: Callable[[], object]) -> bool:
    """Run ``write`` (the UPDATE that records what became of a send) until the
    database takes it: while the database is away, try again with back-off up
    to :data:`RECORD_RETRY_MAX` seconds apart, for :data:`RECORD_PATIENCE` at
    most, saying once that it waits.  Returns whether it was recorded."""
    give_up = time.monotonic() + RECORD_PATIENCE.total_seconds()
    pause = 0.1
    waited = False
    while True:
        try:
            write()
        except DATABASE_AWAY as e:
            if time.monotonic() >= give_up:
                log.error(
                    "notification %s was %s, but the database did not answer for %s: not "
                    "recorded (%s)",
                    notification_id, what, RECORD_PATIENCE, e,
                )  # fmt: skip
                return False
            if not waited:
                log.warning(
                    "notification %s was %s, but the database is away (%s): trying to "
                    "record it for up to %s",
                    notification_id, what, e, RECORD_PATIENCE,
                )  # fmt: skip
                waited = True
            _reconnect()
            time.sleep(pause)
            pause = min(2 * pause, RECORD_RETRY_MAX)
            continue
        if waited:
            log.warning("notification %s: recorded %s, the database is back", notification_id, what)
        return True


def _mark_sent(notification_id: int, sent_at: datetime, esp_message_id: str = "") -> None:
    Notification.objects.filter(pk=notification_id).update(
        sent_at=sent_at, last_error="", esp_message_id=esp_message_id[:255]
    )


def _mark_held(notification_id: int, reason: str, error: str = "") -> None:
    """Keep the row, not sent, and say why: mail to its address is stopped."""
    Notification.objects.filter(pk=notification_id, sent_at__isnull=True).update(
        held_at=timezone.now(), held_reason=reason, taken_at=None, last_error=error
    )


def _defer(notification_id: int, until: datetime) -> None:
    """Give the row back, due at ``until``, without counting this as an attempt."""
    Notification.objects.filter(pk=notification_id).update(
        taken_at=None, retry_at=until, attempts=F("attempts") - 1
    )


def _wait(notification_id: int, until: datetime, error: str) -> None:
    """Give the row back, due at ``until``, without counting this as an
    attempt: our mail path fails, not this message (``error`` says so)."""
    Notification.objects.filter(pk=notification_id, sent_at__isnull=True).update(
        taken_at=None, retry_at=until, attempts=F("attempts") - 1, last_error=error
    )


def message_id_of(message: EmailMultiAlternatives) -> str:
    """The id tracking events will name: the ESP's (anymail's ``message_id``),
    else the message's own ``Message-ID`` (SMTP, the local mailbox)."""
    status = getattr(message, "anymail_status", None)
    esp_id = getattr(status, "message_id", None) if status is not None else None
    if isinstance(esp_id, str) and esp_id:
        return tracking.clean_id(esp_id)
    return tracking.clean_id(str(message.extra_headers.get("Message-ID", "")))


def _release(notification_id: int, taken_at: datetime, retry_at: datetime, error: str) -> None:
    Notification.objects.filter(pk=notification_id, taken_at=taken_at, sent_at__isnull=True).update(
        taken_at=None, retry_at=retry_at, last_error=error
    )


def send(notification_id: int) -> bool:
    """Take and send one row.  Returns whether this call sent it."""
    taken_at = _take(notification_id)
    if taken_at is None:
        return False
    notification: Notification | None = None
    message: EmailMultiAlternatives | None = None
    held = ""
    here_until: datetime | None = None
    alarm: Alarm | None = None
    path_closed: datetime | None = None
    with Heartbeat(notification_id, taken_at) as heartbeat:
        try:
            notification = Notification.objects.select_related("game", "user").get(
                pk=notification_id
            )
            if (
                notification.kind in WAIT_WHILE_HERE
                and notification.user is not None
                and notification.game.status == Game.Status.PLAYING
            ):  # a turn of a game since over is dropped below, and holds nothing back
                here_until = presence.here_until(notification.user)
            held = "" if here_until else tracking.hold_reason(notification)
            if not held and not here_until:
                alarm = mail_alarm.send_alarm()
                path_closed = mail_alarm.closed_until(alarm)
            if not held and not here_until and not path_closed:
                message = message_for(notification)
            if message is not None:  # None: nothing to send (muted, digest, no email wanted)
                message.send()
        except Exception as e:
            failure: Exception | None = e
        else:
            failure = None
    if here_until is not None and failure is None:
        until = here_until
        _record(notification_id, "deferred", lambda: _defer(notification_id, until))
        logs.event("email_deferred", notification=notification_id, status="recipient_here")
        return False
    if held:
        _record(notification_id, "held", lambda: _mark_held(notification_id, held))
        logs.event("email_held", notification=notification_id, status=held)
        return False
    if path_closed is not None and failure is None:
        # Our mail path fails (the alarm is raised): not tried before its next try.
        closed, why = path_closed, _waiting_for(alarm)
        _record(notification_id, "left waiting", lambda: _wait(notification_id, closed, why))
        return False
    if failure is None:
        sent_at = timezone.now()
        esp_id = message_id_of(message) if message is not None else ""
        _record(notification_id, "sent", lambda: _mark_sent(notification_id, sent_at, esp_id))
        if message is not None and notification is not None:
            logs.event(
                "email_sent",
                game=notification.game_id,
                seq=notification.event_seq,
                notification=notification_id,
                kind=notification.kind,
            )
            mail_alarm.sent(alarm)
        return True
    return _failed(notification_id, notification, heartbeat.taken_at, failure)


def failed_after_all(notification_id: int, failure: Exception) -> bool:
    """A sent row's send taken back, as if the mail server had answered
    ``failure`` (the local mailbox's "Our server failed"): the row is owed
    again and the failure handled as :func:`send` handles one.  Returns
    whether the row was sent (else nothing changes)."""
    taken_at = timezone.now()
    taken = Notification.objects.filter(pk=notification_id, sent_at__isnull=False).update(
        sent_at=None, taken_at=taken_at, attempts=F("attempts") + 1
    )
    if not taken:
        return False
    notification = Notification.objects.select_related("game", "user").get(pk=notification_id)
    _failed(notification_id, notification, taken_at, failure)
    return True


def _waiting_for(alarm: Alarm | None) -> str:
    """A waiting row's ``last_error``: the alarm it waits for."""
    reason = alarm.reason if alarm is not None else ""
    return f"waiting: our mail path fails ({reason}: {REASONS.get(reason, '')})"[:1000]


def _failed(
    notification_id: int,
    notification: Notification | None,
    taken_at: datetime,
    failure: Exception,
) -> bool:
    """What a failed send of a taken row (taken at ``taken_at``) does,
    by whose fault it is (:mod:`.whose_fault`): always False (not sent).

    - The database's: due again at the next sweep, in one line.
    - Ours, on the mail path (the operator's alarm, said once: no line per
      row): the row waits for the path's next try, its attempt not counted,
      however long the outage lasts; a message refused for its content backs
      off as below.  No address is blamed.
    - The recipient's (a refusal of that address): it weighs on the address
      (:func:`tracking.send_failed`): held if refused for good, else backs off.
    - Anything else (building the message failed: a bug): logged with its
      traceback, tried again later and later, :data:`MAX_ATTEMPTS` times."""
    verdict = None if isinstance(failure, DATABASE_AWAY) else whose_fault.judge_send(failure)
    error = f"{type(failure).__name__}: {failure}"[:1000]
    if verdict is not None and verdict.ours:
        until = mail_alarm.send_failed(verdict)
        if until is not None:
            _record(notification_id, "left waiting", lambda: _wait(notification_id, until, error))
            return False
    elif isinstance(failure, DATABASE_AWAY):
        # An outage, not a fault of this email: one line, no traceback.
        first_line = (str(failure).strip().splitlines() or [""])[0][:200]
        log.warning(
            "notification %s was not sent: the database failed (%s: %s)",
            notification_id,
            type(failure).__name__,
            first_line,
        )
    elif verdict is not None:
        log.warning(
            "notification %s: its recipient was refused (%s)", notification_id, verdict.said
        )
    else:
        log.error("sending notification %s failed", notification_id, exc_info=failure)
    if isinstance(failure, DATABASE_AWAY) or notification is None:
        # The database failed, not the message: due again at the next sweep.
        retry_at = timezone.now()
    else:
        # Tried again later each time (taking the row counted the attempt).
        retry_at = timezone.now() + retry_delay(notification.attempts)
    recipients = verdict is not None and not verdict.ours
    if recipients and notification is not None and tracking.send_failed(notification, failure):
        # Refused for good (5xx): the address is stopped, and the row held.
        reason = tracking.hold_reason(notification) or MailStatus.Stop.BOUNCED
        _record(notification_id, "held", lambda: _mark_held(notification_id, reason, error))
        return False
    _record(
        notification_id,
        "not sent",
        lambda: _release(notification_id, taken_at, retry_at, error),
    )
    return False


def _held_by(notification_id: int) -> list[int]:
    """The unsent rows to the same recipient as row ``notification_id``, newer
    than it, oldest first: those it may have held back."""
    row = Notification.objects.filter(pk=notification_id).values("user_id", "email").first()
    if row is None:
        return []
    later = Notification.objects.filter(
        pk__gt=notification_id, sent_at__isnull=True, held_at__isnull=True
    )
    if row["user_id"] is not None:
        later = later.filter(user_id=row["user_id"])
    elif row["email"]:
        later = later.filter(user__isnull=True, email=row["email"])
    else:
        return []
    return list(later.order_by("pk").values_list("pk", flat=True))


def send_in_order(ids: Iterable[int]) -> int:
    """Send these rows (each one taken and sent by :func:`send`) and after
    each one sent, the rows to its recipient that it held back, until one of
    them does not go.  Returns how many were sent."""
    sent = 0
    for notification_id in ids:
        if not send(notification_id):
            continue
        sent += 1
        for later in _held_by(notification_id):
            if not send(later):
                break
            sent += 1
    return sent


def sweep() -> int:
    """Send the rows that are due and free to take, each recipient's in the
    order they were owed: the first :data:`NUDGE_BATCH` here, and the rest (a
    backlog, after the broker or the database was away) rung as send tasks in
    batches, so every worker process sends a share at once instead of this one
    task all of them in turn.  Returns how many this call sent.

    While our mail path fails (:mod:`.mail_alarm`) nothing is tried before
    its next try; then this batch tries it (the first row that goes clears
    the alarm, one that fails sets the next try and the others wait again)
    and the backlog waits for the next sweep."""
    alarm = mail_alarm.send_alarm()
    if mail_alarm.closed_until(alarm) is not None:
        return 0
    ids = list(
        Notification.objects.filter(_takeable())
        .order_by("pk")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    if alarm is None or alarm.retry_at is None:
        _ring_batches(ids[NUDGE_BATCH:])
    return send_in_order(ids[:NUDGE_BATCH])
