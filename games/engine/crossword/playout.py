"""Random legal games, for the tests and the benchmark that need boards
played to the middle of a game.

Not a move generator: a turn looks only at words that cross one tile already
on the board at right angles (or, for the first play, lie across the centre),
made of that tile and some of the rack's natural tiles, and asks
:func:`~games.engine.crossword.commands.decide` which of them are legal.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import combinations

from ..errors import Refusal
from .board import EMPTY
from .commands import EXCHANGE_MIN_BAG, Words, decide, drawer
from .events import Event, GameStarted
from .fold import evolve, start
from .layout import BLANK, COLUMNS, SIZE
from .state import GameState


class Anagrams:
    """Words by their sorted letters (2 to ``longest`` letters), each bucket in
    alphabetical order so that a seeded game is the same in every process."""

    def __init__(self, words: Iterable[str], longest: int = 8) -> None:
        self.by_key: dict[str, list[str]] = {}
        for word in sorted(words):
            if 2 <= len(word) <= longest:
                self.by_key.setdefault("".join(sorted(word)), []).append(word)

    def made_from(self, letters: str, extra: str = "") -> list[str]:
        """Words using ``extra`` and any two or more of ``letters``."""
        found: list[str] = []
        for size in range(max(1, 2 - len(extra)), len(letters) + 1):
            for chosen in dict.fromkeys(combinations(sorted(letters), size)):
                found.extend(self.by_key.get("".join(sorted((*chosen, *extra))), ()))
        return found


def _written(row: int, col: int, across: bool, word: str) -> str:
    square = f"{row + 1}{COLUMNS[col]}" if across else f"{COLUMNS[col]}{row + 1}"
    return f"{square} {word}"


def candidate_plays(
    state: GameState, seat: int, anagrams: Anagrams, rng: random.Random
) -> list[str]:
    """Plays worth trying, shuffled: each may still be refused."""
    rack = state.racks[seat].replace(BLANK, "")
    out: list[str] = []
    if state.first_play:
        for word in dict.fromkeys(anagrams.made_from(rack)):
            for i in range(len(word)):
                if 7 - i >= 0 and 7 - i + len(word) <= SIZE:
                    out.append(_written(7, 7 - i, rng.random() < 0.5, word))
    else:
        squares = [q for q, c in enumerate(state.board) if c != EMPTY]
        for q in rng.sample(squares, min(len(squares), 12)):
            letter = state.board[q].upper()
            row, col = divmod(q, SIZE)
            for word in dict.fromkeys(anagrams.made_from(rack, letter)):
                for i, c in enumerate(word):
                    if c != letter:
                        continue
                    if col - i >= 0 and col - i + len(word) <= SIZE:
                        out.append(_written(row, col - i, True, word))
                    if row - i >= 0 and row - i + len(word) <= SIZE:
                        out.append(_written(row - i, col, False, word))
    rng.shuffle(out)
    return out


def random_turn(
    state: GameState, seat: int, anagrams: Anagrams, words: Words, rng: random.Random
) -> list[Event]:
    """A legal turn for ``seat``: the first legal play found, else an
    exchange while the bag allows one, else a pass.  Its draws come from
    ``rng`` too, so a seeded game is the same game every time."""
    draw = drawer(rng)
    for move in candidate_plays(state, seat, anagrams, rng):
        try:
            return decide(state, seat, move, words, draw)
        except Refusal:
            continue
    rack = state.racks[seat]
    if len(state.bag) >= EXCHANGE_MIN_BAG and rack:
        return decide(state, seat, "exchange " + rack[: rng.randint(1, len(rack))], words, draw)
    return decide(state, seat, "pass", words, draw)


def random_game(
    started: GameStarted,
    anagrams: Anagrams,
    words: Words,
    rng: random.Random,
    turns: int = 200,
) -> list[Event]:
    """A game played by :func:`random_turn` to its end (or ``turns`` turns)."""
    events: list[Event] = [started]
    state = start(started)
    for _ in range(turns):
        if state.turn is None:
            break
        for event in random_turn(state, state.turn, anagrams, words, rng):
            state = evolve(state, event)
            events.append(event)
    return events
