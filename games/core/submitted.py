"""What the door did with a move (:func:`games.core.door.submit`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.kinds.base import KindEvent, State
from games.models import Game, Seat


@dataclass
class Submitted:
    """What :func:`submit` did: the game and its state after the move, and its events."""

    game: Game
    state: State
    events: list[KindEvent]
    #: A call held sealed until the game's off-turn window closes.
    sealed: bool = False
    #: The game's seats (with their users) as the move left them; empty when sealed.
    seats: list[Seat] = field(default_factory=list)
    #: The move would have ended the game, so the off-turn window closed first,
    #: and a sealed call ended the game before it: the move was not made (a call
    #: on one's own turn: a call as good was sealed before it, and won).
    overtaken: bool = False
