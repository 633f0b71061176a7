"""Who may move: the refusals every engine's ``decide`` makes alike, before
its own rules look at the move: none once the game is over, none by a seat
out of the game, and none out of turn but those the rules allow.

>>> from types import SimpleNamespace
>>> state = SimpleNamespace(over=False, seats=2, resigned={1}, turn=0, players=("Ann", "Bo"))
>>> check_in_game(state, 0)
>>> def refusal(check, *args):
...     try:
...         check(state, *args)
...     except Refusal as r:
...         return r.code, r.message
>>> refusal(check_in_game, 1)
('not_in_game', 'You are no longer in this game, so you cannot move.')
>>> refusal(check_turn, 1, "a resignation")[1]
"It is Ann's turn, not yours. Only a resignation can be made out of turn."
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from ..errors import Refusal


class Seated(Protocol):
    """What the checks read of an engine's state."""

    @property
    def over(self) -> bool: ...
    @property
    def seats(self) -> int: ...
    @property
    def resigned(self) -> Collection[int]: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def players(self) -> Sequence[str]: ...


def check_in_game(state: Seated, seat: int) -> None:
    """Refuse any move once the game is over, and any by a seat not in it."""
    if state.over:
        raise Refusal("game_over", "The game is over: no more moves can be made.")
    if not 0 <= seat < state.seats or seat in state.resigned:
        raise Refusal("not_in_game", "You are no longer in this game, so you cannot move.")


def check_turn(state: Seated, seat: int, off_turn: str) -> None:
    """Refuse a move by ``seat`` out of its turn, naming ``off_turn``, the
    moves the rules allow out of turn (``"a resignation"``)."""
    if state.turn != seat:
        assert state.turn is not None
        raise Refusal(
            "not_your_turn",
            f"It is {state.players[state.turn]}'s turn, not yours. Only {off_turn} can be made "
            "out of turn.",
        )
