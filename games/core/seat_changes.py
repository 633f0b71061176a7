"""Seats that changed hands in play (:class:`~games.models.SeatChange`: a
robot took the seat of a player who resigned or was removed for timeouts),
as everything that shows a game reads them.

A player who leaves so keeps the game: it stays in their lists (finished for
them) and they may open it, read-only, as the game page, its turn links, the
API and email replies tell them (:func:`left_in_words`).  The log says when
the seat changed hands (:func:`change_words`), and every line before it names
the player who played it (:func:`games.core.seat_names.as_played`).
"""

from __future__ import annotations

from django.db.models import QuerySet

from games.core.projection import display_name
from games.models import SeatChange

#: The log's words for each way of leaving, after the leaver's name.
_LEFT: dict[str, str] = {
    SeatChange.Reason.RESIGNED: "resigned",
    SeatChange.Reason.TIMEOUTS: "was removed after too many missed turns",
}
#: The same, told to the player who left.
_YOU_LEFT: dict[str, str] = {
    SeatChange.Reason.RESIGNED: "You resigned from this game",
    SeatChange.Reason.TIMEOUTS: "You were removed from this game after too many missed turns",
}


def left_game(game_id: int, user_id: int | None) -> SeatChange | None:
    """How the player ``user_id`` left game ``game_id``, with the robot
    that took their seat; ``None`` if they did not (or nobody is named)."""
    if user_id is None:
        return None
    return (
        SeatChange.objects.filter(game_id=game_id, left_id=user_id)
        .select_related("took_over")
        .order_by("-seq", "-pk")
        .first()
    )


def games_left(user_id: int) -> QuerySet[SeatChange, int]:
    """The ids of the games ``user_id`` left to a robot, for a query's ``__in``."""
    return SeatChange.objects.filter(left_id=user_id).values_list("game_id", flat=True)


def change_words(change: SeatChange) -> str:
    """The log's line: ``Dave resigned; Robot Casual took the seat.``"""
    return (
        f"{display_name(change.left)} {_LEFT.get(change.reason, 'left')}; "
        f"{display_name(change.took_over)} took the seat."
    )


def left_in_words(change: SeatChange) -> str:
    """What the player who left is told wherever they look at the game or
    try to play in it."""
    said = _YOU_LEFT.get(change.reason, "You left this game")
    return (
        f"{said}, and {display_name(change.took_over)} took your seat: the game goes on "
        "without you. You can still follow it on its page, but no longer play in it."
    )
