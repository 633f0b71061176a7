"""JUMBULAYA's rules engine: pure Python, no Django.

>>> from games.engine.jumbulaya import PRESETS, decide, deal, evolve, lexicon_from_words, start
>>> lex = lexicon_from_words(["ACT", "CAT", "FACT", "FACTS"])
>>> state = start(deal(("ann", "bob"), PRESETS["official"], lex))
>>> state.seq, len(state.bag)
(1, 63)

Commands are pure functions from a state to events (:func:`decide`), refused
with a typed :class:`Refusal`; one fold (:func:`evolve`) turns events into
state; :func:`replay_json` replays a ``jumbulaya-record/1`` game record.
"""

from ..errors import BadRecord, Refusal, RefusalCode
from ..lexicon import (
    DEFAULT_NAME,
    Lexicon,
    LexiconStore,
    UnknownWordList,
    WordListText,
    lexicon_from_words,
)
from .commands import Drawer, decide, draw_front, draw_random
from .deal import deal
from .events import (
    Event,
    Exchanged,
    GameStarted,
    JumbulayaFailed,
    JumbulayaVerified,
    Passed,
    Resigned,
    TimedOut,
    WordBuilt,
    from_dict,
    to_dict,
)
from .fold import evolve, replay, start
from .movegen import WordMove, legal_moves, scan_moves
from .notation import Command, format_move, format_word, parse_move, verb_of
from .options import PRESETS, Rules, rules_from_json
from .record import (
    Record,
    ReplayResult,
    read_record,
    read_record_json,
    replay_json,
    replay_record,
    write_record,
)
from .runs import Found, runs_down, search
from .state import GameState, Line, line_points, state_from_json, state_to_json

__all__ = [
    "DEFAULT_NAME",
    "PRESETS",
    "BadRecord",
    "Command",
    "Drawer",
    "Event",
    "Exchanged",
    "Found",
    "GameStarted",
    "GameState",
    "JumbulayaFailed",
    "JumbulayaVerified",
    "Lexicon",
    "LexiconStore",
    "Line",
    "Passed",
    "Record",
    "Refusal",
    "RefusalCode",
    "ReplayResult",
    "Resigned",
    "Rules",
    "TimedOut",
    "UnknownWordList",
    "WordBuilt",
    "WordListText",
    "WordMove",
    "deal",
    "decide",
    "draw_front",
    "draw_random",
    "evolve",
    "format_move",
    "format_word",
    "from_dict",
    "legal_moves",
    "lexicon_from_words",
    "line_points",
    "parse_move",
    "read_record",
    "read_record_json",
    "replay",
    "replay_json",
    "replay_record",
    "rules_from_json",
    "runs_down",
    "scan_moves",
    "search",
    "start",
    "state_from_json",
    "state_to_json",
    "to_dict",
    "verb_of",
    "write_record",
]
