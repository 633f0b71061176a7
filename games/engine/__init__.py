"""The games' rules engines: pure Python, no Django.

Each game has its own folder with the same module names for the same roles
(:mod:`games.engine.jumbulaya`, :mod:`games.engine.crossword`,
:mod:`games.engine.blockers`, :mod:`games.engine.tumble`).  What every engine
shares stays here: a refusal with its code and a bad record
(:mod:`~games.engine.errors`), the installed word lists
(:mod:`~games.engine.lexicon`, with the tile faces it spells words in,
:mod:`~games.engine.tiles`) and the pieces every engine's turns, folds, records
and matches are built from (:mod:`games.engine.common`).

>>> from games.engine import LexiconStore, Refusal, lexicon_from_words
>>> lexicon_from_words(["ACT", "CAT"]).contains(("C", "A", "T"))
True
"""

from .errors import BadRecord, Refusal, RefusalCode
from .lexicon import (
    DEFAULT_NAME,
    Lexicon,
    LexiconStore,
    UnknownWordList,
    WordListText,
    lexicon_from_words,
)

__all__ = [
    "DEFAULT_NAME",
    "BadRecord",
    "Lexicon",
    "LexiconStore",
    "Refusal",
    "RefusalCode",
    "UnknownWordList",
    "WordListText",
    "lexicon_from_words",
]
