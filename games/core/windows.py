"""Off-turn windows, as the core knows them: by their keepers.

A kind with an off-turn window (:mod:`games.kinds.windows`) lets its players
call while it is open, off their turn; the calls are held and settled together
when the window closes.  The core knows no such game: each kind's window names
the module that keeps it (``window.keeper``), loaded here at start-up
(:func:`install`), and what the core asks of it is :class:`WindowKeeper`:

* at the door, before each move of a game of its kind (the :class:`Gate` this
  module installs, :mod:`games.core.window_gate`): whether a call is held
  sealed, and whether the window closes first, or makes the move itself;
* after each move (:func:`on_move`, a follower) and when a robot takes a seat
  over (:func:`on_seat_taken`);
* every minute, which windows are due, and to close each
  (:func:`close_windows`: one game's trouble holds up no other's);
* for the channels, the words they answer a held call or a move a window
  overtook with, and a seat's calls still sealed.

A keeper makes its calls through the one door (:func:`games.core.door.submit`),
which imports no keeper.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from importlib import import_module
from typing import Protocol

from django.utils import timezone

from games import kinds
from games.core import window_gate
from games.core.followers import Moved, SeatTaken, follow
from games.core.projection import ServiceError, kind_of
from games.core.submitted import Submitted
from games.kinds.base import GameKind, KindEvent, State
from games.models import Game

log = logging.getLogger(__name__)


class AlreadyCalled(ServiceError):
    """A call its caller has sealed already, sent again: a call is judged once."""

    code = "already_called"


class WindowKeeper(Protocol):
    """What the core asks a kind's off-turn window (its keeper's ``WINDOW``)."""

    #: What the player whose move a sealed call overtook is told.
    overtaken_notice: str

    def holds(self, game: Game, before: State, seat: int, move: str) -> bool:
        """Whether ``seat``'s ``move`` is held sealed, unmade (stored)."""
        ...

    def ahead_of(
        self,
        game: Game,
        seat: int,
        move: str,
        source: str,
        idempotency_key: str | None,
        before: State,
        events: Sequence[KindEvent],
    ) -> Submitted | bool:
        """What the window does before the decided ``events`` are appended
        (:meth:`games.core.window_gate.WindowGate.ahead_of`)."""
        ...

    def on_move(self, moved: Moved) -> None:
        """The window's step after a move, in its transaction."""
        ...

    def on_seat_taken(self, taken: SeatTaken) -> None:
        """The window's step when a robot takes a seat over."""
        ...

    def due(self, now: datetime) -> list[int]:
        """The games whose window is due to close, a batch of them."""
        ...

    def close(self, game_id: int, now: datetime) -> bool:
        """Close the game's window if it is due, and settle its calls (False:
        not due, or another sweep closed it)."""
        ...

    def sealed_notice(self, game: Game, tz_name: str) -> str:
        """What a player whose call was held is told (times in ``tz_name``)."""
        ...

    def sealed_calls(self, game: Game, seat: int | None) -> Sequence[object]:
        """``seat``'s own calls still sealed (none for a spectator)."""
        ...


_keepers: dict[str, WindowKeeper] = {}


def keeper_of(kind: GameKind) -> WindowKeeper | None:
    """The keeper of ``kind``'s window, or ``None`` for a kind without one."""
    return _keepers.get(kind.name)


def keeper_of_game(game: Game) -> WindowKeeper | None:
    """The keeper of ``game``'s window, or ``None`` for a kind without one."""
    return keeper_of(kind_of(game))


class Gate:
    """The door's questions (:class:`~games.core.window_gate.WindowGate`),
    passed to the keeper of the game's kind."""

    def holds(self, game: Game, before: State, seat: int, move: str, source: str) -> bool:
        keeper = keeper_of_game(game)
        return keeper is not None and keeper.holds(game, before, seat, move)

    def ahead_of(
        self,
        game: Game,
        seat: int,
        move: str,
        source: str,
        idempotency_key: str | None,
        before: State,
        events: Sequence[KindEvent],
    ) -> Submitted | bool:
        keeper = keeper_of_game(game)
        if keeper is None:
            return False
        return keeper.ahead_of(game, seat, move, source, idempotency_key, before, events)


def on_move(moved: Moved) -> None:
    """The window's step after a move (a follower, :mod:`games.core.followers`)."""
    keeper = keeper_of_game(moved.game)
    if keeper is not None:
        keeper.on_move(moved)


def on_seat_taken(taken: SeatTaken) -> None:
    """The window's step when a robot takes a seat over (a follower)."""
    keeper = keeper_of_game(taken.game)
    if keeper is not None:
        keeper.on_seat_taken(taken)


def sealed_notice(game: Game, tz_name: str) -> str:
    """What a player whose call ``game``'s window held is told."""
    keeper = keeper_of_game(game)
    return "" if keeper is None else keeper.sealed_notice(game, tz_name)


def overtaken_notice(game: Game) -> str:
    """What a player whose move ``game``'s window overtook is told."""
    keeper = keeper_of_game(game)
    return "" if keeper is None else keeper.overtaken_notice


def sealed_calls(game: Game, seat: int | None) -> Sequence[object]:
    """``seat``'s own calls still sealed in ``game``'s window (none for a
    spectator, nor in a game whose kind has no window)."""
    keeper = keeper_of_game(game)
    return [] if keeper is None else keeper.sealed_calls(game, seat)


def close_windows(now: datetime | None = None) -> int:
    """Close every window that is due and settle its calls.  Returns how many
    windows this sweep closed (a window another sweep closed is not counted)."""
    now = now or timezone.now()
    closed = 0
    for keeper in _keepers.values():
        for game_id in keeper.due(now):
            try:
                if keeper.close(game_id, now):
                    closed += 1
            except Exception:  # one game's trouble must not hold up the others' windows
                log.exception(
                    "could not close the window of game %s; the next sweep retries", game_id
                )
    return closed


def install() -> None:
    """Load each kind's window keeper, install the gate at the door and register
    the window's seat follower (at start-up, :class:`games.apps.GamesConfig`)."""
    for kind in kinds.all():
        if kind.window is not None:
            _keepers[kind.name] = import_module(kind.window.keeper).WINDOW
    window_gate.install(Gate())
    follow(SeatTaken, on_seat_taken)
