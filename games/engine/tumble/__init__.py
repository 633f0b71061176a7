"""The Tumble-Words rules engine (seed ``003``): pure Python, no Django.

A crossword of rolled cubes, played in sealed rounds by two players (both
roll their own set and submit privately; the round closes when both have
submitted or its deadline passes) or in turns by three or more (one set,
passed to the left).  Commands are pure functions from a state to events
(:func:`decide`), refused with a typed :class:`~games.engine.errors.Refusal`;
one fold (:func:`evolve`) turns events into state; :func:`replay_json`
replays a ``tumble-record/1`` record.  The word list is anything with
``__contains__`` for upper-case words (a ``frozenset`` will do).

>>> import random
>>> from games.engine.tumble import Options, deal, start
>>> state = start(deal(("ann", "bob"), Options(), random.Random(1)))
>>> state.round, state.waiting()
(1, (0, 1))
"""

from .commands import NOTHING_SUBMITTED, Roller, decide, roll_random, roller
from .cubes import BLANK, CUBES, Cube, roll_cubes
from .deal import deal, roll_off
from .events import (
    Event,
    GameStarted,
    Resigned,
    Rolled,
    RoundClosed,
    Submitted,
    TimedOut,
    from_dict,
    to_dict,
)
from .fold import evolve, replay, start
from .grid import Crossword, parse_grid
from .notation import Command, Resign, Submit, Timeout, format_move, parse_move, verb_of
from .options import Options, options_from_json
from .record import ReplayResult, read_record, read_record_json, replay_json, write_record
from .score import Scored, check
from .state import TumbleState, state_from_json, state_to_json
from .view import BadView, SeatView, read_view, seat_view

__all__ = [
    "BLANK",
    "CUBES",
    "NOTHING_SUBMITTED",
    "BadView",
    "Command",
    "Crossword",
    "Cube",
    "Event",
    "GameStarted",
    "Options",
    "ReplayResult",
    "Resign",
    "Resigned",
    "Rolled",
    "Roller",
    "RoundClosed",
    "Scored",
    "SeatView",
    "Submit",
    "Submitted",
    "TimedOut",
    "Timeout",
    "TumbleState",
    "check",
    "deal",
    "decide",
    "evolve",
    "format_move",
    "from_dict",
    "options_from_json",
    "parse_grid",
    "parse_move",
    "read_record",
    "read_record_json",
    "read_view",
    "replay",
    "replay_json",
    "roll_cubes",
    "roll_off",
    "roll_random",
    "roller",
    "seat_view",
    "start",
    "state_from_json",
    "state_to_json",
    "to_dict",
    "verb_of",
    "write_record",
]
