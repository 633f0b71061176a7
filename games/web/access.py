"""Who may see and act in a game.

A seat's player sees the game with their own rack; anyone signed in may watch a
public game as a spectator (no rack, no draws, no bag); a player who left the
game to a robot (:mod:`games.core.seat_changes`) keeps it: they see it as a
spectator does, the game over for them, and may no longer move.  Every view
that shows or changes a game asks here first, and every list of games or
figure drawn from games about another player (a player's page, a ratings
history) keeps to :func:`visible_games`, the same rule as a query.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404

from accounts.models import User as Account
from games.core.seat_changes import games_left, left_game
from games.models import Game, Seat, SeatChange


@dataclass(frozen=True)
class Viewer:
    game: Game
    seat: int | None  # None: a spectator
    #: How the viewer left the game, a robot taking their seat (they see it as a spectator).
    left: SeatChange | None = None

    @property
    def is_player(self) -> bool:
        return self.seat is not None


def seat_of(game: Game, user: Account | AnonymousUser) -> int | None:
    if not user.is_authenticated:
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat.index
    return None


def visible_games(user: Account | AnonymousUser) -> QuerySet[Game]:
    """The games ``user`` may see, as :func:`viewer_or_404` judges one game:
    those they hold a seat in or left to a robot and, signed in, every public
    game; none for a visitor who is not signed in (a turn link opens its one
    game's page, never a list)."""
    if not user.is_authenticated:
        return Game.objects.none()
    seated = Seat.objects.filter(user_id=user.pk).values("game_id")
    return Game.objects.filter(Q(is_public=True) | Q(pk__in=seated) | Q(pk__in=games_left(user.pk)))


def may_ask_to_join(game_id: int, user: Account) -> bool:
    """Whether a refused join may tell ``user`` why (a seat already theirs, a
    game started or over, no seat for them): the game is one they may see
    (:func:`visible_games`), one listed under Open games (``is_open``: anyone
    may ask for a seat), or one with a seat invited at their address.  For
    anyone else every refusal, a game that does not exist included, is the
    same 404: nothing tells a private game's existence or state."""
    email = (user.email or "").lower()
    asked = Q(is_open=True)
    if email:
        asked |= Q(seats__invited_email=email)
    return (Game.objects.filter(asked) | visible_games(user)).filter(pk=game_id).exists()


def _linked_seat(game: Game, link_games: Mapping[str, int] | None) -> int | None:
    """The seat a turn link opened in this browser session, if any: the session
    maps ``str(game_id)`` to the user the link was sent to, who must still hold
    a seat in that game."""
    if not link_games:
        return None
    user_id = link_games.get(str(game.pk))
    if user_id is None:
        return None
    for seat in game.seats.all():
        if seat.user_id == user_id:
            return seat.index
    return None


def viewer_or_404(
    game_id: int,
    user: Account | AnonymousUser,
    link_games: Mapping[str, int] | None = None,
) -> Viewer:
    """The game as ``user`` may see it, or 404 (not 403: a private game's
    existence is not disclosed).

    ``link_games`` (the session's ``link_games``, set by a turn link) lets a
    visitor who is not signed in see the one game a turn link was sent for, as
    that link's seat.  A signed-in user is judged as before, by their own seat.
    A player who left the game to a robot, signed in or through a link of
    theirs, sees it as a spectator, told so (``left``)."""
    try:
        game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    seat = seat_of(game, user)
    if seat is None and not user.is_authenticated:
        seat = _linked_seat(game, link_games)
    left = None
    if seat is None:
        who = user.pk if user.is_authenticated else (link_games or {}).get(str(game.pk))
        left = left_game(game.pk, who)
    if seat is None and left is None and not (game.is_public and user.is_authenticated):
        raise Http404("No such game.")
    return Viewer(game, seat, left)
