"""What one seat may see: the ``crossword-view/1`` document
(docs/crossword-view.md).

:func:`seat_view` writes it from the game's events and state: the board, the
seat's own rack, how many tiles the bag holds, the scores, whose turn it is,
the last turn, the play open to a challenge (and the end it would make, once
accepted) and the options.  Other racks and
the bag appear only as ``unseen``, a sorted multiset every player could work
out from the board and their own rack; a spectator sees no rack at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .board import name_of, rows, written_play
from .events import (
    ChallengeFailed,
    Event,
    Exchanged,
    GameStarted,
    Passed,
    Played,
    PlayWithdrawn,
    Resigned,
    TimedOut,
)
from .notation import format_move
from .state import GameState

FORMAT = "crossword-view/1"


def _last(event: Event, state: GameState) -> dict[str, Any] | None:
    """The last turn as every seat may know it."""
    match event:
        case Played(seat=seat, across=across, squares=squares, words=words, points=points):
            move = format_move(written_play(state.board, squares, across))
            out: dict[str, Any] = {"seat": seat, "kind": "play", "move": move}
            return out | {"words": list(words), "points": points, "tiles": len(squares)}
        case Exchanged(seat=seat, tiles=tiles):
            return {"seat": seat, "kind": "exchange", "count": len(tiles)}
        case Passed(seat=seat):
            return {"seat": seat, "kind": "pass"}
        case TimedOut(seat=seat):
            return {"seat": seat, "kind": "timeout"}
        case PlayWithdrawn(seat=seat, mover=mover, unacceptable=bad):
            return {"seat": seat, "kind": "withdrawn", "mover": mover, "words": list(bad)}
        case ChallengeFailed(seat=seat, mover=mover):
            return {"seat": seat, "kind": "challenge_failed", "mover": mover}
        case Resigned(seat=seat):
            return {"seat": seat, "kind": "resign"}
    return None


def _last_play(events: Sequence[Event], state: GameState) -> dict[str, Any] | None:
    """The latest play still on the board (a withdrawn one is skipped)."""
    withdrawn = 0
    for event in reversed(events):
        if isinstance(event, GameStarted):
            break
        if isinstance(event, PlayWithdrawn):
            withdrawn += 1
        elif isinstance(event, Played):
            if not withdrawn:
                return _last(event, state)
            withdrawn -= 1
    return None


def seat_view(
    events: Sequence[Event], state: GameState, seat: int | None, *, lexicon: str
) -> dict[str, Any]:
    """The ``crossword-view/1`` document of ``state`` (reached by folding
    ``events``) as ``seat`` sees it; ``seat=None`` is a spectator's view."""
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in a game of {state.seats}")
    hidden = [state.bag, *(r for s, r in enumerate(state.racks) if s != seat)]
    last = None
    for event in reversed(events):
        if isinstance(event, GameStarted):
            break
        last = _last(event, state)
        if last is not None:
            break
    made = state.open_play
    return {
        "format": FORMAT,
        "options": {"preset": state.options.preset, **state.options.values()},
        "lexicon": lexicon,
        "players": list(state.players),
        "seat": seat,
        "status": "over" if state.over else "playing",
        "end": state.end,
        "next": state.turn,
        "board": rows(state.board),
        "rack": None if seat is None else state.racks[seat],
        "rack_sizes": [len(r) for r in state.racks],
        "bag": len(state.bag),
        "unseen": "".join(sorted("".join(hidden))),
        "scores": state.scores(),
        "points": list(state.points),
        "adjustments": list(state.adjustments),
        "targets": None if state.targets is None else list(state.targets),
        "in_game": [state.in_game(s) for s in range(state.seats)],
        "scoreless": state.scoreless,
        "lost_turns": list(state.skips),
        "winners": state.winners(),
        "last": last,
        "last_play": _last_play(events, state),
        "open_play": None
        if made is None
        else {
            "seat": made.seat,
            "squares": [name_of(q) for q in made.squares],
            "words": list(made.words),
            "points": made.points,
        },
        "pending_end": None
        if made is None or state.pending_end is None
        else {"seat": made.seat, "reason": state.pending_end},
        "may_challenge": seat is not None
        and made is not None
        and made.seat != seat
        and state.in_game(seat),
        "may_accept": seat is not None and state.ending and state.turn == seat,
    }
