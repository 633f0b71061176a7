"""A robot takes the seat of a player who leaves, when the game says so."""

from __future__ import annotations

from collections.abc import Sequence

from accounts.models import User
from accounts.robots import robot_account
from games import kinds
from games.core.followers import SeatTaken, publish
from games.core.projection import kind_of
from games.kinds.base import State
from games.live import doorbell
from games.models import Game, Seat, SeatChange


def take_over(game: Game, seats: Sequence[Seat], seat: int, state: State, reason: str) -> bool:
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
    # The leaver's sealed calls leave with them; the robot is owed its turns.
    publish(SeatTaken(game, seats, seat, state))
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
        robot = robot_account(level)
        if robot.pk not in seated:
            return robot
    return None
