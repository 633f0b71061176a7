"""The Blockers engine (seed ``002_…``, readings: blockers.md): pure Python, no Django.

>>> import random
>>> from games.engine.blockers import Options, deal, decide, evolve, start
>>> state = start(deal(("ann", "bob", "cy"), Options(), random.Random(7), first=0))
>>> state.racks[0], len(state.piles[0])
(('A', '6', 'S5', '9', '8'), 23)
>>> for event in decide(state, 0, "6 at a6"):
...     state = evolve(state, event)
>>> state.faces[5], state.turn, state.scores()
('6', 1, [1, 0, 0])

:func:`decide` turns a move into events or a typed :class:`~games.engine.errors.Refusal`;
:func:`evolve` folds them; :func:`replay_json` replays a ``blockers-record/1`` record.
"""

from .board import RACK_SIZE, SQUARE_NAMES, TILE_SET, TURNS_EACH, WILD
from .commands import decide
from .deal import deal
from .events import (
    Event,
    GameStarted,
    Passed,
    Resigned,
    TilePlaced,
    TimedOut,
    from_dict,
    to_dict,
)
from .fold import evolve, replay, start
from .groups import group_count, splits
from .movegen import Move, first_move, legal_moves
from .notation import Command, Pass, Place, Resign, Timeout, format_move, parse_move, verb_of
from .options import COLOURS, Options, options_from_json
from .record import (
    Record,
    ReplayResult,
    read_record,
    read_record_json,
    replay_json,
    replay_record,
    write_record,
)
from .state import BlockersState, state_from_json, state_to_json
from .view import BadView, SeatView, read_view, seat_view

__all__ = [
    "COLOURS",
    "RACK_SIZE",
    "SQUARE_NAMES",
    "TILE_SET",
    "TURNS_EACH",
    "WILD",
    "BadView",
    "BlockersState",
    "Command",
    "Event",
    "GameStarted",
    "Move",
    "Options",
    "Pass",
    "Passed",
    "Place",
    "Record",
    "ReplayResult",
    "Resign",
    "Resigned",
    "SeatView",
    "TilePlaced",
    "TimedOut",
    "Timeout",
    "deal",
    "decide",
    "evolve",
    "first_move",
    "format_move",
    "from_dict",
    "group_count",
    "legal_moves",
    "options_from_json",
    "parse_move",
    "read_record",
    "read_record_json",
    "read_view",
    "replay",
    "replay_json",
    "replay_record",
    "seat_view",
    "splits",
    "start",
    "state_from_json",
    "state_to_json",
    "to_dict",
    "verb_of",
    "write_record",
]
