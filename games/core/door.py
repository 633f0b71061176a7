"""The one door for writes to a game's log: its moves.

:func:`submit` is the only way a move enters a game's log: in one transaction
it loads the state, asks the engine, appends the events, updates the
projection and, as its last step, publishes what happened to the followers
(:mod:`games.core.followers`: the notifications owed, the deadline, the
off-turn window, the robots' turns, hints, analysis, ratings), which register
themselves at start-up: this module imports none of them.

A kind with an off-turn window (:mod:`games.kinds.windows`) has its window
consulted at the door, through the
:class:`~games.core.window_gate.WindowGate` that :mod:`games.core.windows`
installs at start-up: a call made off one's turn may
be held sealed, and a move that would end the game may close the window first.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games import models
from games.core import window_gate
from games.core.followers import Moved, publish
from games.core.projection import (
    ServiceError,
    current_state,
    display_name,
    event_row,
    game_lexicon,
    kind_of,
    turn_still_open,
)
from games.core.submitted import Submitted
from games.core.takeover import take_over
from games.kinds.base import GameKind, KindEvent, State
from games.live import doorbell
from games.models import Event, Game, Seat, SeatChange
from games.timing import deadlines
from ops import logs

log = logging.getLogger(__name__)


class StaleMove(ServiceError):
    code = "stale"


class DuplicateMove(ServiceError):
    code = "duplicate"


class NotAPlayer(ServiceError):
    code = "not_a_player"


def projection_fields(
    game: Game, state: State, *, before: State | None, seats: Sequence[Seat] = ()
) -> dict[str, object]:
    """The projection fields for ``state`` after ``before`` (``None``: the deal;
    ``seats``, with their users, when the caller has loaded them)."""
    now = timezone.now()
    kind = kind_of(game)
    at = kind.progress(state)
    fields: dict[str, object] = {
        "last_seq": at.seq,
        "state": kind.state_to_json(state),
        "turn_seat": at.turn,
        "other_movers": models.movers_mask(at.to_move, at.turn),
    }
    if at.over:
        fields |= deadlines.deadline_fields(game, None) | {
            "status": Game.Status.OVER,
            "end_reason": at.end or "",
            "finished_at": now,
        }
    elif at.opens_turn(None if before is None else kind.progress(before)):
        fields |= deadlines.deadline_fields(game, turn_deadline(game, at.to_move, now, seats))
    return fields


def turn_deadline(
    game: Game, to_move: Sequence[int], since: datetime, seats: Sequence[Seat] = ()
) -> datetime:
    """The one deadline of a turn opened at ``since`` for the seats
    ``to_move``: the latest of theirs, so that no seat loses time to another's
    vacation."""
    return max(
        deadlines.deadline_after(game, seat, since, seats[seat] if seats else None)
        for seat in to_move
    )


def submit(
    game_id: int,
    seat: int | User,
    move: str,
    expected_seq: int,
    source: str,
    idempotency_key: str | None = None,
) -> Submitted:
    """Make ``move`` (in the notation) for ``seat`` of a game: the seat's index,
    or the user who holds it (found under the game's lock, in the query that
    loads the seats anyway; :class:`NotAPlayer` if they hold none, or there is
    no such game).

    ``expected_seq`` is the last event the player saw: if the game has moved on
    since, nothing changes and :class:`StaleMove` says so.  A repeated
    ``idempotency_key`` changes nothing and raises :class:`DuplicateMove`.  A move
    the rules refuse raises the engine's :class:`Refusal`.  Of two submissions
    racing for the same game, exactly one is appended.

    While a game's off-turn window is open (:mod:`games.core.windows`), a
    call off one's turn is held sealed, and a call on one's own turn is judged
    at once: a failed one costs that turn, a verified one closes the window
    with the sealed calls.  Any other move that would end the game closes the
    window first, in the same transaction: if a sealed call ends the game, the
    move is not made (``overtaken``).  A resignation is always made; the
    leaver's sealed calls are withdrawn with it.

    What happens after a move is its last step, in the same transaction: the
    followers' (:func:`games.core.followers.publish`, in the order documented
    there).  None of them imports this module.
    """
    try:
        with transaction.atomic():
            try:
                game, seats = locked(game_id)
            except Game.DoesNotExist:
                if isinstance(seat, User):
                    raise NotAPlayer("There is no such game.") from None
                raise
            kind = kind_of(game)
            if kind.verb_of(move) == "timeout" and source != Event.Source.DEADLINE:
                raise ServiceError("A timeout is written by the deadline sweep; it cannot be sent.")
            if isinstance(seat, User):
                seat = _seat_of(seats, seat)
            if game.status == Game.Status.OPEN:
                raise ServiceError("This game has not started yet: it is waiting for players.")
            # A resent request (same key) arrives with the sequence it was made at.
            if (
                game.last_seq != expected_seq
                and idempotency_key
                and Event.objects.filter(idempotency_key=idempotency_key).exists()
            ):
                raise DuplicateMove("This move was already received; it was not made twice.")
            if game.last_seq != expected_seq and not turn_still_open(game, expected_seq):
                raise StaleMove(
                    f"The game has moved on since you looked (it is at move {game.last_seq}, "
                    f"you saw {expected_seq}); nothing was changed. Look again and resend."
                )
            before = current_state(game)
            resigning = kind.verb_of(move) == "resign"
            if (
                resigning
                and source != Event.Source.DEADLINE
                and take_over(game, seats, seat, before, SeatChange.Reason.RESIGNED)
            ):
                return Submitted(game, before, [], seats=seats)
            gate = window_gate.installed()
            if gate is not None and gate.holds(game, before, seat, move, source):
                _log_accepted("call_sealed", game.pk, kind.progress(before).seq, seat, source)
                return Submitted(game, before, [], sealed=True)
            lexicon = game_lexicon(game) if kind.uses_word_list else None
            events = kind.decide(_named_now(kind, before, seats), seat, move, lexicon)
            ahead = (
                False
                if gate is None
                else gate.ahead_of(game, seat, move, source, idempotency_key, before, events)
            )
            if isinstance(ahead, Submitted):
                return ahead
            if ahead and (
                Game.objects.values_list("last_seq", flat=True).get(pk=game.pk) != game.last_seq
            ):
                # The window closed first and its calls moved the game: the move is
                # decided again on the board they left, unless one of them ended it.
                game, seats = locked(game_id)
                before = current_state(game)
                if kind.progress(before).over:
                    return Submitted(game, before, [], seats=seats, overtaken=True)
                events = kind.decide(_named_now(kind, before, seats), seat, move, lexicon)
            state = before
            rows = []
            for i, event in enumerate(events):
                state = kind.evolve(state, event)
                key = idempotency_key if i == 0 else None
                rows.append(event_row(game, event, kind.progress(state).seq, source, key))
            Event.objects.bulk_create(rows)
            fields = projection_fields(game, state, before=before, seats=seats)
            updated = Game.objects.filter(pk=game.pk, last_seq=game.last_seq).update(**fields)
            if updated != 1:
                raise StaleMove("Another move was made at the same moment; nothing was changed.")
            doorbell.ring(game.pk, kind.progress(state).seq)
            for name, value in fields.items():
                setattr(game, name, value)
            publish(Moved(game, seats, seat, before, state, events))
            _log_accepted("move", game.pk, kind.progress(state).seq, seat, source)
    except IntegrityError as e:
        if idempotency_key and Event.objects.filter(idempotency_key=idempotency_key).exists():
            raise DuplicateMove("This move was already received; it was not made twice.") from e
        raise StaleMove("Another move was made at the same moment; nothing was changed.") from e
    return Submitted(game, state, events, seats=seats)


def _log_accepted(name: str, game_id: int, seq: int, seat: int, source: str) -> None:
    """One log line once the move's transaction commits: the game, its sequence
    number, the seat and the channel; never the move itself (a word, tiles)."""
    transaction.on_commit(
        lambda: logs.event(name, game=game_id, seq=seq, seat=seat, source=str(source))
    )


def _named_now(kind: GameKind, state: State, seats: Sequence[Seat]) -> State:
    """``state`` with its players' names as they are now, for the words of a
    refusal ("It is Zoe's turn"): the log keeps the names of the deal.  Only the
    rules read it; the events are folded onto the state as cached."""
    names = {s.index: display_name(s.user) for s in seats if s.user is not None}
    dealt = kind.players(state)
    players = tuple(names.get(i, name) for i, name in enumerate(dealt))
    return state if players == dealt else kind.with_players(state, players)


def folded(kind: GameKind, state: State, events: Sequence[KindEvent]) -> State:
    """``state`` after ``events``."""
    for event in events:
        state = kind.evolve(state, event)
    return state


def locked(game_id: int) -> tuple[Game, list[Seat]]:
    """The game, locked for the transaction, and its seats with their users and
    vacation flags, in one query (the lock is on the game row only)."""
    query = Seat.objects.filter(game_id=game_id).select_related("game").order_by("index")
    seats = list(
        deadlines.with_vacation_flags(query.select_for_update(of=("game",)), timezone.now())
    )
    if not seats:  # every game has its seats from the start
        raise Game.DoesNotExist(f"no game {game_id}")
    game = seats[0].game
    for row in seats:
        row.game = game
    return game, seats


def _seat_of(seats: Sequence[Seat], user: User) -> int:
    for row in seats:
        if row.user_id == user.pk:
            return row.index
    raise NotAPlayer("Only the players of this game can make moves in it.")
