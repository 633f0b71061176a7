"""The fold of a whole log, the same in every engine: its first event is the
deal, which makes the first state; each event after it makes the next.

>>> fold_states([3, 1, 2], int, lambda deal: [deal], lambda s, e: [*s, e])
[[3], [3, 1], [3, 1, 2]]
>>> replay([3, 1, 2], int, lambda deal: [deal], lambda s, e: [*s, e])
[3, 1, 2]
>>> replay(["3"], int, lambda deal: [deal], lambda s, e: [*s, e])
Traceback (most recent call last):
...
ValueError: a log starts with game_started
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import reduce
from itertools import accumulate
from typing import Any

from .records import first_event


def replay[S, E](
    events: Iterable[E], started: type, start: Callable[[Any], S], evolve: Callable[[S, E], S]
) -> S:
    """The state a whole log folds to (``ValueError`` unless its first event
    is a ``started``, the engine's deal)."""
    it = iter(events)
    first = next(it)
    return reduce(evolve, it, start(first_event([first], started)))


def fold_states[S, E](
    events: Sequence[E], started: type, start: Callable[[Any], S], evolve: Callable[[S, E], S]
) -> list[S]:
    """The state after each event of a log, the deal's first: a replay's steps."""
    return list(accumulate(events[1:], evolve, initial=start(first_event(events, started))))
