"""Hints for one seat of a game: the best moves for its rack (or its roll) at
one position, found once, off the request, and stored (issue 27).

A game shows hints only when its ``hints`` option is on, and only to the seat
to move, whose rack they reveal (:func:`owed`).  When a move (or the deal)
makes it a person's turn in such a game, :func:`after_move`, a step of the one
door, rings :data:`PREPARE_TASK` after the commit; the task runs
:func:`prepare`, which finds that seat's hints with the kind's robots
(``hints``, from the seat's view only) and stores them in a
:class:`~games.models.SeatHints` row for that position, once: the row is
unique per (game, seat, seq), so a nudge delivered twice, or the sweep racing
a nudge, stores one.  :func:`sweep` (beat) prepares what a lost nudge missed.

:func:`hints_now` is what the game page and the answer to a ``hint`` reply
read: the row of the game's current position, never an older one's.  Until it
exists the page says the hints are being prepared (they are never found in a
page's request); a ``hint`` reply that arrives first prepares them itself,
through :func:`prepare`, so they are found once whichever asks first.  They
are put in words by the kind's presentation, on the page (its compose
template) and in the answer to a ``hint`` reply
(:func:`games.mail_in.hint_answers.hints_text`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from celery import current_app
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Exists, OuterRef

from games import kinds
from games.core.followers import Moved
from games.core.projection import current_state, game_lexicon, kind_of, load_events
from games.models import Game, Seat, SeatHints, moving_seats

log = logging.getLogger(__name__)

#: How many hints a seat is shown.
HINTS = 5
#: The task that prepares one seat's hints (``games.tasks.prepare_hints``), rung by name.
PREPARE_TASK = "games.tasks.prepare_hints"
#: Positions one sweep prepares at most (the next sweep goes on).
SWEEP_BATCH = 20

#: What :attr:`HintsNow.pending` says while a task finds the hints, and when it failed.
PREPARING = "preparing"
FAILED = "failed"

#: What a reply asking for hints is read as (by the kind's reply reading).
HINT_REPLY = "hint"
#: The answer to a ``hint`` reply in a game without hints.
HINTS_OFF = (
    "Hints are off in this game: its creator chose to play without them, so none are "
    "shown, by email or on the game page."
)


@dataclass(frozen=True)
class Hint:
    """A hint as stored and shown: its notation, the points it scores, what
    the seat gains by it (JUMBULAYA: less when the seat owns the line already;
    Blockers: the score the move leaves) and whether it captures (Blockers)."""

    notation: str
    points: int
    gain: int
    captures: bool = False

    @classmethod
    def of(cls, found: Any) -> Hint:
        """A hint of a kind's robots (each kind has its own class), as stored."""
        captures = bool(getattr(found, "captures", False))  # only Blockers' hints capture
        return cls(str(found.notation), int(found.points), int(found.gain), captures)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hint:
        return cls(
            str(data["notation"]),
            int(data["points"]),
            int(data["gain"]),
            bool(data.get("captures", False)),
        )


@dataclass(frozen=True)
class HintsNow:
    """A seat's hints at the game's current position: ``hints`` once found
    (best first; empty when there is no move to suggest), else ``None`` and
    ``pending`` says why (:data:`PREPARING`, :data:`FAILED`)."""

    hints: list[Hint] | None
    pending: str = ""


def hinted_kinds() -> list[str]:
    """The names of the kinds whose games can have hints: those with robots."""
    return [kind.name for kind in kinds.all() if kind.robots is not None]


def owed(game: Game, seat: int) -> bool:
    """Whether ``seat`` is shown hints now: the game has them on, is being
    played, its kind has robots to find them, and the seat may move."""
    return (
        game.hints
        and game.status == Game.Status.PLAYING
        and kind_of(game).robots is not None
        and game.may_move(seat)
    )


def hints_now(game: Game, seat: int) -> HintsNow | None:
    """``seat``'s stored hints at ``game``'s current position (``last_seq``);
    ``None`` when it is shown none (:func:`owed`).  Never finds them."""
    if not owed(game, seat):
        return None
    row = SeatHints.objects.filter(game=game, seat=seat, seq=game.last_seq).only("hints").first()
    if row is None:
        return HintsNow(None, PREPARING)
    if row.hints is None:
        return HintsNow(None, FAILED)
    return HintsNow([Hint.from_json(h) for h in row.hints])


def find(game: Game, seat: int, n: int = HINTS) -> list[Hint]:
    """The ``n`` best moves for ``seat`` now, found by the kind's robots from
    its seat view (not stored; what :func:`prepare` stores)."""
    kind = kind_of(game)
    if kind.robots is None:
        return []
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    found = kind.robots.hints(load_events(game), current_state(game), seat, lexicon, n)
    return [Hint.of(h) for h in found]


def prepare(game_id: int, seat: int, seq: int) -> bool:
    """Find ``seat``'s hints at position ``seq`` and store them, once: True
    when this call stored them; False when they were stored already, or are
    owed no longer (the game moved on or ended, or it is not that seat's
    turn).  A failure is stored as such (the page says so), and logged by its
    type only: a message could name the seat's tiles."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.last_seq != seq or not owed(game, seat):
        return False
    if SeatHints.objects.filter(game_id=game_id, seat=seat, seq=seq).exists():
        return False
    began = time.perf_counter()
    try:
        found: list[dict[str, Any]] | None = [h.to_json() for h in find(game, seat)]
    except DatabaseError:
        raise  # the database is away: the sweep prepares them once it is back
    except Exception as e:
        log.error(
            "game %s: seat %s's hints at move %s failed (%s)", game_id, seat, seq, type(e).__name__
        )
        found = None
    took = round((time.perf_counter() - began) * 1000)
    return _store(game_id, seat, seq, found, took)


def _store(
    game_id: int, seat: int, seq: int, found: list[dict[str, Any]] | None, took: int
) -> bool:
    """Store the hints found at ``seq`` unless the game moved on while they were
    being found (its log may have grown under them), and drop the game's rows
    of earlier positions, which are never shown again."""
    if Game.objects.filter(pk=game_id).values_list("last_seq", flat=True).first() != seq:
        return False
    try:
        with transaction.atomic():
            SeatHints.objects.create(game_id=game_id, seat=seat, seq=seq, hints=found, took_ms=took)
            SeatHints.objects.filter(game_id=game_id, seq__lt=seq).delete()
    except IntegrityError:
        return False  # another worker (or a ``hint`` reply) stored them first
    log.info("game %s: seat %s's hints at move %s found in %d ms", game_id, seat, seq, took)
    return True


def unprepared(limit: int | None = None) -> list[tuple[int, int, int]]:
    """``(game, seat, seq)`` of every person's turn in a game with hints on
    whose hints at its position are not stored, by game (the first ``limit``)."""
    stored = SeatHints.objects.filter(
        game_id=OuterRef("game_id"), seat=OuterRef("index"), seq=OuterRef("game__last_seq")
    )
    seats = Seat.objects.filter(
        game__status=Game.Status.PLAYING,
        game__hints=True,
        game__kind__in=hinted_kinds(),
        user__robot_level="",  # a person's seat (a free seat has no user)
    )
    found = (
        moving_seats(seats)
        .exclude(Exists(stored))
        .order_by("game_id", "index")
        .values_list("game_id", "index", "game__last_seq")
    )
    return list(found if limit is None else found[:limit])


def sweep(limit: int = SWEEP_BATCH) -> int:
    """Prepare up to ``limit`` seats' hints a lost nudge left unprepared."""
    return sum(prepare(*owed_at) for owed_at in unprepared(limit))


def on_move(moved: Moved) -> None:
    """A follower of the one door's moves and of the deal (inside its transaction):
    in a game with hints on, ask for the hints of each person the new position
    makes it the turn of, once the transaction commits.  A broker that is
    down changes nothing: the sweep prepares them."""
    game, seats = moved.game, moved.seats
    if not game.hints or game.status != Game.Status.PLAYING or kind_of(game).robots is None:
        return
    for row in seats:
        if not game.may_move(row.index) or row.user is None or row.user.robot_level:
            continue  # not to move, or a robot's seat: robots need no hints
        transaction.on_commit(partial(_ring, game.pk, row.index, game.last_seq))


def _ring(game_id: int, seat: int, seq: int) -> None:
    try:
        current_app.send_task(PREPARE_TASK, (game_id, seat, seq))
    except Exception as e:  # the broker is a doorbell: the sweep prepares them
        log.warning(
            "could not reach the broker (%s); game %s's hints wait for the sweep", e, game_id
        )
