"""The lobby: games created, invitations, seats taken, and the deal once the
last seat is taken (:func:`games.core.door.submit` makes the moves after it)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from accounts.names import look_alike
from accounts.robots import robot_account
from games import kinds, models
from games.core import lexicons
from games.core.door import NotAPlayer, projection_fields
from games.core.followers import Moved, publish
from games.core.limits import (
    BadAddress,
    check_daily_limits,
    check_invitation_limit,
    invitable,
)
from games.core.projection import (
    ServiceError,
    display_name,
    event_row,
    game_lexicon,
    kind_of,
)
from games.kinds.base import GameKind, Options
from games.live import doorbell
from games.mail_out import outbox
from games.models import Event, Game, Notification, Seat


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
    emails = invitable(creator, emails)
    # A kind played without a word list names none.
    lexicon = lexicons.index(game_kind, lexicon_name) if game_kind.uses_word_list else None
    with transaction.atomic():
        # The creator's row, locked: two games created at once are counted in turn.
        User.objects.select_for_update().filter(pk=creator.pk).exists()
        check_daily_limits(creator, len(emails))
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
            window_on=claim_window,
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
        robot = robot_account(level) if level in kinds.robot_levels(kind) else None
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
    emails = invitable(inviter, emails)
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
        check_invitation_limit(
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
    """Deal, choose who moves first (at random) and open the log; the deal is
    published to the followers as a move with no mover
    (:class:`~games.core.followers.Moved`)."""
    kind = kind_of(game)
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    players = tuple(display_name(s.user) for s in seats if s.user is not None)
    options = kind.options_from_json(game.rules)
    started = kind.deal(players, options, lexicon, secrets.SystemRandom())
    state = kind.start(started)
    event_row(game, started, kind.progress(state).seq, Event.Source.SYSTEM, None).save()
    now = timezone.now()
    fields = projection_fields(game, state, before=None) | {
        "status": Game.Status.PLAYING,
        "started_at": now,
    }
    Game.objects.filter(pk=game.pk).update(**fields)
    doorbell.ring(game.pk, kind.progress(state).seq)
    for name, value in fields.items():
        setattr(game, name, value)
    outbox.owe(game, Notification.Kind.GAME_STARTED, users=[s.user_id for s in seats], seq=1)
    publish(Moved(game, seats, None, None, state, [started]))
