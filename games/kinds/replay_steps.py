"""What every kind's replay step shares (:meth:`KindPresentation.replay_step`):
the fields and links the replay page reads of any kind's step, each event in
words from the states a log folds through
(:func:`games.engine.common.fold.fold_states`), and the log with the step
marked.  A kind's step adds what its own board template draws.

>>> from types import SimpleNamespace
>>> final = SimpleNamespace(players=["Ann", "Bo"], scores=[3, 5])
>>> step = ReplayStep(step=0, last=2, words="dealt", log=[], final=final, refused=None)
>>> (step.prev, step.next, step.at_start, step.at_end, step.final_scores)
(0, 1, True, False, [('Ann', 3), ('Bo', 5)])
>>> [(e.step, e.move, e.current) for e in step_log(["dealt", "a", "b"], ("x", "y"), 1)]
[(0, '', False), (1, 'x', True), (2, 'y', False)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class FinalView(Protocol):
    """What a step reads of the view of where the replay ends."""

    @property
    def players(self) -> Sequence[str]: ...
    @property
    def scores(self) -> Sequence[int]: ...


@dataclass(frozen=True)
class StepEntry:
    """One entry of a replay's log: its step, what happened in words, the turn
    in the notation (``""`` for the deal), and whether it is the step shown."""

    step: int
    words: str
    move: str
    current: bool


@dataclass(frozen=True)
class ReplayStep[V: FinalView]:
    """One step of a replay, as the replay page reads it of every kind:
    ``final`` is the kind's seat view of where the replay ends (a spectator's:
    nothing is secret in a record), with its ``players`` and ``scores``."""

    step: int
    last: int
    words: str  # what happened at this step
    log: list[StepEntry]
    final: V
    refused: str | None

    @property
    def prev(self) -> int:
        return max(self.step - 1, 0)

    @property
    def next(self) -> int:
        return min(self.step + 1, self.last)

    @property
    def at_start(self) -> bool:
        return self.step == 0

    @property
    def at_end(self) -> bool:
        return self.step == self.last

    @property
    def final_scores(self) -> list[tuple[str, int]]:
        return list(zip(self.final.players, self.final.scores, strict=True))


def step_words[S](
    events: Sequence[Any], states: Sequence[S], describe: Callable[[S, Any, S], str]
) -> list[str]:
    """Each event in words, from the states before and after it
    (:func:`~games.engine.common.fold.fold_states`; the deal is said from the state it makes)."""
    return [describe(states[max(n - 1, 0)], event, states[n]) for n, event in enumerate(events)]


def step_log(words: Sequence[str], moves: Sequence[str], step: int) -> list[StepEntry]:
    """The log in ``words`` (one a step, the deal first) with ``step`` marked;
    ``moves[n - 1]`` made step ``n``."""
    return [
        StepEntry(n, said, moves[n - 1] if n else "", n == step) for n, said in enumerate(words)
    ]
