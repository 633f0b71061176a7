"""The event log and its projections.

``Event`` rows are the truth: append-only, numbered per game, the pair
(game, seq) unique, which is the optimistic-concurrency check.  ``Game`` is a
projection of its events (status, whose turn, deadline, last sequence and a
cached state) that ``manage.py rebuild_games`` can always rebuild.  Every change
to a game goes through :func:`games.core.door.submit`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.db.models import F, Q, QuerySet
from django.db.models.expressions import Combinable, CombinedExpression

from games import kinds

#: The time a game allows per move: at most two weeks, and at least the operator's
#: ``JUMBULAYA_MIN_MOVE_MINUTES`` (an hour unless chosen), which the form and the service
#: hold to. The database holds every game to the absolute floor, a minute: a constraint
#: cannot read a setting.
MAX_MOVE_HOURS = 14 * 24
MIN_MOVE_MINUTES_FLOOR, MAX_MOVE_MINUTES = 1, MAX_MOVE_HOURS * 60
#: Consecutive timeouts after which a seat is removed: its bounds.
MIN_TIMEOUT_LIMIT, MAX_TIMEOUT_LIMIT = 1, 20


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "waiting for players"
        PLAYING = "playing", "playing"
        OVER = "over", "over"

    #: Which game this is (:mod:`games.kinds`); a callable, so that a new kind
    #: needs no migration.
    kind = models.CharField(max_length=32, choices=kinds.choices, default=kinds.DEFAULT)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    seat_count = models.PositiveSmallIntegerField()
    rules = models.JSONField(help_text="the rules: a preset and its overrides")
    lexicon_name = models.CharField(max_length=64)
    lexicon_sha256 = models.CharField(max_length=64)
    move_minutes = models.PositiveIntegerField(
        default=72 * 60, help_text="time allowed per move, in minutes"
    )
    skip_weekends = models.BooleanField(
        default=False, help_text="Saturdays and Sundays (in each player's time zone) do not count"
    )
    timeout_limit = models.PositiveSmallIntegerField(
        default=3, help_text="consecutive timeouts after which a seat is removed from the game"
    )
    #: Whether the game's off-turn window is on, for a kind that has one
    #: (:attr:`games.kinds.base.GameKind.window`): the kind says what it seals.
    window_on = models.BooleanField(
        default=True,
        help_text="moves off one's turn are sealed until the game's off-turn window closes",
    )
    is_public = models.BooleanField(default=False, help_text="anyone signed in may watch")
    is_open = models.BooleanField(default=False, help_text="anyone signed in may join")
    hints = models.BooleanField(
        default=False, help_text="players may ask for the best word moves for their rack"
    )
    #: A rated game changes its players' ratings once, when it ends (:mod:`ratings`);
    #: a casual one changes nothing.  Rated games have no hints.
    rated = models.BooleanField(
        default=False, help_text="the game changes its players' ratings when it ends"
    )

    class RobotPace(models.TextChoices):
        NOW = "now", "at once"
        HUMAN = "human", "after a human-like delay (2 to 30 minutes)"

    robot_pace = models.CharField(
        max_length=8, choices=RobotPace, default=RobotPace.NOW, help_text="when robots answer"
    )
    #: A robot level that takes the seat of a player who resigns or is removed
    #: for timeouts; blank: the seat drops out.
    takeover_level = models.CharField(max_length=16, blank=True)

    # The projection: all of it follows from the events.
    status = models.CharField(max_length=8, choices=Status, default=Status.OPEN)
    last_seq = models.PositiveIntegerField(default=0)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The seats besides ``turn_seat`` that may move now, a bit a seat (seat n:
    #: ``1 << n``): 0 in every kind that moves in turns, both players of a
    #: sealed round of Tumble-Words until each has submitted.
    other_movers = models.PositiveIntegerField(default=0)
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    #: When the warning for the current deadline is due; cleared once it is owed.
    warn_at = models.DateTimeField(null=True, blank=True, db_index=True)
    #: When the warning for the current deadline went out (cleared when it moves).
    warned_at = models.DateTimeField(null=True, blank=True)
    #: While the game's off-turn window is open, when it closes.
    window_closes_at = models.DateTimeField(null=True, blank=True, db_index=True)
    end_reason = models.CharField(max_length=16, blank=True)
    state = models.JSONField(null=True, blank=True, help_text="cached state: server only")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "is_open"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    move_minutes__gte=MIN_MOVE_MINUTES_FLOOR, move_minutes__lte=MAX_MOVE_MINUTES
                ),
                name="move_minutes_bounds",
            ),
            models.CheckConstraint(
                condition=Q(
                    timeout_limit__gte=MIN_TIMEOUT_LIMIT, timeout_limit__lte=MAX_TIMEOUT_LIMIT
                ),
                name="timeout_limit_bounds",
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.pk}"

    def may_move(self, index: int) -> bool:
        """Whether seat ``index`` may move now (the projection's word for it)."""
        return self.turn_seat == index or bool(self.other_movers >> index & 1)

    @property
    def move_hours(self) -> float:
        """The time per move in hours: a whole number (an int) unless the game allows
        part of an hour. ``Game(move_hours=72)`` sets ``move_minutes`` to 4320."""
        hours, minutes = divmod(self.move_minutes, 60)
        return hours if minutes == 0 else self.move_minutes / 60

    @move_hours.setter
    def move_hours(self, hours: float) -> None:
        self.move_minutes = round(hours * 60)

    @property
    def move_time(self) -> str:
        """The time per move in words: "72 hours", "1 hour", "90 minutes"."""
        return move_time_in_words(self.move_minutes)


def move_time_in_words(minutes: int) -> str:
    """``minutes`` as hours when they are whole hours ("72 hours", "1 hour"), else as
    minutes ("15 minutes", "90 minutes")."""
    hours, rest = divmod(minutes, 60)
    if rest == 0:
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    invited_email = models.EmailField(blank=True)
    #: Who invited ``invited_email`` and when: the daily limit on invitations counts
    #: each player's, made with the game or to it later.
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    invited_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    #: Turns in a row this seat lost to the deadline.
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)
    #: No emails about this game for this seat.
    muted = models.BooleanField(default=False)
    #: The players' messages in this game are not shown to this seat (page and emails).
    messages_muted = models.BooleanField(default=False)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of game {self.game_id}"


class Event(models.Model):
    class Source(models.TextChoices):
        SYSTEM = "system", "the service"
        WEB = "web", "web page"
        LINK = "link", "turn link"
        EMAIL = "email", "email reply"
        DEADLINE = "deadline", "deadline"
        ROBOT = "robot", "robot"
        API = "api", "API"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    source = models.CharField(max_length=8, choices=Source)
    #: The event's fields that anyone who can see the game may see.
    payload = models.JSONField()
    #: The fields only ``private_seat`` may see (``None``: only the server).
    private = models.JSONField(null=True, blank=True)
    private_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique")]

    def __str__(self) -> str:
        return f"{self.type} #{self.seq} of game {self.game_id}"


class Notification(models.Model):
    """An email owed, written in the same transaction as the event that caused it
    (the outbox); the notifications work sends them."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "your turn"
        GAME_STARTED = "started", "game started"
        GAME_OVER = "game_over", "game over"
        INVITED = "invited", "invitation"
        DEADLINE_WARNING = "warning", "deadline warning"
        TIMED_OUT = "timed_out", "you were auto-passed"
        REMOVED = "removed", "a seat was removed for timeouts"
        WINDOW_OPEN = "window_open", "off-turn window open"
        WINDOW_CLOSED = "window_closed", "what became of your sealed moves"
        REPLY_DONE = "reply_done", "answer to an email reply: move made"
        REPLY_REFUSED = "reply_refused", "answer to an email reply: refused"
        REPLY_HINTS = "reply_hints", "answer to an email reply: hints"

    kind = models.CharField(max_length=16, choices=Kind)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True
    )
    email = models.EmailField(blank=True, help_text="for someone without an account yet")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications")
    event_seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    taken_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: After a failed send: not tried again before this.
    retry_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    #: The email reply this notification answers (the reply kinds only).
    inbound = models.ForeignKey(
        "InboundMail", on_delete=models.CASCADE, null=True, blank=True, related_name="answers"
    )
    #: The id the mail server gave the message (anymail's ``message_id``, else
    #: its ``Message-ID`` without angle brackets): what tracking events name.
    esp_message_id = models.CharField(max_length=255, blank=True, db_index=True)
    #: Not sent because mail to the recipient's address is stopped
    #: (:mod:`games.mail_out.tracking`): when, and why (a ``MailStatus.Stop``).
    held_at = models.DateTimeField(null=True, blank=True)
    held_reason = models.CharField(max_length=16, blank=True)

    class Meta:
        indexes = [models.Index(fields=["sent_at", "taken_at"])]

    def __str__(self) -> str:
        return f"{self.kind} for game {self.game_id}"


class RobotTurn(models.Model):
    """A robot's answer owed (to the game as it was at ``seq``), written in the
    same transaction as the move that made it owed, played by a task through
    the one door (:mod:`games.robots.turns`), like an email of the outbox."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="robot_turns")
    seat = models.PositiveSmallIntegerField()
    #: The game's ``last_seq`` the robot answers: its move's ``expected_seq``.
    seq = models.PositiveIntegerField()
    due_at = models.DateTimeField(db_index=True)
    taken_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: What came of it: ``moved``, ``wait``, ``stale``, ``passed`` (a refused answer)...
    outcome = models.CharField(max_length=16, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "seq"], name="robot_turn_unique")
        ]

    def __str__(self) -> str:
        return f"robot turn of seat {self.seat} at {self.seq} of game {self.game_id}"


class SeatChange(models.Model):
    """A seat changing hands in play: a robot taking over from a player who
    resigned or was removed for timeouts.  The seat, and its score, stay; the
    log says so after event ``seq``."""

    class Reason(models.TextChoices):
        RESIGNED = "resigned", "resigned"
        TIMEOUTS = "timeouts", "removed for timeouts"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_changes")
    seat = models.PositiveSmallIntegerField()
    seq = models.PositiveIntegerField()
    reason = models.CharField(max_length=8, choices=Reason)
    left = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats_left"
    )
    took_over = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats_taken_over"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq", "pk"]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id} changed at {self.seq}"


class NoInvitations(models.Model):
    """An address whose owner asked never to be invited to a game again (from the
    invitation email's unsubscribe link)."""

    email = models.EmailField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "addresses refusing invitations"

    def __str__(self) -> str:
        return self.email


class Vacation(models.Model):
    """A declared absence: the player's deadlines are extended by it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    #: Set when the player moved during the absence, which ends it.
    ended_early_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("starts_at")), name="vacation_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.starts_at:%Y-%m-%d}"


class RecordUpload(models.Model):
    """A ``jumbulaya-record/1`` game record a user uploaded to replay it: only its
    owner sees it.  ``record`` is the record as checked on upload (header and
    turns up to any refused one); the other fields summarise its replay."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="record_uploads"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    name = models.CharField(max_length=200, help_text="the uploaded file's name")
    record = models.JSONField(help_text="the parsed record")
    players = models.JSONField(default=list, help_text="the players' names, by seat")
    turn_count = models.PositiveIntegerField(default=0, help_text="turns replayed")
    end = models.CharField(max_length=16, blank=True, help_text="how the game ended, if it did")
    refusal = models.TextField(blank=True, help_text="why a turn was refused, if one was")
    size = models.PositiveIntegerField(
        default=0, help_text="the file's size in bytes, counted in its owner's room"
    )

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"record upload {self.pk} ({self.name})"


class InboundMail(models.Model):
    """An email received (a reply to a game email), processed once: the unique
    ``message_id`` makes an ESP that delivers the same message many times make
    one move.  Holds what was read and what came of it, not the whole message."""

    class Status(models.TextChoices):
        MOVED = "moved", "the move was made"
        REFUSED = "refused", "refused, with an answer"
        DROPPED = "dropped", "dropped without an answer"
        ANSWERED = "answered", "a question (such as hint), answered"
        SAID = "said", "a message to the players, posted"

    #: The Message-ID header, or ``sha256:`` of the message when it has none.
    message_id = models.CharField(max_length=255, unique=True)
    received_at = models.DateTimeField(auto_now_add=True)
    via = models.CharField(max_length=32, help_text="the ESP, or the local mailbox")
    sender = models.CharField(max_length=254, db_index=True, help_text="From, lower-cased")
    subject = models.CharField(max_length=255, blank=True)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    status = models.CharField(max_length=8, choices=Status)
    reason = models.TextField(blank=True, help_text="why it was refused or dropped")
    read = models.TextField(blank=True, help_text="the text the move was read from")
    move = models.CharField(max_length=120, blank=True, help_text="the move read, in notation")
    event_seq = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["sender", "received_at"])]

    def __str__(self) -> str:
        return f"{self.status}: {self.message_id}"


class GameAnalysis(models.Model):
    """A finished game's analysis (:mod:`games.coach.analysis`), made once by a
    task when the game ends: ``data`` is the engine's ``GameAnalysis.to_json()``."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    format = models.CharField(max_length=32)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    #: How long it took, in milliseconds (the robot's choices included).
    took_ms = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"analysis of game {self.game_id}"


class SeatHints(models.Model):
    """One seat's hints at one position (the game's ``seq``), found once by a
    task when that position makes it the seat's turn (:mod:`games.coach.hints`).
    They reveal the seat's rack: only that seat is ever shown them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_hints")
    seat = models.PositiveSmallIntegerField()
    #: The position they are for: the game's ``last_seq`` when they were found.
    seq = models.PositiveIntegerField()
    #: The hints, best first (:meth:`games.coach.hints.Hint.to_json` each);
    #: ``None`` when finding them failed.
    hints = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: How long finding them took, in milliseconds.
    took_ms = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "seq"], name="seat_hints_unique")
        ]

    def __str__(self) -> str:
        return f"hints of seat {self.seat} at {self.seq} of game {self.game_id}"


class MailStatus(models.Model):
    """Whether mail reaches one address (lower case), from what the ESPs and
    the mail server said (:mod:`games.mail_out.tracking`).  No row, or a row
    without ``stopped_at``, means mail goes."""

    class Stop(models.TextChoices):
        BOUNCED = "bounced", "it bounced: the receiving server says the address does not take mail"
        REJECTED = "rejected", "our mail provider refused to send to it"
        COMPLAINED = "complained", "a message to it was marked as spam"
        SOFT = "soft", "delivery kept failing for days"
        UNSUBSCRIBED = "unsubscribed", "you unsubscribed through our mail provider"

    address = models.EmailField(unique=True)
    #: When mail to the address stopped (None: it goes), why, and what was said.
    stopped_at = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=16, choices=Stop, blank=True)
    detail = models.CharField(max_length=300, blank=True)
    #: When the address's owner first saw the page's banner about the stop.
    warned_at = models.DateTimeField(null=True, blank=True)
    #: When mail last started again (the address confirmed again): events
    #: that happened before it no longer count.
    restored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "mail statuses"

    def __str__(self) -> str:
        return f"{self.address}: {'stopped (' + self.reason + ')' if self.stopped_at else 'ok'}"


class MailEvent(models.Model):
    """One thing an ESP (or the mail server, at send time) said about a message
    or an address: stored once (``key`` is unique), against the outbox row it
    concerns when there is one."""

    class Weight(models.TextChoices):
        HARD = "hard", "stops mail at once"
        SOFT = "soft", "counts towards a stop"
        COMPLAINT = "complaint", "stops mail and game emails"
        UNSUBSCRIBED = "unsubscribed", "turns game emails off"
        NONE = "", "changes nothing"

    class Ignored(models.TextChoices):
        """Why an event changed nothing, though stored (see ``tracking.record``)."""

        NOT_OURS = "not_ours", "it names no message we sent"
        OTHER_ADDRESS = "other_address", "the message it names went to another address"
        STALE = "stale", "it happened too long ago to say anything of the address today"
        FUTURE = "future", "it is dated in the future"
        TOO_LONG = "too_long", "its address is longer than an address can be"

    #: The ESP's event id, or what stands for it (see ``tracking.event_key``).
    key = models.CharField(max_length=200, unique=True)
    #: Who said it: ``postmark``, ``mailgun``, ``mailbox`` (the local one), ``send``.
    via = models.CharField(max_length=16)
    #: anymail's normalised event type: ``bounced``, ``deferred``, ``delivered``...
    event = models.CharField(max_length=16)
    weight = models.CharField(max_length=16, choices=Weight, blank=True)
    address = models.EmailField(db_index=True)
    message_id = models.CharField(max_length=255, blank=True)
    notification = models.ForeignKey(
        Notification, on_delete=models.SET_NULL, null=True, blank=True, related_name="mail_events"
    )
    occurred_at = models.DateTimeField()
    received_at = models.DateTimeField(auto_now_add=True)
    detail = models.CharField(max_length=300, blank=True)
    #: Set when the event is not taken into account, and why (its ``weight``
    #: is then none, whatever the event).
    ignored = models.CharField(max_length=16, choices=Ignored, blank=True)

    class Meta:
        indexes = [models.Index(fields=["address", "weight", "occurred_at"])]

    def __str__(self) -> str:
        return f"{self.event} for {self.address} via {self.via}"


class WebhookToken(models.Model):
    """A Mailgun webhook signature's token, kept while its timestamp is still
    accepted: its signature covers the timestamp and the token but not the
    event, so a token seen twice is a signature copied onto another post
    (:mod:`games.mail_in.webhook_tokens`)."""

    token = models.CharField(max_length=100, unique=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"webhook token seen {self.seen_at:%Y-%m-%d %H:%M:%S}"


class Message(models.Model):
    """A player's message to everyone in a game, sent with a move or on its
    own.  Kept apart from the event log: a message never changes the game's
    state or sequence; ``seq`` is the last event it follows, which places it
    in the log."""

    class Source(models.TextChoices):
        WEB = "web", "web page"
        EMAIL = "email", "email reply"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="messages")
    seat = models.PositiveSmallIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="game_messages"
    )
    #: The game's ``last_seq`` when it was posted (with a move: that move's).
    seq = models.PositiveIntegerField()
    text = models.TextField()
    source = models.CharField(max_length=8, choices=Source)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    #: Set by staff (the admin): the message is shown nowhere any more.
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seq", "created_at", "pk"]
        indexes = [
            models.Index(fields=["game", "seq"]),
            models.Index(fields=["author", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"message by seat {self.seat} of game {self.game_id} after {self.seq}"


class MessageReport(models.Model):
    """A player telling staff a message is abusive; staff read reports in the
    admin and may hide the message."""

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="message_reports"
    )
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When staff dealt with it (hid the message or left it).
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="one_report_per_reporter")
        ]

    def __str__(self) -> str:
        return f"report of message {self.message_id}"


def movers_mask(to_move: Sequence[int], turn: int | None) -> int:
    """:attr:`Game.other_movers` for the seats ``to_move`` with ``turn`` on turn."""
    return sum(1 << seat for seat in set(to_move) - {turn})


def moving_seats(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """``seats`` narrowed to those that may move now: on turn, or among their
    game's :attr:`~Game.other_movers`."""
    return seats.alias(other_mover=other_mover()).filter(
        Q(game__turn_seat=F("index")) | Q(other_mover=1)
    )


def other_mover() -> CombinedExpression:
    """1 for a seat row among its game's :attr:`~Game.other_movers`, else 0."""
    shifted = CombinedExpression(F("game__other_movers"), Combinable.BITRIGHTSHIFT, F("index"))
    return shifted.bitand(1)
