"""The one door for writes to games.

Views, email handlers, tasks and commands call these functions and nothing
else changes a game.  :func:`submit` is the only way a move enters a game's log:
in one transaction it loads the state, asks the engine, appends the events,
updates the projection and, as its last step, does what follows a move
(:func:`_after_move`: the notifications owed, the deadline, the claim window).

The moves nobody sends are made here too: the calls sealed in a claim window,
when it closes (:func:`close_claim_windows`), and the timeouts and removals of
late players (:func:`sweep_deadlines`).  :mod:`games.timing.claims` and
:mod:`games.timing.deadlines` decide what to do; they never import this module, and
neither does anything it calls (``tests/test_import_graph.py``).  The read side
(states, event rows, names) is :mod:`games.core.projection`, re-exported here.
"""

from __future__ import annotations

import logging
import secrets
import time as time_module
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from accounts.names import look_alike
from games import kinds, models
from games.coach import analysis
from games.coach import hints as seat_hints
from games.core import lexicons
from games.core.projection import (
    ServiceError,
    current_state,
    display_name,
    engine_event,
    event_row,
    game_lexicon,
    kind_of,
    load_events,
    replay_game,
    turn_still_open,
)
from games.engine.errors import Refusal
from games.kinds.base import GameKind, KindEvent, Options, State
from games.live import doorbell
from games.mail_out import mail_preferences, outbox
from games.models import Event, Game, Notification, Seat, SeatChange
from games.robots import owed as robots_owed
from games.timing import claims, deadlines
from ops import logs
from ratings import rating

log = logging.getLogger(__name__)


class StaleMove(ServiceError):
    code = "stale"


class DuplicateMove(ServiceError):
    code = "duplicate"


class CannotJoin(ServiceError):
    code = "cannot_join"


class LookAlikeName(CannotJoin):
    """A seat refused because the joiner's name could be taken for a seated
    player's: ``theirs`` is that player's name."""

    def __init__(self, message: str, theirs: str) -> None:
        super().__init__(message)
        self.theirs = theirs


class CannotInvite(ServiceError):
    code = "cannot_invite"


class BadAddress(ServiceError):
    """An invitation to something that is not an email address."""

    code = "bad_address"


class NotAPlayer(ServiceError):
    code = "not_a_player"


class OverLimit(ServiceError):
    """More games or invitations than an account may make in a day."""

    code = "over_limit"


@dataclass
class Submitted:
    game: Game
    state: State
    events: list[KindEvent]
    #: A JUMBULAYA call kept sealed until the game's claim window closes.
    sealed: bool = False
    #: The game's seats (with their users) as the move left them; empty when sealed.
    seats: list[Seat] = field(default_factory=list)
    #: The move would have ended the game, so the claim window closed first, and a
    #: sealed JUMBULAYA ended the game before it: the move was not made (a call on
    #: one's own turn: a call as long was sealed before it, and won).
    overtaken: bool = False


# --- the projection ----------------------------------------------------------


def _project(
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
        fields |= deadlines.deadline_fields(game, _turn_deadline(game, at.to_move, now, seats))
    return fields


def _turn_deadline(
    game: Game, to_move: Sequence[int], since: datetime, seats: Sequence[Seat] = ()
) -> datetime:
    """The one deadline of a turn opened at ``since`` for the seats
    ``to_move``: the latest of theirs, so that no seat loses time to another's
    vacation."""
    return max(
        deadlines.deadline_after(game, seat, since, seats[seat] if seats else None)
        for seat in to_move
    )


def _notify_after(game: Game, seats: Sequence[Seat], before: State | None, state: State) -> None:
    users = {seat.index: seat.user_id for seat in seats}
    kind = kind_of(game)
    at = kind.progress(state)
    robots = {s.user.pk for s in seats if s.user is not None and s.user.robot_level}
    if at.over:
        outbox.owe(
            game, Notification.Kind.GAME_OVER, users=users.values(), seq=at.seq, robots=robots
        )
    elif at.opens_turn(None if before is None else kind.progress(before)):
        outbox.owe(
            game,
            Notification.Kind.YOUR_TURN,
            users=[users[seat] for seat in at.to_move],
            seq=at.seq,
            robots=robots,
        )


def rebuild_projection(game: Game, *, write: bool = True) -> bool:
    """Replay the game's log and rewrite its projection from it.  Returns whether
    the stored projection differed from the replay.

    A rated game the rewrite finds over is rated then (once:
    :func:`ratings.rating.rate_game`), as every other ending is rated in the
    transaction that writes it.

    The times come from the log too: the game started with its first event and
    finished with its last.  A game in play keeps its stored deadline when the
    turn is the one the log says, and for a kind whose seats move at once the
    round too (vacations may have moved it since); otherwise the deadline is
    counted again from the last event."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        rows = list(game.events.order_by("seq"))
        if not rows:
            return False  # waiting for players: nothing to replay yet
        kind = kind_of(game)
        state = kind.replay([engine_event(row) for row in rows])
        at = kind.progress(state)
        want: dict[str, object] = {
            "state": kind.state_to_json(state),
            "last_seq": at.seq,
            "turn_seat": at.turn,
            "other_movers": models.movers_mask(at.to_move, at.turn),
            "status": Game.Status.OVER if at.over else Game.Status.PLAYING,
            "end_reason": at.end or "",
            "started_at": game.started_at or rows[0].created_at,
        }
        if at.over:
            want |= {
                "deadline_at": None,
                "warn_at": None,
                "claims_close_at": None,
                "finished_at": game.finished_at or rows[-1].created_at,
            }
        else:
            want["finished_at"] = None
            if (
                game.deadline_at is None
                or game.turn_seat != at.turn
                or (at.movers is not None and _stored_round(kind, game) != at.round)
            ):
                assert at.to_move  # a game in play has a seat to move
                due = _turn_deadline(game, at.to_move, rows[-1].created_at)
                want |= deadlines.deadline_fields(game, due)
        differs = any(getattr(game, name) != value for name, value in want.items())
        if differs and write:
            Game.objects.filter(pk=game.pk).update(**want)
            doorbell.ring(game.pk, at.seq)
            for name, value in want.items():
                setattr(game, name, value)
            # A game the log says is over, though its projection did not: rated now,
            # in the same transaction, as the move that ended it would have.
            rating.after_move(game)
    return differs


def _stored_round(kind: GameKind, game: Game) -> int | None:
    """The round of the game's stored state (``None``: none can be read)."""
    if game.state is None:
        return None
    try:
        return kind.progress(kind.state_from_json(game.state)).round
    except Exception:  # a damaged projection is what a rebuild is for
        return None


# --- creating and joining games ----------------------------------------------

#: What the daily limits on games and invitations count: any 24 hours.
LIMIT_WINDOW = timedelta(hours=24)


def local_moment(when: datetime, user: User) -> str:
    """A moment in the user's time zone, to the next minute: ``Tue 3 Jun, 14:05 (UTC)``."""
    zone = deadlines.time_zone(user.time_zone)
    local = timezone.localtime(when + timedelta(minutes=1), zone)
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} ({zone.key})"


def _check_daily_limits(creator: User, invitations: int) -> None:
    """Refuse a game beyond what one account may create in 24 hours:
    ``JUMBULAYA_GAMES_PER_DAY`` games and ``JUMBULAYA_INVITATIONS_PER_DAY``
    invitation emails (:func:`_check_invitation_limit`).  Counted in the
    database, so the limits hold across processes; the caller holds the
    creator's row locked, so two games created at once cannot both take the
    last place.  Staff are exempt (they set up games for others)."""
    if creator.is_staff:
        return
    since = timezone.now() - LIMIT_WINDOW
    games_limit = settings.JUMBULAYA_GAMES_PER_DAY
    if games_limit > 0:
        created = list(
            Game.objects.filter(created_by=creator, created_at__gt=since)
            .order_by("-created_at")
            .values_list("created_at", flat=True)[:games_limit]
        )
        if len(created) >= games_limit:
            frees = local_moment(created[-1] + LIMIT_WINDOW, creator)
            games = "game" if games_limit == 1 else "games"
            raise OverLimit(
                f"You have created {games_limit} {games} in the last 24 hours, as many as one "
                f"account may. You can create another from {frees}."
            )
    _check_invitation_limit(
        creator,
        invitations,
        "This game's",
        "or make the game open so that anyone can join it without an invitation",
    )


def _check_invitation_limit(inviter: User, invitations: int, these: str, otherwise: str) -> None:
    """Refuse ``invitations`` more emails beyond ``JUMBULAYA_INVITATIONS_PER_DAY``
    in 24 hours: one per address invited, with a new game or to a game later,
    counted by who invited it (:attr:`Seat.invited_by`).  ``these`` names
    them in the refusal, and ``otherwise`` says what else the inviter may do.  The caller
    holds the inviter's row locked; staff are exempt."""
    limit = settings.JUMBULAYA_INVITATIONS_PER_DAY
    if inviter.is_staff or limit <= 0 or not invitations:
        return
    allowed = f"{limit} invitation{'s' if limit != 1 else ''} in 24 hours"
    if invitations > limit:
        raise OverLimit(f"One account may send at most {allowed}.")
    # The newest first: when the (limit - invitations + 1)-th newest leaves the
    # window, these invitations fit.
    sent = [
        when
        for when in Seat.objects.filter(
            invited_by=inviter, invited_at__gt=timezone.now() - LIMIT_WINDOW
        )
        .exclude(invited_email="")
        .order_by("-invited_at")
        .values_list("invited_at", flat=True)[:limit]
        if when is not None  # the filter says so; the type does not
    ]
    room = limit - len(sent)
    if invitations > room:
        frees = local_moment(sent[limit - invitations] + LIMIT_WINDOW, inviter)
        plural = "s" if invitations != 1 else ""
        raise OverLimit(
            f"One account may send {allowed}, and your games have sent "
            f"{len(sent)} in the last 24 hours. {these} {invitations} invitation{plural} "
            f"can go from {frees}. Until then, invite fewer people ({room or 'none'} now), "
            f"{otherwise}."
        )


def _invitable(inviter: User, emails: Sequence[str]) -> list[str]:
    """``emails`` as they are stored (trimmed, lower case), checked: each an
    address, listed once, not the inviter's own, not one that asked for no
    invitations."""
    found = [e.strip().lower() for e in emails if e.strip()]
    for email in found:
        try:
            validate_email(email)
        except ValidationError:
            raise BadAddress(f"“{email}” is not an email address.") from None
    if len(set(found)) != len(found):
        raise ServiceError("The same address is invited twice.")
    if inviter.email.lower() in found:
        raise ServiceError("You are already in the game: invite someone else.")
    for email in found:
        if mail_preferences.refuses_invitations(email):
            raise ServiceError(
                f"{email} has asked to get no invitations from this site: ask them to join "
                "an open game instead."
            )
    return found


def create_game(
    creator: User,
    *,
    seat_count: int,
    rules: Options,
    kind: str = kinds.DEFAULT,
    lexicon_name: str = lexicons.DEFAULT_NAME,
    move_hours: float = 72,
    move_minutes: int | None = None,
    is_public: bool = False,
    is_open: bool = False,
    invite_emails: Sequence[str] = (),
    claim_window: bool = True,
    skip_weekends: bool = False,
    timeout_limit: int = 3,
    robots: Sequence[str] = (),
    robot_pace: str = Game.RobotPace.NOW,
    takeover_level: str = "",
    hints: bool = False,
    rated: bool = False,
) -> Game:
    """A new game of ``kind`` (:mod:`games.kinds`) with the creator in seat 0,
    robots of the ``robots`` levels seated at once in the seats after it, and
    invitations for others, within the creator's daily limits (:class:`OverLimit`).
    A game whose seats are all taken so starts at once.  The time per move is
    ``move_minutes``, or else ``move_hours``: at least the operator's
    ``JUMBULAYA_MIN_MOVE_MINUTES``, at most two weeks.  A ``rated`` game
    changes its players' ratings when it ends, and has no hints."""
    if rated and hints:
        raise ServiceError("Hints are off in rated games: make the game casual to play with hints.")
    try:
        game_kind = kinds.get(kind)
    except kinds.UnknownKind as e:
        raise ServiceError(f"This game cannot be created: {e.message}.") from None
    if not game_kind.min_players <= seat_count <= game_kind.max_players:
        raise ServiceError(
            f"A game has {game_kind.min_players} to {game_kind.max_players} players."
        )
    if move_minutes is None:
        move_minutes = round(move_hours * 60)
    least = settings.JUMBULAYA_MIN_MOVE_MINUTES
    if not least <= move_minutes <= models.MAX_MOVE_MINUTES:
        lowest = str(least // 60) if least % 60 == 0 else models.move_time_in_words(least)
        raise ServiceError(
            f"The time per move is {lowest} to {models.MAX_MOVE_HOURS} hours (two weeks)."
        )
    if not models.MIN_TIMEOUT_LIMIT <= timeout_limit <= models.MAX_TIMEOUT_LIMIT:
        raise ServiceError(
            f"A player is removed after {models.MIN_TIMEOUT_LIMIT} to "
            f"{models.MAX_TIMEOUT_LIMIT} missed turns in a row."
        )
    emails = [e.strip().lower() for e in invite_emails if e.strip()]
    if len(emails) > seat_count - 1:
        raise ServiceError(f"A {seat_count}-player game has room for {seat_count - 1} invitations.")
    robot_users = _robots_for(game_kind, robots, seat_count - 1 - len(emails))
    if takeover_level and takeover_level not in kinds.robot_levels(game_kind):
        raise ServiceError(
            f"There is no robot level {takeover_level!r} to take over seats: "
            f"{_levels_in_words(game_kind)}."
        )
    if robot_pace not in Game.RobotPace.values:
        raise ServiceError(f"Robots answer {' or '.join(Game.RobotPace.values)}.")
    emails = _invitable(creator, emails)
    # A kind played without a word list names none.
    lexicon = lexicons.index(game_kind, lexicon_name) if game_kind.uses_word_list else None
    with transaction.atomic():
        # The creator's row, locked: two games created at once are counted in turn.
        User.objects.select_for_update().filter(pk=creator.pk).exists()
        _check_daily_limits(creator, len(emails))
        game = Game.objects.create(
            kind=game_kind.name,
            created_by=creator,
            seat_count=seat_count,
            rules=game_kind.options_to_json(rules),
            lexicon_name=lexicon_name if lexicon is not None else "",
            lexicon_sha256=lexicon.sha256 if lexicon is not None else "",
            move_minutes=move_minutes,
            is_public=is_public,
            is_open=is_open,
            claim_window=claim_window,
            skip_weekends=skip_weekends,
            timeout_limit=timeout_limit,
            robot_pace=robot_pace,
            takeover_level=takeover_level,
            hints=hints,
            rated=rated,
        )
        now = timezone.now()
        seats = [Seat.objects.create(game=game, index=0, user=creator, joined_at=now)]
        for i, robot in enumerate(robot_users, start=1):
            seats.append(Seat.objects.create(game=game, index=i, user=robot, joined_at=now))
        invited = iter(emails)
        for i in range(len(seats), seat_count):
            email = next(invited, "")
            by = {"invited_by": creator, "invited_at": now} if email else {}
            seats.append(Seat.objects.create(game=game, index=i, invited_email=email, **by))
        outbox.owe(game, Notification.Kind.INVITED, emails=emails)
        if all(s.user_id is not None for s in seats):
            _start(game, seats)
    return game


def _robots_for(kind: GameKind, levels: Sequence[str], room: int) -> list[User]:
    """The robot accounts of ``levels``, each level once (one account a level,
    and an account takes one seat), for the ``room`` seats left."""
    if len(levels) > room:
        raise ServiceError("There are more robots and invitations than seats.")
    if len(set(levels)) != len(levels):
        raise ServiceError("Each robot level can take one seat of a game: choose different levels.")
    found = []
    for level in levels:
        robot = robots_owed.robot(level) if level in kinds.robot_levels(kind) else None
        if robot is None:
            raise ServiceError(
                f"There is no robot of the level {level!r} in {kind.label}: "
                f"{_levels_in_words(kind)}."
            )
        found.append(robot)
    return found


def _levels_in_words(kind: GameKind) -> str:
    """``its robot levels are beginner, casual and expert``, for a refusal."""
    rungs = kinds.robot_levels(kind)
    if not rungs:
        return f"{kind.label} has no robots"
    listed = ", ".join(rungs[:-1]) + (" and " if len(rungs) > 1 else "") + rungs[-1]
    return f"its robot levels are {listed}"


def play_against_robot(
    creator: User, level: str = kinds.DEFAULT_RUNG, *, kind: str = kinds.DEFAULT
) -> Game:
    """A game of ``kind`` between ``creator`` and the robot of ``level`` (a
    rung of the ladder: casual unless chosen), with the kind's first preset,
    started at once; rated (robots have ratings, so a newcomer is placed by
    playing them).  Two players, or as few as the kind takes (Blockers: three),
    the other robots of the levels nearest ``level``."""
    try:
        game_kind = kinds.get(kind)
    except kinds.UnknownKind as e:
        raise ServiceError(f"This game cannot be created: {e.message}.") from None
    robots = kinds.robot_opponents(game_kind, level)
    rules = next(iter(game_kind.presets.values()))
    return create_game(
        creator, seat_count=len(robots) + 1, rules=rules, kind=kind, robots=robots, rated=True
    )


def join_game(game_id: int, user: User) -> Seat:
    """Give ``user`` a seat: the one they were invited to, else a free seat of an
    open game.  The game starts when its last seat is taken."""
    email = user.email.lower()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = list(game.seats.select_for_update().order_by("index"))
        if any(s.user_id == user.pk for s in seats):
            raise CannotJoin("You already have a seat in this game.")
        if game.status != Game.Status.OPEN:
            raise CannotJoin("This game has already started.")
        free = [s for s in seats if s.user_id is None]
        seat = next((s for s in free if email and s.invited_email == email), None)
        if seat is None and game.is_open:
            seat = next((s for s in free if not s.invited_email), None)
        if seat is None:
            raise CannotJoin("There is no seat for you in this game: ask for an invitation.")
        _check_names_apart(user, [s.user_id for s in seats if s.user_id is not None])
        seat.user = user
        seat.joined_at = timezone.now()
        seat.save(update_fields=["user", "joined_at"])
        if all(s.user_id is not None for s in seats):
            _start(game, seats)
    return seat


def invite(game_id: int, inviter: User, emails: Sequence[str]) -> list[Seat]:
    """Invite ``emails`` to the free seats of a game waiting for players, for
    one of its players: as :func:`create_game` invites (an email each, within
    the inviter's daily limit on invitations, :class:`OverLimit`), to the free
    seats nobody is invited to yet, lowest first.  Returns the seats invited.
    :class:`NotAPlayer` for anyone without a seat in it (or no such game);
    :class:`CannotInvite` for a game that has started, or without enough free
    seats, or an address already in it."""
    emails = _invitable(inviter, emails)
    if not emails:
        raise BadAddress("Give the address of at least one person to invite.")
    with transaction.atomic():
        # The inviter's row, locked: two invitations at once are counted in turn.
        User.objects.select_for_update().filter(pk=inviter.pk).exists()
        try:
            game = Game.objects.select_for_update().get(pk=game_id)
        except Game.DoesNotExist:
            raise NotAPlayer("There is no such game.") from None
        seats = list(game.seats.select_related("user").order_by("index"))
        if not any(s.user_id == inviter.pk for s in seats):
            raise NotAPlayer("Only the players of this game can invite others to it.")
        if game.status != Game.Status.OPEN:
            raise CannotInvite(
                "This game has started: invitations are for a game still waiting for players."
            )
        for s in seats:
            taken = s.invited_email or (s.user.email.lower() if s.user is not None else "")
            if taken in emails:
                raise CannotInvite(f"{taken} is invited to this game already.")
        free = [s for s in seats if s.user_id is None and not s.invited_email]
        if len(emails) > len(free):
            room = f"{len(free)} free seat{'s' if len(free) != 1 else ''}" if free else "no seat"
            raise CannotInvite(
                f"This game has {room} left for an invitation; you invited {len(emails)}."
            )
        _check_invitation_limit(
            inviter, len(emails), "Your", "or ask another player of the game to invite them"
        )
        now = timezone.now()
        for seat, email in zip(free, emails, strict=False):
            seat.invited_email, seat.invited_by, seat.invited_at = email, inviter, now
            seat.save(update_fields=["invited_email", "invited_by", "invited_at"])
        outbox.owe(game, Notification.Kind.INVITED, emails=emails)
    return free[: len(emails)]


class AccountExists(CannotJoin):
    def __init__(self) -> None:
        super().__init__(
            "This address already has an account: sign in to join (an invitation link "
            "makes new accounts only)."
        )


def join_as_new_player(game_id: int, email: str, name: str) -> User:
    """Make the account for ``email``, named ``name``, and give it the seat of
    ``game_id`` that was invited to that address, in one transaction: either
    both happen or neither.  ``ValidationError`` for a name the rules refuse;
    :class:`AccountExists` when the address has an account; ``CannotJoin``
    when the seat is taken or the game refuses the name."""
    email = accounts.normalize_email(email)
    try:
        with transaction.atomic():
            if User.objects.filter(email__iexact=email).exists():
                raise AccountExists
            if not Seat.objects.filter(
                game_id=game_id, invited_email=email, user__isnull=True
            ).exists():
                raise CannotJoin("There is no free seat for you in this game any more.")
            user = accounts.make_named_account(email, name)
            join_game(game_id, user)
    except IntegrityError as exc:  # the address got an account meanwhile
        raise AccountExists from exc
    return user


def join_with_name(game_id: int, user: User, name: str | None) -> Seat:
    """:func:`join_game`, first setting the user's name when ``name`` is given
    (a player without one names themself on the way in); a refused seat
    leaves the name as it was, and so does a name that could be taken for a
    co-player's in another of the user's games (``CannotJoin``, naming them)."""
    before = user.display_name
    try:
        with transaction.atomic():
            if name is not None:
                accounts.set_display_name(user, name)
            return join_game(game_id, user)
    except ValidationError as exc:
        user.display_name = before
        raise CannotJoin(" ".join(exc.messages)) from exc
    except Exception:
        user.display_name = before
        raise


def _check_names_apart(user: User, seated: list[int]) -> None:
    """Refuse a seat to a player whose name could be taken for that of a player
    already seated ("Ann" and "ann", "Bob" and "B0b"): pages and emails name
    players by their names alone."""
    mine = display_name(user)
    for other in User.objects.filter(pk__in=seated).only("pk", "display_name", "is_bot"):
        theirs = display_name(other)
        if look_alike(mine, theirs):
            raise LookAlikeName(
                f"Your display name, “{mine}”, could be taken for that of {theirs}, who "
                "already has a seat in this game. Choose a name the others can tell apart "
                "on your profile page (an initial will do), then join.",
                theirs,
            )


def _start(game: Game, seats: list[Seat]) -> None:
    """Deal, choose who moves first (at random) and open the log."""
    kind = kind_of(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    players = tuple(display_name(s.user) for s in seats if s.user is not None)
    options = kind.options_from_json(game.rules)
    started = kind.deal(players, options, lexicon, secrets.SystemRandom())
    state = kind.start(started)
    event_row(game, started, kind.progress(state).seq, Event.Source.SYSTEM, None).save()
    now = timezone.now()
    fields = _project(game, state, before=None) | {
        "status": Game.Status.PLAYING,
        "started_at": now,
    }
    Game.objects.filter(pk=game.pk).update(**fields)
    doorbell.ring(game.pk, kind.progress(state).seq)
    for name, value in fields.items():
        setattr(game, name, value)
    outbox.owe(game, Notification.Kind.GAME_STARTED, users=[s.user_id for s in seats], seq=1)
    _notify_after(game, seats, None, state)
    robots_owed.after_move(game, seats, state)
    seat_hints.after_move(game, seats)


# --- moves -------------------------------------------------------------------


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

    While a claim window is open, a call off one's turn is sealed
    (:func:`games.timing.claims.seal`), and a call on one's own turn is judged
    at once: a failed one costs that turn, a verified one closes the window
    with the sealed calls (:func:`_call_closes_window`).  Any other move that
    would end the game closes the window first (:func:`_close_claims_first`),
    in the same transaction: if a sealed JUMBULAYA ends the game, the move is
    not made (``overtaken``).  A resignation is always made; the leaver's
    sealed calls are withdrawn with it.

    What happens after a move is its last step, in this order and in the same
    transaction: the emails owed (:func:`_notify_after`), the deadlines'
    bookkeeping (:func:`games.timing.deadlines.after_move`) and the claim window's
    (:func:`games.timing.claims.after_move`).  None of them imports this module.
    """
    try:
        with transaction.atomic():
            try:
                game, seats = _locked(game_id)
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
                and _take_over(game, seats, seat, before, SeatChange.Reason.RESIGNED)
            ):
                return Submitted(game, before, [], seats=seats)
            calling = kind.claims is not None and kind.verb_of(move) == kind.claims.verb
            on_turn = seat in kind.progress(before).to_move
            if game.claims_close_at is not None and calling and not on_turn:
                claims.seal(game, before, seat, move)
                _log_accepted("call_sealed", game.pk, kind.progress(before).seq, seat, source)
                return Submitted(game, before, [], sealed=True)
            lexicon = game_lexicon(game) if kind.uses_word_list else None
            events = kind.decide(_named_now(kind, before, seats), seat, move, lexicon)
            if game.claims_close_at is not None and resigning:
                claims.withdraw(game, seat)  # leaving is never overtaken: the calls go
            elif (
                game.claims_close_at is not None
                and calling
                and kind.claims is not None
                and kind.claims.call_result(events)
                and claims.unresolved(game)
            ):
                return _call_closes_window(game, seat, move, source, idempotency_key)
            elif (
                game.claims_close_at is not None
                and kind.progress(_folded(kind, before, events)).over
            ):
                # The sealed calls were made before this move: they are judged first.
                _close_claims_first(game, seat, move)
                if Game.objects.values_list("last_seq", flat=True).get(pk=game.pk) != game.last_seq:
                    game, seats = _locked(game_id)
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
            fields = _project(game, state, before=before, seats=seats)
            updated = Game.objects.filter(pk=game.pk, last_seq=game.last_seq).update(**fields)
            if updated != 1:
                raise StaleMove("Another move was made at the same moment; nothing was changed.")
            doorbell.ring(game.pk, kind.progress(state).seq)
            for name, value in fields.items():
                setattr(game, name, value)
            _after_move(game, seats, seat, before, state, events)
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


def _after_move(
    game: Game,
    seats: Sequence[Seat],
    seat: int,
    before: State,
    state: State,
    events: Sequence[KindEvent],
) -> None:
    """What follows an accepted move, inside its transaction: the emails owed,
    the mover's deadline bookkeeping, the claim window (which opens until the
    deadline just set), the robots' turns owed, the hints of the seats to move
    (:func:`games.coach.hints.after_move`, found after the commit) and, when
    the move ended the game, its analysis (:func:`games.coach.analysis.after_move`,
    after the commit)."""
    _notify_after(game, seats, before, state)
    deadlines.after_move(game, seats, seat, events)
    claims.after_move(game, before, state)
    robots_owed.after_move(game, seats, state)
    seat_hints.after_move(game, seats)
    analysis.after_move(game)
    rating.after_move(game)


def _named_now(kind: GameKind, state: State, seats: Sequence[Seat]) -> State:
    """``state`` with its players' names as they are now, for the words of a
    refusal ("It is Zoe's turn"): the log keeps the names of the deal.  Only the
    rules read it; the events are folded onto the state as cached."""
    names = {s.index: display_name(s.user) for s in seats if s.user is not None}
    dealt = kind.players(state)
    players = tuple(names.get(i, name) for i, name in enumerate(dealt))
    return state if players == dealt else kind.with_players(state, players)


def _folded(kind: GameKind, state: State, events: Sequence[KindEvent]) -> State:
    for event in events:
        state = kind.evolve(state, event)
    return state


def _locked(game_id: int) -> tuple[Game, list[Seat]]:
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


# --- deadlines -----------------------------------------------------------------
# A late move is timed out, and a seat late too often removed: moves, so made here.


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
    if _take_over(game, done.seats, seat, state, SeatChange.Reason.TIMEOUTS):
        return 0
    removed = submit(game.pk, seat, "resign", at.seq, Event.Source.DEADLINE)
    outbox.owe(
        removed.game,
        Notification.Kind.REMOVED,
        users=[s.user_id for s in done.seats],
        seq=kind.progress(removed.state).seq,
    )
    return 1


# --- takeover --------------------------------------------------------------------
# A robot takes the seat of a player who leaves, when the game says so.


def _take_over(game: Game, seats: Sequence[Seat], seat: int, state: State, reason: str) -> bool:
    """Give ``seat`` to a robot of the game's ``takeover_level`` instead of the
    seat dropping out (inside the caller's transaction, the game locked): no
    event, the seat and its score stay, a :class:`SeatChange` tells the log.
    False when the game takes no robots, or the seat is a robot's already or
    out of the game, or every robot that could take it is seated."""
    row = seats[seat]
    kind = kind_of(game)
    if row.user is None or row.user.robot_level:
        return False
    if kind.progress(state).over or not kind.in_game(state, seat):
        return False
    robot = takeover_robot(game, seats)
    if robot is None:
        return False
    SeatChange.objects.create(
        game=game,
        seat=seat,
        seq=kind.progress(state).seq,
        reason=reason,
        left=row.user,
        took_over=robot,
    )
    Seat.objects.filter(pk=row.pk).update(user=robot, timeouts_in_a_row=0, muted=False)
    row.user, row.timeouts_in_a_row, row.muted = robot, 0, False
    claims.withdraw(game, seat, tell=False)  # the leaver's sealed calls leave with them
    robots_owed.after_move(game, seats, state)
    doorbell.ring(game.pk, game.last_seq)  # open pages show who holds the seat now
    return True


def takeover_robot(game: Game, seats: Sequence[Seat]) -> User | None:
    """The robot that would take a seat of ``game`` (``seats``: its seats)
    now: the one of the game's takeover level, else the nearest level free in
    this game (:func:`games.kinds.nearest_levels`); ``None`` when the game
    takes no robots or every robot that could is seated.  Changes nothing:
    the resignation's question says who it would be."""
    if not game.takeover_level:
        return None
    seated = {s.user_id for s in seats}
    for level in kinds.nearest_levels(kind_of(game), game.takeover_level):
        robot = robots_owed.robot(level)
        if robot is not None and robot.pk not in seated:
            return robot
    return None


# --- claim windows -------------------------------------------------------------
# The calls sealed in a window are made when it closes: moves, so made here.

#: How many times a claim is resubmitted when a move got in first.
SUBMIT_ATTEMPTS = 5


def close_claim_windows(now: datetime | None = None) -> int:
    """Close every window that is due and resolve its claims.  Returns how many
    windows this sweep closed (a window another sweep closed is not counted)."""
    now = now or timezone.now()
    resolved = 0
    for game_id in claims.due_windows(now):
        try:
            if close_claim_window(game_id, now):
                resolved += 1
        except Exception:  # one game's trouble must not hold up the others' windows
            log.exception(
                "could not close the claim window of game %s; the next sweep retries", game_id
            )
    return resolved


def close_claim_window(game_id: int, now: datetime | None = None) -> bool:
    """Close game ``game_id``'s window if it is due and resolve its claims, in
    one transaction (so that no call can be decided between the close and the
    resolution).  False when the window is not due, or another sweep closed it."""
    now = now or timezone.now()
    with transaction.atomic():
        if not claims.take_window(game_id, now):
            return False
        game = Game.objects.select_for_update().get(pk=game_id)
        _resolve_claims(game, None)
    return True


def _close_claims_first(game: Game, seat: int, move: str) -> None:
    """Close ``game``'s window now, before ``seat``'s ``move``, which would end the
    game (inside :func:`submit`'s transaction, the game row locked): the sealed
    calls were made before that move, so they are judged on the board as it
    stands before it, and a valid one ends the game first.

    The lost turns of failed calls are taken unless one would end the game or
    stop ``move`` (a caller whose failed call would cost the very turn they are
    playing): the game ends with ``move`` anyway.  (A resignation never comes
    here: it is always made, :func:`submit`.)"""
    claims.shut(game)
    _resolve_claims(game, (seat, move))


#: Who made a call that closed the window on their own turn: the seat, and the
#: channel and idempotency key their call came with (its event is theirs).
Caller = tuple[int, str, str | None]


def _call_closes_window(
    game: Game, seat: int, move: str, source: str, idempotency_key: str | None
) -> Submitted:
    """``seat``'s call ``move`` on its own turn, verified, while the window is
    open (inside :func:`submit`'s transaction, the game row locked): a call is
    judged at once, and a verified one would end the game, so it joins the
    sealed calls and the window closes now, judging them all: the longest valid
    call ends the game (ties: the earliest made), the caller's own unless a
    call as long was sealed before it (``overtaken``)."""
    seq = game.last_seq
    claims.join(game, current_state(game), seat, move)
    claims.shut(game)
    _resolve_claims(game, None, caller=(seat, source, idempotency_key))
    game, seats = _locked(game.pk)
    rows = game.events.filter(seq__gt=seq).order_by("seq")
    won = game.claims.filter(seat=seat, outcome=models.JumbulayaClaim.Outcome.MADE).exists()
    events = [engine_event(row) for row in rows]
    return Submitted(game, current_state(game), events, seats=seats, overtaken=not won)


def _resolve_claims(
    game: Game, pending: claims.Pending | None, caller: Caller | None = None
) -> None:
    """Judge the game's sealed claims against the board as it is now: the
    invalid ones cost their callers a turn, then the longest valid one ends
    the game (``caller``: a call on its caller's turn closed the window).  Each
    claim is marked with what became of it, and each caller is owed an email
    saying so; in a game already over none is judged."""
    sealed = claims.unresolved(game)
    if not sealed:
        return
    Outcome = models.JumbulayaClaim.Outcome
    outcomes: dict[int, str] = {c.pk: Outcome.ENDED for c in sealed}
    if game.status == Game.Status.PLAYING:
        outcomes = _judge_claims(game, sealed, pending, caller)
    claims.record_outcomes(game, sealed, outcomes)


def _judge_claims(
    game: Game,
    sealed: list[models.JumbulayaClaim],
    pending: claims.Pending | None,
    caller: Caller | None = None,
) -> dict[int, str]:
    """Make the calls :func:`games.timing.claims.judge` says to (each through
    :func:`submit`; ``caller``'s own valid call with the channel and key it
    came with) and say what became of each claim, by its primary key."""
    judged = claims.judge(game, sealed, current_state(game), game_lexicon(game), pending)
    outcomes = dict(judged.settled)
    Outcome = models.JumbulayaClaim.Outcome
    for claim in judged.failed:
        if not judged.unless_it_ends:
            outcomes[claim.pk] = claims.outcome_of(game, _make_claim(game.pk, claim))
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
        outcomes[claim.pk] = claims.outcome_of(game, _make_claim(game.pk, claim, *sent))
        made = outcomes[claim.pk] == Outcome.MADE
    return outcomes


class _Undo(Exception):
    pass


def _made_unless_it_ends(
    game_id: int, claim: models.JumbulayaClaim, pending: claims.Pending | None
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
    claim: models.JumbulayaClaim,
    source: str = Event.Source.SYSTEM,
    idempotency_key: str | None = None,
) -> list[KindEvent]:
    """Submit ``claim`` as a call, with the game's current sequence number
    (re-read when a move got in first), from ``source`` (the system's, unless
    its caller's own turn closed the window).  Returns its events: none when
    the rules refuse it (a seat that resigned, or one barred by its own
    earlier failed call)."""
    claims_of = kind_of(Game.objects.only("kind").get(pk=game_id)).claims
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


__all__ = [
    "AccountExists",
    "BadAddress",
    "CannotInvite",
    "CannotJoin",
    "DuplicateMove",
    "LookAlikeName",
    "NotAPlayer",
    "OverLimit",
    "Refusal",
    "ServiceError",
    "StaleMove",
    "Submitted",
    "close_claim_window",
    "close_claim_windows",
    "create_game",
    "current_state",
    "display_name",
    "engine_event",
    "event_row",
    "game_lexicon",
    "invite",
    "join_as_new_player",
    "join_game",
    "join_with_name",
    "kind_of",
    "load_events",
    "rebuild_projection",
    "replay_game",
    "submit",
    "sweep_deadlines",
    "time_out_due",
]
