"""What follows a move: the door publishes it, the followers react.

:func:`games.core.door.submit` publishes one :class:`Moved` value as the last
step of an accepted move, inside the move's transaction; each follower is a
plain callable that reacts to it (owes the emails, counts the timeouts, opens
an off-turn window, owes the robots' turns, asks for hints, an analysis, rates
the game).  The followers register themselves at start-up, in the ``ready()``
of the app that owns them (:class:`games.apps.GamesConfig`, then
:class:`ratings.apps.RatingsConfig`), so the core imports none of them
(``tests/service/test_followers.py``).

Followers of a value run in the order they registered: the order the apps are
installed in and, inside an app, the order its ``ready()`` lists them.  For a
:class:`Moved`:

1. the emails owed (:func:`games.mail_out.move_notices.on_move`);
2. the timeouts in a row counted, a vacation a move ends
   (:func:`games.timing.lateness.on_move`);
3. the off-turn window (:func:`games.core.windows.on_move`: it opens until the
   deadline the move set);
4. the robots' turns owed (:func:`games.robots.owed.on_move`);
5. the hints of the seats to move (:func:`games.coach.hints.on_move`, asked
   for after the commit);
6. the analysis of a game the move ended (:func:`games.coach.analysis.on_move`,
   after the commit);
7. the ratings of a rated game the move ended (:func:`ratings.rating.on_move`).

The deal publishes a :class:`Moved` too, with no mover and no state before
it.  A robot taking over a player's seat is no move, but it is published as a
:class:`SeatTaken` (the window withdraws the leaver's sealed calls, then the
robot is owed its turns), and a rebuild that rewrote a game's projection as a
:class:`Rebuilt` (a game found over is rated).

A follower runs inside the transaction that published the value, so what it
owes is written with the move or not at all: one that raises rolls the move
back.  Anything a follower does after the commit it asks for with
``transaction.on_commit``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.kinds.base import KindEvent, State
from games.models import Game, Seat


@dataclass(frozen=True)
class Moved:
    """What happened: ``mover``'s move took ``game`` from ``before`` to
    ``state`` by ``events`` (the deal: no mover, nothing before);
    ``seats`` are the game's seats with their users."""

    game: Game
    seats: Sequence[Seat]
    mover: int | None
    before: State | None
    state: State
    events: Sequence[KindEvent]


@dataclass(frozen=True)
class SeatTaken:
    """A robot took ``seat`` of ``game`` (no event: its ``state`` is as it
    was); ``seats`` are the game's seats, the robot's among them."""

    game: Game
    seats: Sequence[Seat]
    seat: int
    state: State


@dataclass(frozen=True)
class Rebuilt:
    """A rebuild rewrote ``game``'s projection from its log."""

    game: Game


_followers: dict[type[Any], list[Callable[[Any], None]]] = {}


def follow[V: (Moved, SeatTaken, Rebuilt)](what: type[V], follower: Callable[[V], None]) -> None:
    """Register ``follower`` to run on every ``what`` published, after those
    registered before it (once: registering it again changes nothing)."""
    found = _followers.setdefault(what, [])
    if follower not in found:
        found.append(follower)


def followers[V: (Moved, SeatTaken, Rebuilt)](what: type[V]) -> list[Callable[[V], None]]:
    """The followers of ``what``, in the order they run."""
    return list(_followers.get(what, []))


def publish(value: Moved | SeatTaken | Rebuilt) -> None:
    """Run every follower of ``value``'s type on it, in order, in the caller's
    transaction."""
    for follower in _followers.get(type(value), []):
        follower(value)
