"""JUMBULAYA's calls: the claim window's bookkeeping (its off-turn window's keeper).

Once all nine lines are claimed and one holds 7 or more tiles, a JUMBULAYA runs
down almost every board, so under "anyone may call at any time" the first
player to read their mail would win.  A game with ``Game.window_on`` set
plays it differently:

* when the conditions first hold (:func:`after_move`), a claim window opens
  until the current deadline, but for at least :data:`MIN_WINDOW`, and every
  seat still in the game is told (a ``window_open`` notification);
* a call made off one's turn while the window is open is *sealed*
  (:func:`seal`): it is stored, shown to nobody but its caller, and not
  checked; the same call sealed again is refused (:class:`AlreadyCalled`);
* a call made on one's own turn is judged at once, as the rules judge a call:
  it is that turn's move, and a sealed call never stands in for one.  One that
  fails costs that turn (the engine's ``JumbulayaFailed``) and the window
  stays open; one that is verified would end the game, so it joins the sealed
  calls (:func:`join`) and the window closes now
  (:mod:`games.kinds.jumbulaya.call_window`), judging them all as below: the caller's
  call wins unless a call as long was sealed before it;
* when the window closes (:func:`games.core.windows.close_windows`, every
  minute), every sealed claim is
  judged against the board as it is then: each invalid claim costs its caller
  a turn (the engine's ``JumbulayaFailed``), then the longest valid claim (most
  tiles; ties: the earliest) is made, which ends the game.  A lost turn that
  would itself end the game (stalled, under ``stall_rounds``) is not taken when
  a valid claim is waiting: the JUMBULAYA ends the game first.  With no valid
  claim the game goes on, and a later call is decided at once;
* a move that would end the game while the window is open (ten tiles, all
  lines, stalled, a deadline's auto-pass) closes it first
  (:func:`games.core.door.submit` asks the window): the sealed calls were made before that
  move, so they are judged on the board as it stands before it, in the same
  transaction.  A valid one ends the game and the move is not made; with none,
  the move is made.  A lost turn is not taken when it would stop that move (the
  mover's own failed call: the game ends with the move anyway);
* a resignation is always made: leaving is the player's own to do, never
  overtaken.  The leaver's sealed calls are withdrawn with it (:func:`withdraw`;
  also when a robot takes the seat over), and a resignation that ends the game
  leaves the other sealed calls unjudged (:func:`after_move`);
* whichever way the window closed, each claim keeps what became of it
  (``JumbulayaClaim.outcome``), each caller is owed a ``window_closed`` email
  about their own calls, and the log says it in words
  (:func:`games.kinds.jumbulaya.log_words.outcome_line`: never a withdrawn call's word).

Every event still enters the log through :func:`games.core.door.submit`:
:mod:`games.kinds.jumbulaya.call_window` makes the calls :func:`judge` says to
make through it, and opens and closes the window (:func:`after_move`,
:func:`shut`) as the door asks.  This module never imports the door.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from games.core.projection import kind_of
from games.core.windows import AlreadyCalled
from games.engine.errors import Refusal
from games.engine.lexicon import Lexicon
from games.kinds.base import GameKind, KindEvent, State, Window
from games.kinds.jumbulaya.models import JumbulayaClaim
from games.live import doorbell
from games.mail_out import outbox
from games.models import Game, Notification
from games.timing.deadlines import time_zone

Outcome = JumbulayaClaim.Outcome

#: The shortest a claim window may be, however close the deadline.
MIN_WINDOW = timedelta(hours=12)
#: Windows one sweep closes at most (the next sweep takes the rest).
SWEEP_BATCH = 100
#: What the player whose move closed the window is told when a sealed call won.
OVERTAKEN_NOTICE = (
    "Your move would have ended the game, so the JUMBULAYA claim window closed first, and a "
    "sealed JUMBULAYA call, made before your move, ended the game: your move was not made."
)
#: The longest claim word stored (a JUMBULAYA is at most 9 tiles).
MAX_WORD = JumbulayaClaim._meta.get_field("word").max_length or 60


# --- opening ---------------------------------------------------------------


def _claims(kind: GameKind) -> Window:
    if kind.window is None:
        raise ValueError(f"the game kind {kind.name!r} has no sealed calls")
    return kind.window


def after_move(game: Game, before: State, state: State) -> None:
    """Bookkeeping after an accepted move (inside its transaction): open the
    window when the JUMBULAYA conditions first hold.  A move that ends the game
    with the window still open (a resignation: any other move that would end it
    closed the window first, in :func:`games.core.door.submit`) shuts it,
    and the calls still sealed are never judged
    (``JumbulayaClaim.Outcome.ENDED``)."""
    kind = kind_of(game)
    calls = kind.window
    if calls is None or not game.window_on:
        return
    if kind.progress(state).over:
        if game.window_closes_at is not None:
            shut(game)
            left = unresolved(game)
            record_outcomes(game, left, dict.fromkeys((c.pk for c in left), Outcome.ENDED))
        return
    if not calls.is_open(state) or calls.is_open(before):
        return
    now = timezone.now()
    closes = max(game.deadline_at or now, now + MIN_WINDOW)
    opened = Game.objects.filter(pk=game.pk, window_closes_at__isnull=True).update(
        window_closes_at=closes
    )
    if opened != 1:
        return
    game.window_closes_at = closes
    users = [
        s.user_id
        for s in game.seats.all()
        if s.user_id is not None and kind.in_game(state, s.index)
    ]
    outbox.owe(game, Notification.Kind.WINDOW_OPEN, users=users, seq=kind.progress(state).seq)


# --- sealing -----------------------------------------------------------------


def sealed_notice(game: Game, tz_name: str) -> str:
    """What a player is told when their call is sealed (times in ``tz_name``)."""
    closes = game.window_closes_at
    if closes is None:
        return "Your claim is sealed until the claim window closes."
    when = closes.astimezone(time_zone(tz_name)).strftime("%a %-d %b %Y, %H:%M")
    return (
        f"Your claim is sealed until {when} ({tz_name}), when the claim window closes: "
        "nobody sees it before then, and the longest valid claim wins."
    )


def seal(game: Game, state: State, seat: int, move: str) -> JumbulayaClaim:
    """Store ``seat``'s call ``move`` (``jumbulaya WORD``), made off its turn,
    unseen until the window closes (inside :func:`~games.core.door.submit`'s
    transaction).

    The checks a call gets from the rules before its word is looked at run
    here (the kind's :meth:`~games.kinds.windows.OffTurnWindow.check_call`), and raise its
    :class:`Refusal`; the word itself is not checked, so that nobody learns
    whether it is valid before the close.  A word the seat has sealed already
    is :class:`AlreadyCalled`: it is judged once, when the window closes.
    """
    word = _called(game, state, seat, move)
    if game.claims.filter(seat=seat, word=word, resolved_at__isnull=True).exists():
        raise AlreadyCalled(
            f"You have already called {word}: it is sealed until the claim window closes, "
            "and judged then, once. Call another word, or wait for the window to close."
        )
    return JumbulayaClaim.objects.create(game=game, seat=seat, word=word)


def join(game: Game, state: State, seat: int, move: str) -> JumbulayaClaim:
    """``seat``'s call ``move``, made on its own turn and verified, among the
    sealed calls, to be judged with them as the window closes at once: the
    seat's sealed claim of the same word when it has one (made earlier: it
    keeps its place), else a new one."""
    word = _called(game, state, seat, move)
    same = game.claims.filter(seat=seat, word=word, resolved_at__isnull=True).first()
    return same or JumbulayaClaim.objects.create(game=game, seat=seat, word=word)


def _called(game: Game, state: State, seat: int, move: str) -> str:
    """The word of ``seat``'s call ``move``, after the rules' checks of a call."""
    word = _claims(kind_of(game)).check_call(state, seat, move)
    if len(word) > MAX_WORD:
        raise Refusal(
            "bad_move",
            f"A JUMBULAYA is 7 to 9 tiles; {word[:20]}… is {len(word)} characters long, "
            "far too long to be one.",
        )
    return word


def withdraw(game: Game, seat: int, *, tell: bool = True) -> None:
    """Withdraw ``seat``'s sealed calls as it leaves the game (a resignation, a
    removal, a robot taking the seat over), inside that move's transaction:
    they are never judged, and the caller is told (``tell``; a player whose
    seat a robot takes holds no seat to be emailed as, and was told by the
    resignation's confirmation)."""
    mine = list(game.claims.filter(seat=seat, resolved_at__isnull=True))
    if mine:
        withdrawn = dict.fromkeys((c.pk for c in mine), Outcome.WITHDRAWN)
        record_outcomes(game, mine, withdrawn, tell=tell)


def sealed_claims(game: Game, seat: int | None) -> list[JumbulayaClaim]:
    """``seat``'s own claims still sealed (none for a spectator): never anyone
    else's."""
    if seat is None:
        return []
    return list(game.claims.filter(seat=seat, resolved_at__isnull=True).order_by("created_at"))


# --- closing -----------------------------------------------------------------
# The calls a closing window makes are moves, so they are made through the one
# door (:mod:`games.kinds.jumbulaya.call_window`); what is here decides which to make.


def due_windows(now: datetime) -> list[int]:
    """The games whose window is due to close, the oldest first, at most
    :data:`SWEEP_BATCH` of them (the next sweep takes the rest)."""
    return list(
        Game.objects.filter(window_closes_at__lte=now)
        .order_by("window_closes_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )


def take_window(game_id: int, now: datetime) -> bool:
    """Close game ``game_id``'s window if it is due: False when it is not, or
    another sweep closed it."""
    closed = Game.objects.filter(pk=game_id, window_closes_at__lte=now).update(
        window_closes_at=None
    )
    if closed == 1:
        doorbell.ring(game_id, 0)  # open pages show the window closed (games/live/)
    return closed == 1


def shut(game: Game) -> None:
    """Close ``game``'s window now, due or not (a move that would end the game
    closes it first)."""
    Game.objects.filter(pk=game.pk).update(window_closes_at=None)
    doorbell.ring(game.pk, game.last_seq)
    game.window_closes_at = None


def unresolved(game: Game) -> list[JumbulayaClaim]:
    """The game's sealed claims, in the order they were made."""
    return list(game.claims.filter(resolved_at__isnull=True).order_by("created_at", "pk"))


#: A move waiting for the window to close: (seat, move in the notation).
Pending = tuple[int, str]


@dataclass
class Judgement:
    """What to do with a closing window's sealed claims, judged against the
    board as it is (:func:`judge`)."""

    #: Outcomes that need no move, by claim: withdrawn calls (their caller is
    #: out of the game), and the winner's own failed calls (they cost
    #: nothing: the game ends with their JUMBULAYA, and with the cooldown rule a
    #: failed call would bar it).
    settled: dict[int, str]
    #: The failed calls to make, each costing its caller a turn, in the order made.
    failed: list[JumbulayaClaim]
    #: Whether a failed call is made only if it neither ends the game nor stops
    #: ``guard`` (a valid call is waiting, or a move that closed the window).
    unless_it_ends: bool
    #: The move a failed call must not stop (none when a valid call wins).
    guard: Pending | None
    #: The valid calls, the best first (most tiles; ties: the earliest): the
    #: first one made ends the game, the rest are overtaken.
    valid: list[JumbulayaClaim]


def judge(
    game: Game,
    claims: Sequence[JumbulayaClaim],
    state: State,
    lexicon: Lexicon,
    pending: Pending | None,
) -> Judgement:
    """Judge ``claims`` (in the order made) against ``state``'s board, before
    ``pending`` when a move closed the window: what the game's kind would
    verify each as (:meth:`~games.kinds.windows.OffTurnWindow.verify`)."""
    kind = kind_of(game)
    calls = _claims(kind)
    settled: dict[int, str] = {}
    judged: list[tuple[JumbulayaClaim, int | None]] = []
    for claim in claims:
        if not kind.in_game(state, claim.seat):
            settled[claim.pk] = Outcome.WITHDRAWN
        else:
            judged.append((claim, calls.verify(state, claim.word, lexicon)))
    valid = [(c, tiles) for c, tiles in judged if tiles is not None]
    # The longest wins; ``claims`` is in the order made, and the sort is stable.
    valid.sort(key=lambda pair: -pair[1])
    winner = valid[0][0].seat if valid else None
    failed = []
    for claim, found in judged:
        if found is not None:
            continue
        if claim.seat == winner:
            settled[claim.pk] = Outcome.FREE
        else:
            failed.append(claim)
    return Judgement(
        settled=settled,
        failed=failed,
        unless_it_ends=winner is not None or pending is not None,
        guard=None if winner is not None else pending,
        valid=[c for c, _ in valid],
    )


def outcome_of(game: Game, events: Sequence[KindEvent]) -> str:
    """What a claim submitted as a call became (``""``: the rules refused it)."""
    verified = _claims(kind_of(game)).call_result(events)
    if verified is None:
        return ""
    return Outcome.MADE if verified else Outcome.FAILED


def record_outcomes(
    game: Game, claims: list[JumbulayaClaim], outcomes: Mapping[int, str], *, tell: bool = True
) -> None:
    """Mark each claim with what became of it, and owe each caller an email
    saying so (unless not ``tell``)."""
    last_seq = Game.objects.values_list("last_seq", flat=True).get(pk=game.pk)
    for claim in claims:
        claim.resolved_at = timezone.now()
        claim.outcome = outcomes.get(claim.pk, "")
        claim.resolved_seq = last_seq
    JumbulayaClaim.objects.bulk_update(claims, ["resolved_at", "outcome", "resolved_seq"])
    if not tell:
        return
    seats = {s.index: s.user_id for s in game.seats.all()}
    callers = sorted({c.seat for c in claims})
    outbox.owe(
        game, Notification.Kind.WINDOW_CLOSED, users=[seats.get(s) for s in callers], seq=last_seq
    )
