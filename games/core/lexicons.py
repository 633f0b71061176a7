"""The service's installed word lists: one :class:`LexiconStore` per process,
under ``settings.JUMBULAYA_WORDLIST_DIR``, and each kind's index of them
(:func:`index`), built or read from the disk cache once per process."""

from __future__ import annotations

import gc
from functools import cache

from django.conf import settings

from games.engine import DEFAULT_NAME, Lexicon, LexiconStore
from games.kinds.base import GameKind, Resolver, WordIndex

__all__ = ["DEFAULT_NAME", "index", "load", "resolver", "store"]


@cache
def store() -> LexiconStore:
    return LexiconStore(settings.JUMBULAYA_WORDLIST_DIR)


def load(name: str) -> Lexicon:
    """A loaded word list.  The first load in a process freezes what it loaded
    out of the garbage collector's way: the index is large and lives forever."""
    lex = store().load(name)
    gc.freeze()
    return lex


#: Each kind's indexes, by kind, the list's file and that file's size and time:
#: a list installed again under the same name is indexed again.
_INDEXES: dict[tuple[str, str, int, int], WordIndex] = {}


def index(kind: GameKind, name: str) -> WordIndex:
    """``kind``'s index of the list installed as ``name`` (``LookupError`` if
    there is none), built once per process: a game of one kind never pays for
    another kind's index of the same list."""
    listed = store()
    try:
        path = listed.path_of(name)
        seen = path.stat()
    except (ValueError, OSError):
        return kind.word_index(listed, name)  # the kind says why there is none
    key = (kind.name, str(path), seen.st_size, seen.st_mtime_ns)
    found = _INDEXES.get(key)
    if found is None:
        found = _INDEXES[key] = kind.word_index(listed, name)
        gc.freeze()
    return found


def resolver(kind: GameKind) -> Resolver:
    """``resolve(name)``: :func:`index` for ``kind`` (a record's replay)."""
    return lambda name: index(kind, name)
