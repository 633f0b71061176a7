"""Where the door asks a game's off-turn window before a move.

:func:`games.core.door.submit` and :func:`games.core.takeover.take_over` ask
the :class:`WindowGate` installed here; :mod:`games.core.windows` installs it at
start-up (:class:`games.apps.GamesConfig`), since it makes its calls through
the door and so imports it: the door cannot import it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from games.core.submitted import Submitted
from games.kinds.base import KindEvent, State
from games.models import Game


class WindowGate(Protocol):
    """What the door asks a game's off-turn window."""

    def holds(self, game: Game, before: State, seat: int, move: str, source: str) -> bool:
        """Whether ``seat``'s ``move`` is held sealed, unmade, until the window
        closes (stored: the door answers ``sealed``)."""
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
        """What the window does before the decided ``events`` are appended: the
        :class:`~games.core.submitted.Submitted` of the move when the window
        made it itself (a call that closed it), True when it closed first and
        may have moved the game (the door reads it again), else False."""
        ...


_installed: list[WindowGate] = []


def install(gate: WindowGate) -> None:
    """Install the off-turn windows' gate (once, at start-up)."""
    _installed[:] = [gate]


def installed() -> WindowGate | None:
    """The gate, or ``None`` before start-up installed one."""
    return _installed[0] if _installed else None
