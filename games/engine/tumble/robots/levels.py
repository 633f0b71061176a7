"""The robot levels: how wide each searches and for how long."""

from __future__ import annotations

import random
import time
from collections.abc import Collection
from dataclasses import dataclass

from ..view import SeatView
from .search import Found, Search
from .words import index_of

#: The strongest level's default time budget: within the 2 s goal, with room
#: for reading the view and writing the answer.
STRONG_BUDGET_MS = 1200.0


@dataclass(frozen=True)
class Level:
    """A level: its name, a line for people, and its search.  ``widths``: the
    beam widths tried one after the other while time is left (``()``: one word
    only, picked at random among the ``pick`` best)."""

    name: str
    description: str
    widths: tuple[int, ...]
    per_node: int
    budget_ms: float
    pick: int = 1

    def crossword(
        self,
        roll: str,
        words: Collection[str],
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> Found | None:
        """The crossword this level lays for ``roll`` (``None``: no word at all)."""
        search = Search(roll, index_of(words), words)
        if not self.widths:
            starts = search.first_words()[: self.pick]
            return rng.choice(starts) if starts else None
        budget = self.budget_ms if budget_ms is None else budget_ms
        deadline = time.perf_counter() + budget / 1000
        best: Found | None = None
        for width in self.widths:
            found = search.run(width, self.per_node, deadline)
            if found is not None and (best is None or found.score > best.score):
                best = found
            if time.perf_counter() > deadline:
                break
        return best

    def answer(
        self,
        view: SeatView,
        words: Collection[str],
        rng: random.Random,
        budget_ms: float | None = None,
    ) -> str:
        """The protocol's answer: ``submit`` and the crossword when the open
        round waits for this seat (``submit .``, the empty crossword, when the
        roll spells no word), else ``wait``."""
        roll = view.roll
        if not view.to_play or roll is None:
            return "wait"
        found = self.crossword(roll, words, rng, budget_ms)
        return "submit ." if found is None else f"submit {found.text}"


BEGINNER = Level(
    "beginner", "One good word, one of the three best it sees; no crossword.", (), 0, 0.0, pick=3
)
CASUAL = Level(
    "casual", "Grows a crossword greedily from its best word, a few words deep.", (2,), 3, 300.0
)
STRONG = Level(
    "strong",
    "The highest-scoring crossword it can find in its time (beam search, up to 1.2 s).",
    (16, 48, 160, 500),
    20,
    STRONG_BUDGET_MS,
)
