"""The engine figures: validation, move generation (and its baseline),
JUMBULAYA search and replay, each over the seeded positions."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any

from games.engine.jumbulaya import (
    Event,
    Lexicon,
    Refusal,
    WordMove,
    decide,
    draw_front,
    legal_moves,
    replay,
    replay_json,
    scan_moves,
    search,
    write_record,
)

from .positions import Position
from .stats import best_ns, note, summary


def plain_notation(move: WordMove, moves: Sequence[WordMove]) -> str:
    """``"3 FACTS"`` when the letters alone pick out this move, else the
    move's own (explicit where needed) notation."""
    same = sum(1 for m in moves if m.line == move.line and m.word == move.word)
    return f"{move.line + 1} {move.word}" if same == 1 else move.notation()


def non_word(position: Position, lexicon: Lexicon, line: int) -> str | None:
    """A move that passes every check but the word list: the line's letters with
    one rack tile added (trying each line from ``line`` on)."""
    state, seat = position.state, position.seat
    for k in range(len(state.lines)):
        index = (line + k) % len(state.lines)
        tiles = state.lines[index].tiles
        for tile in dict.fromkeys(state.racks[position.seat]):
            move = f"{index + 1} {''.join(tiles)}{tile}"
            try:
                decide(state, seat, move, lexicon, draw_front)
            except Refusal as e:
                if e.code == "not_a_word":
                    return move
    return None


def _decide_ns(position: Position, move: str, lexicon: Lexicon) -> float:
    state, seat = position.state, position.seat

    def call() -> Refusal | None:
        try:
            decide(state, seat, move, lexicon, draw_front)
        except Refusal as refusal:  # a refusal is a validation's answer too
            return refusal
        return None

    return best_ns(call, repeat=5, number=20)


def validate_move(
    positions: Sequence[Position], moves: Sequence[list[WordMove]], lexicon: Lexicon, seed: int
) -> dict[str, Any]:
    rng = random.Random(seed)
    legal_ns: list[float] = []
    illegal_ns: list[float] = []
    plain_words = 0
    for position, found in zip(positions, moves, strict=True):
        line = 0
        if found:
            chosen = rng.choice(found)
            move = plain_notation(chosen, found)
            plain_words += move == f"{chosen.line + 1} {chosen.word}"
            events = decide(position.state, position.seat, move, lexicon, draw_front)
            assert len(events) == 1, move
            legal_ns.append(_decide_ns(position, move, lexicon))
            line = chosen.line
        bad = non_word(position, lexicon, line)
        if bad is not None:
            illegal_ns.append(_decide_ns(position, bad, lexicon))
    return {
        "legal": summary(legal_ns, "us"),
        "illegal_not_a_word": summary(illegal_ns, "us"),
        "legal_moves_in_plain_letters": plain_words,
        "positions_without_moves": sum(1 for m in moves if not m),
    }


def move_generation(
    positions: Sequence[Position], lexicon: Lexicon
) -> tuple[dict[str, Any], list[list[WordMove]], list[float]]:
    """``legal_moves`` per position: the figure, the moves and each time (ns)."""
    times: list[float] = []
    found: list[list[WordMove]] = []
    for p in positions:
        found.append(legal_moves(p.state, p.seat, lexicon))
        times.append(best_ns(partial(legal_moves, p.state, p.seat, lexicon), repeat=3))
    figure = summary(times, "ms") | {
        "mean_moves": round(statistics.fmean(len(m) for m in found), 1),
        "max_moves": max(len(m) for m in found),
    }
    return figure, found, times


def _move_set(moves: Sequence[WordMove]) -> set[tuple[int, str]]:
    return {(m.line, m.code) for m in moves}


def baseline(
    positions: Sequence[Position],
    moves: Sequence[list[WordMove]],
    legal_ns: Sequence[float],
    lexicon: Lexicon,
    subset: int,
) -> dict[str, Any]:
    """``scan_moves`` on an evenly spaced subset, checked against ``legal_moves``."""
    step = max(1, len(positions) // subset)
    picked = list(range(0, len(positions), step))[:subset]
    t0 = time.perf_counter_ns()
    first = positions[picked[0]]
    scan_moves(first.state, first.seat, lexicon)  # builds the scan list once
    warm_ns = time.perf_counter_ns() - t0
    scan_ns: list[float] = []
    disagree = 0
    for i in picked:
        p = positions[i]
        t0 = time.perf_counter_ns()
        scanned = scan_moves(p.state, p.seat, lexicon)
        scan_ns.append(time.perf_counter_ns() - t0)
        if _move_set(scanned) != _move_set(moves[i]) or len(scanned) != len(moves[i]):
            disagree += 1
    legal_subset = [legal_ns[i] for i in picked]
    speedup = statistics.median(scan_ns) / statistics.median(legal_subset)
    if disagree:
        note(f"BASELINE DISAGREES with legal_moves on {disagree} of {len(picked)} positions")
    return summary(scan_ns, "ms") | {
        "first_call_ms": round(warm_ns / 1e6, 1),
        "legal_moves_median_ms_same_positions": round(statistics.median(legal_subset) / 1e6, 3),
        "speedup": round(speedup, 1),
        "baseline_agrees": disagree == 0,
        "positions_disagreeing": disagree,
    }


def jumbulaya_search(
    natural: Sequence[Position], late: Sequence[Position], lexicon: Lexicon, least: int
) -> dict[str, Any]:
    """``search`` on every distinct board open for a JUMBULAYA, topped up with
    late-game boards when fewer than ``least`` arose."""
    boards: dict[tuple[tuple[str, ...], ...], Position] = {}
    for p in natural:
        boards.setdefault(tuple(ln.tiles for ln in p.state.lines), p)
    from_play = len(boards)
    for p in late:
        if len(boards) >= least:
            break
        boards.setdefault(tuple(ln.tiles for ln in p.state.lines), p)
    times: list[float] = []
    words: list[int] = []
    tiles = [sum(map(len, board)) for board in boards]
    for board, p in boards.items():
        rules = p.state.rules
        words.append(len(search(board, lexicon, rules)))
        times.append(best_ns(partial(search, board, lexicon, rules), repeat=3))
    return summary(times, "ms") | {
        "boards_open_in_play": from_play,
        "boards_late_game": len(boards) - from_play,
        "mean_words_found": round(statistics.fmean(words), 1) if words else None,
        "mean_board_tiles": round(statistics.fmean(tiles), 1) if tiles else None,
    }


def replays(log: Sequence[Event], lexicon: Lexicon, runs: int) -> dict[str, Any]:
    """Fold the log with ``replay``, and replay it as a ``jumbulaya-record/1``
    through ``replay_json`` (decide + fold per turn), ``runs`` times each."""
    events = list(log)
    text = json.dumps(write_record(events))

    def resolve(name: str) -> Lexicon:
        return lexicon

    folded = replay(events)
    result = replay_json(text, resolve)
    assert result.error is None, result.error
    assert result.state == folded, "the record replays to another state"
    fold_ns = [best_ns(lambda: replay(events), repeat=1) for _ in range(runs)]
    record_ns = [best_ns(lambda: replay_json(text, resolve), repeat=1) for _ in range(runs)]
    kinds = dict(Counter(e.type for e in events))
    fold = summary(fold_ns, "ms") | {"events": len(events), "kinds": kinds}
    record = summary(record_ns, "ms") | {"turns": len(events) - 1, "record_bytes": len(text)}
    return {"replay_200_events_ms": fold, "replay_record_200_ms": record}
