"""JUMBULAYA claim windows.

Once all nine lines are claimed and one holds 7 or more tiles, a JUMBULAYA runs
down almost every board, so under "anyone may call at any time" the first
player to read their mail would win.  A game with ``Game.claim_window`` set
plays it differently:

* when the conditions first hold (:func:`after_move`), a claim window opens
  until the current deadline, but for at least :data:`MIN_WINDOW`, and every
  seat still in the game is told (a ``claims_open`` notification);
* a call made while the window is open is *sealed* (:func:`seal`): it is
  stored, shown to nobody but its caller, and not checked;
* when the window closes (:func:`sweep`, every minute), every sealed claim is
  judged against the board as it is then: each invalid claim costs its caller
  a turn (the engine's ``JumbulayaFailed``), then the longest valid claim (most
  tiles; ties: the earliest) is made, which ends the game.  A lost turn that
  would itself end the game (stalled, under ``stall_rounds``) is not taken when
  a valid claim is waiting: the JUMBULAYA ends the game first.  With no valid
  claim the game goes on, and a later call is decided at once;
* a move that would end the game while the window is open (ten tiles, all
  lines, stalled, a resignation that leaves one seat, a deadline's auto-pass)
  closes it first (:func:`close_first`): the sealed calls were made before that
  move, so they are judged on the board as it stands before it, in the same
  transaction.  A valid one ends the game and the move is not made; with none,
  the move is made.  A lost turn is not taken when it would stop that move (the
  mover's own failed call: the game ends with the move anyway), and a
  resigning seat's own calls are withdrawn, not made;
* whichever way the window closed, each claim keeps what became of it
  (``JumbulayaClaim.outcome``), each caller is owed a ``claims_closed`` email
  about their own calls, and the log says it in words
  (:func:`outcome_line`: never a withdrawn call's word).

Every event still enters the log through :func:`games.services.submit`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import outbox
from games.deadlines import time_zone
from games.engine import (
    Event as EngineEvent,
)
from games.engine import (
    GameState,
    JumbulayaFailed,
    JumbulayaVerified,
    Lexicon,
    Refusal,
    decide,
    parse_move,
)
from games.engine.jumbulaya import Found, best_call
from games.engine.notation import CallJumbulaya, verb_of
from games.engine.tiles import Tiles
from games.models import Event, Game, JumbulayaClaim, Notification

log = logging.getLogger(__name__)
Outcome = JumbulayaClaim.Outcome

#: The shortest a claim window may be, however close the deadline.
MIN_WINDOW = timedelta(hours=12)
#: Windows one sweep closes at most (the next sweep takes the rest).
SWEEP_BATCH = 100
#: How many times a claim is resubmitted when a move got in first.
SUBMIT_ATTEMPTS = 5
#: What the player whose move closed the window is told when a sealed call won.
OVERTAKEN_NOTICE = (
    "Your move would have ended the game, so the JUMBULAYA claim window closed first, and a "
    "sealed JUMBULAYA call, made before your move, ended the game: your move was not made."
)
#: The longest claim word stored (a JUMBULAYA is at most 9 tiles).
MAX_WORD = JumbulayaClaim._meta.get_field("word").max_length or 60


# --- opening ---------------------------------------------------------------


def after_move(game: Game, before: GameState, state: GameState) -> None:
    """Bookkeeping after an accepted move (inside its transaction): open the
    window when the JUMBULAYA conditions first hold.  (A move that ends the game
    never finds the window open: :func:`close_first` closed it before.)"""
    if state.over or not game.claim_window or not state.jumbulaya_open() or before.jumbulaya_open():
        return
    now = timezone.now()
    closes = max(game.deadline_at or now, now + MIN_WINDOW)
    opened = Game.objects.filter(pk=game.pk, claims_close_at__isnull=True).update(
        claims_close_at=closes
    )
    if opened != 1:
        return
    game.claims_close_at = closes
    users = [
        s.user_id for s in game.seats.all() if s.user_id is not None and state.in_game(s.index)
    ]
    outbox.owe(game, Notification.Kind.CLAIMS_OPEN, users=users, seq=state.seq)


# --- sealing -----------------------------------------------------------------


def sealed_notice(game: Game, tz_name: str) -> str:
    """What a player is told when their call is sealed (times in ``tz_name``)."""
    closes = game.claims_close_at
    if closes is None:
        return "Your claim is sealed until the claim window closes."
    when = closes.astimezone(time_zone(tz_name)).strftime("%a %-d %b %Y, %H:%M")
    return (
        f"Your claim is sealed until {when} ({tz_name}), when the claim window closes: "
        "nobody sees it before then, and the longest valid claim wins."
    )


def seal(game: Game, state: GameState, seat: int, move: str) -> None:
    """Store ``seat``'s call ``move`` (``jumbulaya WORD``) unseen until the window
    closes (inside :func:`~games.services.submit`'s transaction).

    The checks a call gets from the engine before its word is looked at run
    here, in the engine's order, and raise its :class:`Refusal`; the word itself
    is not checked, so that nobody learns whether it is valid before the close.
    The same word sent twice by a seat is stored once.
    """
    if state.over:
        raise Refusal("game_over", "The game is over: no more moves can be made.")
    if not 0 <= seat < state.seats or seat in state.resigned:
        raise Refusal("not_in_game", "You are no longer in this game, so you cannot move.")
    command = parse_move(move)
    if not isinstance(command, CallJumbulaya):
        raise Refusal("bad_move", f"Could not read the move {move!r} as a JUMBULAYA call.")
    if not state.jumbulaya_open():
        raise Refusal(
            "jumbulaya_closed",
            "A JUMBULAYA can be called only once all nine lines are claimed and one of them "
            "holds 7 or more tiles.",
        )
    if seat in state.barred:
        raise Refusal(
            "jumbulaya_barred",
            "After a call that failed you may not call JUMBULAYA again until another player "
            "has completed a turn.",
        )
    word = command.word.text
    if len(word) > MAX_WORD:
        raise Refusal(
            "bad_move",
            f"A JUMBULAYA is 7 to 9 tiles; {word[:20]}… is {len(word)} characters long, "
            "far too long to be one.",
        )
    unresolved = game.claims.filter(seat=seat, resolved_at__isnull=True)
    if not unresolved.filter(word=word).exists():
        JumbulayaClaim.objects.create(game=game, seat=seat, word=word)


def sealed_claims(game: Game, seat: int | None) -> list[JumbulayaClaim]:
    """``seat``'s own claims still sealed (none for a spectator): never anyone
    else's."""
    if seat is None:
        return []
    return list(game.claims.filter(seat=seat, resolved_at__isnull=True).order_by("created_at"))


# --- what became of them ----------------------------------------------------


def judged_claims(game: Game, seat: int | None) -> list[JumbulayaClaim]:
    """``seat``'s claims that have been judged (none for a spectator), each with
    its ``outcome``: never anyone else's."""
    if seat is None:
        return []
    return list(game.claims.filter(seat=seat, resolved_at__isnull=False).order_by("created_at"))


def outcome_words(claim: JumbulayaClaim) -> str:
    """What became of ``claim``, for its caller: ``SPRINTS: verified: it ended the game``."""
    return f"{claim.word}: {claim.get_outcome_display() if claim.outcome else 'not made'}"


#: The log's words for each outcome (a withdrawn call is not in the log: its
#: word may still be valid while the game goes on).
_LOGGED = {
    Outcome.MADE: "{name}'s {word} was verified and ended the game",
    Outcome.FAILED: "{name}'s {word} could not be verified and cost a turn",
    Outcome.FREE: "{name}'s {word} could not be verified (the game ended before it cost a turn)",
    Outcome.OVERTAKEN: "{name}'s {word} was valid, but a longer or earlier call was made",
}


def outcome_line(game: Game, players: Sequence[str]) -> tuple[int, str] | None:
    """The log's line (``(seq, words)``) saying what became of the sealed calls
    judged when the claim window closed, or ``None`` when there were none."""
    judged = list(game.claims.filter(resolved_seq__isnull=False).order_by("created_at", "pk"))
    said = [
        _LOGGED[Outcome(c.outcome)].format(name=players[c.seat], word=c.word)
        for c in judged
        if c.outcome in _LOGGED and c.seat < len(players)
    ]
    if not said:
        return None
    seq = max(c.resolved_seq or 0 for c in judged)
    words = "The claim window closed and its sealed JUMBULAYA calls were judged: "
    return seq, words + "; ".join(said) + "."


# --- closing -----------------------------------------------------------------


def sweep(now: datetime | None = None) -> int:
    """Close every window that is due and resolve its claims.  Returns how many
    windows this sweep closed (a window another sweep closed is not counted)."""
    now = now or timezone.now()
    due = list(
        Game.objects.filter(claims_close_at__lte=now)
        .order_by("claims_close_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    resolved = 0
    for game_id in due:
        try:
            if close(game_id, now):
                resolved += 1
        except Exception:  # one game's trouble must not hold up the others' windows
            log.exception(
                "could not close the claim window of game %s; the next sweep retries", game_id
            )
    return resolved


def close(game_id: int, now: datetime | None = None) -> bool:
    """Close game ``game_id``'s window if it is due and resolve its claims, in
    one transaction (so that no call can be decided between the close and the
    resolution).  False when the window is not due, or another sweep closed it."""
    now = now or timezone.now()
    with transaction.atomic():
        closed = Game.objects.filter(pk=game_id, claims_close_at__lte=now).update(
            claims_close_at=None
        )
        if closed != 1:
            return False
        game = Game.objects.select_for_update().get(pk=game_id)
        _resolve(game, None)
    return True


def close_first(game: Game, seat: int, move: str) -> None:
    """Close ``game``'s window now, before ``seat``'s ``move``, which would end the
    game (inside :func:`~games.services.submit`'s transaction, the game row
    locked): the sealed calls were made before that move, so they are judged on
    the board as it stands before it, and a valid one ends the game first.

    The lost turns of failed calls are taken unless one would end the game or
    stop ``move`` (a caller whose failed call would cost the very turn they are
    playing): the game ends with ``move`` anyway.  A resigning seat's own
    calls are withdrawn with it."""
    Game.objects.filter(pk=game.pk).update(claims_close_at=None)
    game.claims_close_at = None
    _resolve(game, (seat, move))


def _verify(
    claim: JumbulayaClaim, board: Sequence[Tiles], lexicon: Lexicon, state: GameState
) -> Found | None:
    """What the engine would verify ``claim`` as on ``board`` (``None``: it
    would fail)."""
    try:
        command = parse_move(f"jumbulaya {claim.word}")
    except Refusal:
        return None
    if not isinstance(command, CallJumbulaya):
        return None
    return best_call(board, command.word.candidates(), lexicon, state.rules)


#: A move waiting for the window to close: (seat, move in the notation).
Pending = tuple[int, str]


def _resolve(game: Game, pending: Pending | None) -> None:
    """Judge the game's sealed claims against the board as it is now: the
    invalid ones cost their callers a turn, then the longest valid one ends
    the game.  Each claim is marked with what became of it, and each caller is
    owed an email saying so."""
    claims = list(game.claims.filter(resolved_at__isnull=True).order_by("created_at", "pk"))
    if not claims:
        return
    outcomes: dict[int, str] = {}
    if game.status == Game.Status.PLAYING:
        outcomes = _judge(game, claims, pending)
    last_seq = Game.objects.values_list("last_seq", flat=True).get(pk=game.pk)
    for claim in claims:
        claim.resolved_at = timezone.now()
        claim.outcome = outcomes.get(claim.pk, "")
        claim.resolved_seq = last_seq
    JumbulayaClaim.objects.bulk_update(claims, ["resolved_at", "outcome", "resolved_seq"])
    seats = {s.index: s.user_id for s in game.seats.all()}
    callers = sorted({c.seat for c in claims})
    outbox.owe(
        game, Notification.Kind.CLAIMS_CLOSED, users=[seats.get(s) for s in callers], seq=last_seq
    )


def _judge(game: Game, claims: list[JumbulayaClaim], pending: Pending | None) -> dict[int, str]:
    """Make the claims' events (each through the one door) and say what became
    of each claim, by its primary key."""
    from games import services

    state = services.current_state(game)
    lexicon = services.game_lexicon(game)
    board = [line.tiles for line in state.lines]
    resigning = pending[0] if pending is not None and verb_of(pending[1]) == "resign" else None
    outcomes: dict[int, str] = {}
    judged: list[tuple[JumbulayaClaim, Found | None]] = []
    for claim in claims:
        if not state.in_game(claim.seat) or claim.seat == resigning:
            outcomes[claim.pk] = Outcome.WITHDRAWN
        else:
            judged.append((claim, _verify(claim, board, lexicon, state)))
    valid = [(c, found) for c, found in judged if found is not None]
    # The longest wins; ``claims`` is in the order made, and the sort is stable.
    valid.sort(key=lambda pair: -len(pair[1].tiles))
    winner = valid[0][0].seat if valid else None
    for claim, found in judged:
        if found is not None:
            continue
        if claim.seat == winner:
            # The winner's own failed calls cost nothing: the game ends with their
            # JUMBULAYA, and with the cooldown rule a failed call would bar it.
            outcomes[claim.pk] = Outcome.FREE
        elif winner is None and pending is None:
            outcomes[claim.pk] = _outcome(_make(game.pk, claim))
        elif _made_unless_it_ends(game.pk, claim, None if winner is not None else pending):
            outcomes[claim.pk] = Outcome.FAILED
        else:
            outcomes[claim.pk] = Outcome.FREE
    made = False
    for claim, _ in valid:
        if made:
            outcomes[claim.pk] = Outcome.OVERTAKEN
            continue
        outcomes[claim.pk] = _outcome(_make(game.pk, claim))
        made = outcomes[claim.pk] == Outcome.MADE
    return outcomes


def _outcome(events: Sequence[EngineEvent]) -> str:
    """What a claim submitted as a call became (``""``: the rules refused it)."""
    if any(isinstance(e, JumbulayaVerified) for e in events):
        return Outcome.MADE
    if any(isinstance(e, JumbulayaFailed) for e in events):
        return Outcome.FAILED
    return ""


class _Undo(Exception):
    pass


def _made_unless_it_ends(game_id: int, claim: JumbulayaClaim, pending: Pending | None) -> bool:
    """Make a failed ``claim`` (its caller loses a turn) unless that ends the
    game, as a turn without a word can (``stall_rounds``), or the ``pending``
    move could no longer be made after it: then it is undone, with what it
    owed, and False says so."""
    from games import services

    try:
        with transaction.atomic():  # a savepoint
            _make(game_id, claim)
            game = Game.objects.get(pk=game_id)
            if game.status == Game.Status.OVER:
                raise _Undo
            if pending is not None:
                try:
                    decide(services.current_state(game), *pending, services.game_lexicon(game))
                except Refusal:
                    raise _Undo from None
    except _Undo:
        return False
    return True


def _make(game_id: int, claim: JumbulayaClaim) -> list[EngineEvent]:
    """Submit ``claim`` as a call through the one door, with the game's current
    sequence number (re-read when a move got in first).  Returns its events:
    none when the rules refuse it (a seat that resigned, or one barred by its
    own earlier failed call)."""
    from games import services

    move = f"jumbulaya {claim.word}"
    for _ in range(SUBMIT_ATTEMPTS):
        seq = Game.objects.values_list("last_seq", flat=True).get(pk=game_id)
        try:
            return services.submit(game_id, claim.seat, move, seq, Event.Source.SYSTEM).events
        except services.StaleMove:
            continue
        except Refusal as r:
            log.info("game %s: the sealed claim %r was not made: %s", game_id, move, r.message)
            return []
    log.warning("game %s: the sealed claim %r was not made: the game kept moving", game_id, move)
    return []
