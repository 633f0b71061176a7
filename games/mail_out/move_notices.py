"""The emails a move owes (a follower of :class:`games.core.followers.Moved`):
written to the outbox in the move's transaction."""

from __future__ import annotations

from games.core.followers import Moved
from games.core.projection import kind_of
from games.mail_out import outbox
from games.models import Notification


def on_move(moved: Moved) -> None:
    """Owe the emails a move (or the deal) calls for, in its transaction: the
    game-over email to every player, else the your-turn email to each seat a
    turn opens for (robots are owed none)."""
    game, seats, before, state = moved.game, moved.seats, moved.before, moved.state
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
