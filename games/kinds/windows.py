"""The off-turn window: a capability a kind may have.

Some games let a player act off their turn, unseen by the others, for a while:
JUMBULAYA's call, once its conditions hold, is held sealed in a window and
judged with the others' calls when the window closes (the longest valid call
ends the game).  A kind with such a window gives :class:`OffTurnWindow` as its
``window``; a kind without one gives ``None``, and the core asks it nothing.

The capability has two halves.  The rules' half is here, pure like the rest
of a kind: the verb of a call, whether a call may be made now, the checks a
call gets before its word is looked at, what a call would verify as, and what
a call's events say.  The keeping half (the window's close time, the calls
stored, who is told, how the calls are judged when it closes) needs the
database, which a kind's rules never import: the kind names the module that
keeps it (:attr:`OffTurnWindow.keeper`), and :mod:`games.core.windows` imports
it at start-up and asks it at the door (a call off one's turn may be held, a
move that would end the game closes the window first), after each move, when
a robot takes a seat over, and every minute (the windows due to close).

The crossword game's challenge (the next player may challenge the last play
before it stands) and Tumble-Words' sealed rounds (every seat moves at once,
unseen until the round closes) are windows of the same shape: moves made off
the ordinary turn, kept unseen or pending, settled when a deadline or the
last mover closes them.  Both are played today through the rules' own state
(``Progress.answerers``, ``Progress.movers``), with nothing kept outside the
log, so they need no keeper; one that did would give a window here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class OffTurnWindow[S, E, W](Protocol):
    """The rules of a kind's off-turn calls, over its state ``S``, its events
    ``E`` and its word index ``W``."""

    #: The verb of a call in the kind's notation (``jumbulaya``).
    verb: str
    #: The module that keeps the window (imported at start-up by
    #: :mod:`games.core.windows`; it holds ``WINDOW``, a
    #: :class:`games.core.windows.WindowKeeper`).
    keeper: str

    def is_open(self, state: S) -> bool:
        """Whether a call may be made now (the window opens when this first holds)."""
        ...

    def check_call(self, state: S, seat: int, move: str) -> str:
        """The checks a call gets before its word is looked at, in the rules'
        order (a ``Refusal``); returns the word called, unchecked."""
        ...

    def verify(self, state: S, word: str, lexicon: W) -> int | None:
        """How many tiles a call of ``word`` would verify on ``state``'s board
        (the longest reading), or ``None`` if it would fail."""
        ...

    def call_result(self, events: Sequence[E]) -> bool | None:
        """Whether a call's events verified it (``True``), failed it (``False``),
        or neither (``None``: the rules refused it)."""
        ...
