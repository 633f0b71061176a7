"""A fixed, seeded set of realistic positions, and a long event log.

Positions come from seeded two-player games (official preset) between plausible
players: each turn the mover usually picks among the few longest, best-scoring
legal words, sometimes any legal word, never fills a line (which ends the game)
unless that leaves them ahead, and passes when there is nothing to play.  Once the
board is open for a JUMBULAYA the mover searches it and usually calls the best
word found, which ends the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.engine.jumbulaya import (
    PRESETS,
    Event,
    GameState,
    Lexicon,
    Rules,
    WordMove,
    deal,
    decide,
    draw_front,
    evolve,
    format_word,
    legal_moves,
    line_points,
    search,
    start,
)
from games.engine.tiles import MAX_LINE_TILES

PLAYERS = ("ann", "bob")
#: Weights for the top-ranked moves a plausible player picks from.
TOP_WEIGHTS = (8, 4, 2, 1)
#: Chance a plausible player picks any legal word instead of a top one.
WILD = 0.15
#: Chance the mover calls JUMBULAYA when the board holds one.
CALL = 0.7
#: Passes in a row after which a game is abandoned (the official preset never stalls).
MAX_IDLE = 6
MAX_TURNS = 300


@dataclass(frozen=True, slots=True)
class Position:
    game: int
    ply: int
    state: GameState
    seat: int


@dataclass(slots=True)
class Game:
    seed: int
    events: list[Event] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    end: str | None = None


def rank(moves: list[WordMove]) -> list[WordMove]:
    """Longest word first, then most points; ties in a fixed order."""
    return sorted(moves, key=lambda m: (-len(m.word), -m.points, m.line, m.code))


def _ends_behind(state: GameState, seat: int, move: WordMove) -> bool:
    """Whether ``move`` fills its line (ending the game) without leaving ``seat``
    strictly ahead."""
    if len(move.code) < MAX_LINE_TILES:
        return False
    scores = state.scores()
    line = state.lines[move.line]
    if line.owner is not None:
        scores[line.owner] -= line_points(line.tiles)
    scores[seat] += move.points
    return scores[seat] <= max(s for i, s in enumerate(scores) if i != seat)


def plausible_move(
    state: GameState, seat: int, moves: list[WordMove], rng: random.Random
) -> WordMove | None:
    """Usually one of the top few words, sometimes any; never a word that ends
    the game unless the mover then leads."""
    moves = [m for m in moves if not _ends_behind(state, seat, m)]
    if not moves:
        return None
    if rng.random() < WILD:
        return rng.choice(moves)
    top = rank(moves)[: len(TOP_WEIGHTS)]
    return rng.choices(top, weights=TOP_WEIGHTS[: len(top)])[0]


def _apply(state: GameState, seat: int, move: str, lexicon: Lexicon, log: list[Event]) -> GameState:
    for event in decide(state, seat, move, lexicon, draw_front):
        state = evolve(state, event)
        log.append(event)
    return state


def play_game(index: int, seed: int, lexicon: Lexicon, rules: Rules) -> Game:
    rng = random.Random(seed)
    started = deal(PLAYERS, rules, lexicon, rng)
    game = Game(seed, [started])
    state = start(started)
    idle = 0
    for ply in range(MAX_TURNS):
        if state.over or idle >= MAX_IDLE:
            break
        seat = state.turn
        assert seat is not None
        game.positions.append(Position(index, ply, state, seat))
        if state.jumbulaya_open() and seat not in state.barred and rng.random() < CALL:
            found = search([ln.tiles for ln in state.lines], lexicon, state.rules)
            if found:
                call = f"jumbulaya {format_word(found[0].tiles)}"
                state = _apply(state, seat, call, lexicon, game.events)
                continue
        chosen = plausible_move(state, seat, legal_moves(state, seat, lexicon), rng)
        idle = 0 if chosen else idle + 1
        move = chosen.notation() if chosen else "pass"
        state = _apply(state, seat, move, lexicon, game.events)
    game.end = state.end or "abandoned"
    return game


def play_games(count: int, seed: int, lexicon: Lexicon) -> list[Game]:
    rules = PRESETS["official"]
    master = random.Random(seed)
    seeds = [master.getrandbits(32) for _ in range(count)]
    return [play_game(i, s, lexicon, rules) for i, s in enumerate(seeds)]


def long_log(events: int, seed: int, lexicon: Lexicon) -> list[Event]:
    """A log of exactly ``events`` events (``game_started`` included) from a game
    that mixes passes and exchanges with short words, so it runs long; draws
    come from the front of the seeded bag.  Seeds are tried in order until a
    game lasts that long."""
    rules = PRESETS["official"]  # stall_rounds=0: the official preset never stalls
    for attempt in range(100):
        rng = random.Random(seed + attempt)
        started = deal(PLAYERS, rules, lexicon, rng)
        log: list[Event] = [started]
        state = start(started)
        while len(log) < events and not state.over:
            seat = state.turn
            assert seat is not None
            roll = rng.random()
            rack = state.racks[seat]
            move = "pass"
            if roll < 0.2 and rack and len(state.bag) >= 2:
                move = "exchange " + " ".join(rng.sample(rack, min(2, len(rack))))
            elif roll >= 0.45:
                short = [m for m in legal_moves(state, seat, lexicon) if len(m.code) <= 7]
                if short:
                    move = rng.choice(short).notation()
            state = _apply(state, seat, move, lexicon, log)
        if len(log) >= events:
            return log[:events]
    raise RuntimeError(f"no seeded game ran to {events} events")
