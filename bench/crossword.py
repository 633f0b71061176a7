"""The crossword engine's figures (``python -m bench crossword``): validating
one move on mid-game boards (legal moves, and illegal ones of three kinds),
and replaying whole games from their logs and from their records.

The boards come from seeded random legal games
(:mod:`games.engine.crossword.playout`) played with the ENABLE list.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from games.engine.crossword.commands import decide
from games.engine.crossword.deal import deal
from games.engine.crossword.events import Event
from games.engine.crossword.fold import evolve, replay, start
from games.engine.crossword.notation import verb_of
from games.engine.crossword.options import PRESETS
from games.engine.crossword.playout import Anagrams, random_game
from games.engine.crossword.record import replay_json, turn_moves, write_record
from games.engine.crossword.state import GameState
from games.engine.errors import Refusal

from .stats import best_ns, note, summary

ENABLE = Path(__file__).resolve().parent.parent / "games" / "engine" / "data" / "enable1.txt.gz"
SEED = 20240601
GAMES = 20
GOALS: dict[str, str] = {
    "crossword_validate_move_us": "median ≤ 50 µs (legal and illegal moves, mid-game boards)",
}


def load_words() -> frozenset[str]:
    with gzip.open(ENABLE, "rt") as f:
        return frozenset(line.strip().upper() for line in f)


def _illegal(move: str) -> list[str]:
    """Three refusals near a legal play: a changed letter (a word the list
    lacks or a tile the rack lacks), the play one square along (usually a
    geometry refusal), and the same word written off the board."""
    square, written = move.split()
    word = written.replace("(", "").replace(")", "")  # board letters may be written plainly
    changed = word[:-1] + ("Q" if word[-1] != "Q" else "Z")
    if square[0].isdigit():
        shifted = f"{square[:-1]}{chr(ord(square[-1]) + 1)}" if square[-1] < "O" else square
    else:
        shifted = f"{square[0]}{int(square[1:]) + 1}" if int(square[1:]) < 15 else square
    return [f"{square} {changed}", f"{shifted} {word}", f"{square} {word}{word}"]


def _time(state: GameState, seat: int, move: str, words: frozenset[str]) -> float:
    def call() -> Refusal | None:
        try:
            decide(state, seat, move, words)
        except Refusal as refusal:
            return refusal
        return None

    return best_ns(call, repeat=5, number=20)


def validate(games: Sequence[list[Event]], words: frozenset[str]) -> dict[str, Any]:
    legal: list[float] = []
    illegal: list[float] = []
    codes: dict[str, int] = {}
    for events in tqdm(games, desc="crossword validate", file=sys.stderr):
        state = start(events[0])  # type: ignore[arg-type]
        for event, move in zip(events[1:], turn_moves(events), strict=True):
            seat = state.turn
            if seat is not None and verb_of(move) == "play":
                legal.append(_time(state, seat, move, words))
                for bad in _illegal(move):
                    try:
                        decide(state, seat, bad, words)
                    except Refusal as refusal:
                        codes[refusal.code] = codes.get(refusal.code, 0) + 1
                        illegal.append(_time(state, seat, bad, words))
            state = evolve(state, event)
    return {"legal": summary(legal, "us"), "illegal": summary(illegal, "us"), "codes": codes}


def replays(games: Sequence[list[Event]], words: frozenset[str]) -> dict[str, Any]:
    logs: list[float] = []
    records: list[float] = []
    for events in games:
        text = json.dumps(write_record(events))

        def from_log(events: list[Event] = events) -> GameState:
            return replay(events)

        def from_record(text: str = text) -> object:
            return replay_json(text, lambda name: words)

        logs.append(best_ns(from_log, repeat=5, number=5))
        records.append(best_ns(from_record, repeat=3, number=2))
    return {
        "events_per_game": round(sum(map(len, games)) / len(games), 1),
        "replay_log_ms": summary(logs, "ms"),
        "replay_record_ms": summary(records, "ms"),
    }


def run(games: int = GAMES, seed: int = SEED) -> dict[str, Any]:
    note("crossword: loading ENABLE and playing seeded random games")
    words = load_words()
    anagrams = Anagrams(words)
    rng = random.Random(seed)
    played = [
        random_game(deal(("a", "b"), PRESETS["standard"], "default", rng), anagrams, words, rng)
        for _ in tqdm(range(games), desc="crossword games", file=sys.stderr)
    ]
    figures = {
        "games": games,
        "seed": seed,
        "validate_move_us": validate(played, words),
        **replays(played, words),
    }
    note("crossword: done")
    return figures


def goals(figures: dict[str, Any]) -> dict[str, bool]:
    v = figures["validate_move_us"]
    return {
        "crossword_validate_move_us": v["legal"]["median"] <= 50 and v["illegal"]["median"] <= 50,
    }
