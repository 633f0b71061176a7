"""The service's installed word lists: one :class:`LexiconStore` per process,
under ``settings.JUMBULAYA_WORDLIST_DIR``."""

from __future__ import annotations

import gc
from functools import cache

from django.conf import settings

from games.engine import DEFAULT_NAME, Lexicon, LexiconStore

__all__ = ["DEFAULT_NAME", "load", "store"]


@cache
def store() -> LexiconStore:
    return LexiconStore(settings.JUMBULAYA_WORDLIST_DIR)


def load(name: str) -> Lexicon:
    """A loaded word list.  The first load in a process freezes what it loaded
    out of the garbage collector's way: the index is large and lives forever."""
    lex = store().load(name)
    gc.freeze()
    return lex
