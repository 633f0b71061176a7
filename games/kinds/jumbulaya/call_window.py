"""JUMBULAYA's claim window at the door: the calls it makes, through the door.

The calls sealed in a window are made when it closes (the sweep,
:func:`games.core.windows.close_windows`, every minute), or at once when a
move would end the game or a call on its caller's own turn is verified: they
are moves, so they are made here through :func:`games.core.door.submit`,
which asks :data:`WINDOW` before each move of a JUMBULAYA game (loaded at
start-up by :mod:`games.core.windows`, as the kind's window names it).  What is
decided and stored is :mod:`games.kinds.jumbulaya.calls`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction

from games.core.door import StaleMove, folded, locked, submit
from games.core.followers import Moved, SeatTaken
from games.core.projection import current_state, engine_event, game_lexicon, kind_of
from games.core.submitted import Submitted
from games.engine.errors import Refusal
from games.kinds.base import KindEvent, State
from games.kinds.jumbulaya.models import JumbulayaClaim
from games.models import Event, Game

from . import calls

log = logging.getLogger(__name__)


#: How many times a claim is resubmitted when a move got in first.
SUBMIT_ATTEMPTS = 5


def close(game_id: int, now: datetime) -> bool:
    """Close game ``game_id``'s window if it is due and resolve its claims, in
    one transaction (so that no call can be decided between the close and the
    resolution).  False when the window is not due, or another sweep closed it."""
    with transaction.atomic():
        if not calls.take_window(game_id, now):
            return False
        game = Game.objects.select_for_update().get(pk=game_id)
        _resolve_claims(game, None)
    return True


def close_first(game: Game, seat: int, move: str) -> None:
    """Close ``game``'s window now, before ``seat``'s ``move``, which would end the
    game (inside :func:`~games.core.door.submit`'s transaction, the game row locked): the sealed
    calls were made before that move, so they are judged on the board as it
    stands before it, and a valid one ends the game first.

    The lost turns of failed calls are taken unless one would end the game or
    stop ``move`` (a caller whose failed call would cost the very turn they are
    playing): the game ends with ``move`` anyway.  (A resignation never comes
    here: it is always made, :func:`~games.core.door.submit`.)"""
    calls.shut(game)
    _resolve_claims(game, (seat, move))


#: Who made a call that closed the window on their own turn: the seat, and the
#: channel and idempotency key their call came with (its event is theirs).
Caller = tuple[int, str, str | None]


def call_closes_window(
    game: Game, seat: int, move: str, source: str, idempotency_key: str | None
) -> Submitted:
    """``seat``'s call ``move`` on its own turn, verified, while the window is
    open (inside :func:`~games.core.door.submit`'s transaction, the game row locked): a call is
    judged at once, and a verified one would end the game, so it joins the
    sealed calls and the window closes now, judging them all: the longest valid
    call ends the game (ties: the earliest made), the caller's own unless a
    call as long was sealed before it (``overtaken``)."""
    seq = game.last_seq
    calls.join(game, current_state(game), seat, move)
    calls.shut(game)
    _resolve_claims(game, None, caller=(seat, source, idempotency_key))
    game, seats = locked(game.pk)
    rows = game.events.filter(seq__gt=seq).order_by("seq")
    won = game.claims.filter(seat=seat, outcome=JumbulayaClaim.Outcome.MADE).exists()
    events = [engine_event(row) for row in rows]
    return Submitted(game, current_state(game), events, seats=seats, overtaken=not won)


def _resolve_claims(
    game: Game, pending: calls.Pending | None, caller: Caller | None = None
) -> None:
    """Judge the game's sealed claims against the board as it is now: the
    invalid ones cost their callers a turn, then the longest valid one ends
    the game (``caller``: a call on its caller's turn closed the window).  Each
    claim is marked with what became of it, and each caller is owed an email
    saying so; in a game already over none is judged."""
    sealed = calls.unresolved(game)
    if not sealed:
        return
    Outcome = JumbulayaClaim.Outcome
    outcomes: dict[int, str] = {c.pk: Outcome.ENDED for c in sealed}
    if game.status == Game.Status.PLAYING:
        outcomes = _judge_claims(game, sealed, pending, caller)
    calls.record_outcomes(game, sealed, outcomes)


def _judge_claims(
    game: Game,
    sealed: list[JumbulayaClaim],
    pending: calls.Pending | None,
    caller: Caller | None = None,
) -> dict[int, str]:
    """Make the calls :func:`games.timing.calls.judge` says to (each through
    :func:`~games.core.door.submit`; ``caller``'s own valid call with the channel and key it
    came with) and say what became of each claim, by its primary key."""
    judged = calls.judge(game, sealed, current_state(game), game_lexicon(game), pending)
    outcomes = dict(judged.settled)
    Outcome = JumbulayaClaim.Outcome
    for claim in judged.failed:
        if not judged.unless_it_ends:
            outcomes[claim.pk] = calls.outcome_of(game, _make_claim(game.pk, claim))
        elif _made_unless_it_ends(game.pk, claim, judged.guard):
            outcomes[claim.pk] = Outcome.FAILED
        else:
            outcomes[claim.pk] = Outcome.FREE
    made = False
    for claim in judged.valid:
        if made:
            outcomes[claim.pk] = Outcome.OVERTAKEN
            continue
        sent = caller[1:] if caller is not None and caller[0] == claim.seat else ()
        outcomes[claim.pk] = calls.outcome_of(game, _make_claim(game.pk, claim, *sent))
        made = outcomes[claim.pk] == Outcome.MADE
    return outcomes


class _Undo(Exception):
    pass


def _made_unless_it_ends(
    game_id: int, claim: JumbulayaClaim, pending: calls.Pending | None
) -> bool:
    """Make a failed ``claim`` (its caller loses a turn) unless that ends the
    game, as a turn without a word can (``stall_rounds``), or the ``pending``
    move could no longer be made after it: then it is undone, with what it
    owed, and False says so."""
    try:
        with transaction.atomic():  # a savepoint
            _make_claim(game_id, claim)
            game = Game.objects.get(pk=game_id)
            if game.status == Game.Status.OVER:
                raise _Undo
            if pending is not None:
                kind = kind_of(game)
                lexicon = game_lexicon(game) if kind.uses_word_list else None
                try:
                    kind.decide(current_state(game), *pending, lexicon)
                except Refusal:
                    raise _Undo from None
    except _Undo:
        return False
    return True


def _make_claim(
    game_id: int,
    claim: JumbulayaClaim,
    source: str = Event.Source.SYSTEM,
    idempotency_key: str | None = None,
) -> list[KindEvent]:
    """Submit ``claim`` as a call, with the game's current sequence number
    (re-read when a move got in first), from ``source`` (the system's, unless
    its caller's own turn closed the window).  Returns its events: none when
    the rules refuse it (a seat that resigned, or one barred by its own
    earlier failed call)."""
    claims_of = kind_of(Game.objects.only("kind").get(pk=game_id)).window
    assert claims_of is not None  # only a kind with sealed calls has a claim window
    move = f"{claims_of.verb} {claim.word}"
    for _ in range(SUBMIT_ATTEMPTS):
        seq = Game.objects.values_list("last_seq", flat=True).get(pk=game_id)
        try:
            return submit(game_id, claim.seat, move, seq, source, idempotency_key).events
        except StaleMove:
            continue
        except Refusal as r:
            log.info("game %s: the sealed claim %r was not made: %s", game_id, move, r.message)
            return []
    log.warning("game %s: the sealed claim %r was not made: the game kept moving", game_id, move)
    return []


class CallWindow:
    """JUMBULAYA's claim window as the core asks it
    (:class:`games.core.windows.WindowKeeper`)."""

    def holds(self, game: Game, before: State, seat: int, move: str) -> bool:
        kind = kind_of(game)
        calling = kind.window is not None and kind.verb_of(move) == kind.window.verb
        on_turn = seat in kind.progress(before).to_move
        if game.window_closes_at is not None and calling and not on_turn:
            calls.seal(game, before, seat, move)
            return True
        return False

    def ahead_of(
        self,
        game: Game,
        seat: int,
        move: str,
        source: str,
        idempotency_key: str | None,
        before: State,
        events: Sequence[KindEvent],
    ) -> Submitted | bool:
        if game.window_closes_at is None:
            return False
        kind = kind_of(game)
        if kind.verb_of(move) == "resign":
            calls.withdraw(game, seat)  # leaving is never overtaken: the calls go
            return False
        if (
            kind.window is not None
            and kind.verb_of(move) == kind.window.verb
            and kind.window.call_result(events)
            and calls.unresolved(game)
        ):
            return call_closes_window(game, seat, move, source, idempotency_key)
        if kind.progress(folded(kind, before, events)).over:
            # The sealed calls were made before this move: they are judged first.
            close_first(game, seat, move)
            return True
        return False

    def on_move(self, moved: Moved) -> None:
        """After a move: the window opens when its conditions first hold, and a
        move that ended the game shuts it."""
        if moved.before is not None:
            calls.after_move(moved.game, moved.before, moved.state)

    def on_seat_taken(self, taken: SeatTaken) -> None:
        """The sealed calls of a seat a robot took leave with the player, untold
        (they were told by the resignation's confirmation)."""
        calls.withdraw(taken.game, taken.seat, tell=False)

    def due(self, now: datetime) -> list[int]:
        return calls.due_windows(now)

    def close(self, game_id: int, now: datetime) -> bool:
        return close(game_id, now)

    def sealed_notice(self, game: Game, tz_name: str) -> str:
        return calls.sealed_notice(game, tz_name)

    overtaken_notice = calls.OVERTAKEN_NOTICE

    def sealed_calls(self, game: Game, seat: int | None) -> list[JumbulayaClaim]:
        return calls.sealed_claims(game, seat)


#: The keeper :mod:`games.core.windows` loads for JUMBULAYA (its window's ``keeper``).
WINDOW = CallWindow()
