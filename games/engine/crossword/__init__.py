"""The crossword tile game, Bible edition (seed ``004_…``): a pure engine, no Django.

Its package names what every engine's package names for the same roles (the
fold, events and states to and from JSON, the notation, records), so its kind
forwards to it as to any other engine; the rest is in its modules.
"""

from .events import Event, GameStarted, Resigned, TimedOut, from_dict, to_dict
from .fold import evolve, replay, start
from .notation import Command, format_move, parse_move, verb_of
from .options import PRESETS, Options, options_from_json
from .record import Record, ReplayResult, read_record, read_record_json
from .state import GameState, state_from_json, state_to_json

__all__ = [
    "PRESETS",
    "Command",
    "Event",
    "GameStarted",
    "GameState",
    "Options",
    "Record",
    "ReplayResult",
    "Resigned",
    "TimedOut",
    "evolve",
    "format_move",
    "from_dict",
    "options_from_json",
    "parse_move",
    "read_record",
    "read_record_json",
    "replay",
    "start",
    "state_from_json",
    "state_to_json",
    "to_dict",
    "verb_of",
]
