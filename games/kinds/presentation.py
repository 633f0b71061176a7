"""The presentation of every game kind, by the kind's name: for pages and
emails, never for the core.

>>> from games import kinds
>>> from games.kinds import presentation
>>> presentation.of(kinds.get("jumbulaya")).name
'jumbulaya'
>>> [presentation.of(kind).name for kind in kinds.all()]
['jumbulaya', 'crossword', 'blockers', 'tumble']

The registry of kinds (:mod:`games.kinds`) holds their engines and is imported
by the core; this one holds the code that draws them, which may read the core's
read side (:mod:`games.core.projection`), so the core never imports it.
"""

from __future__ import annotations

from importlib import import_module

from . import REGISTERED
from .base import GameKind, KindPresentation

#: Each registered kind's presentation, ``<NAME>_PRESENTATION`` in its folder's
#: ``presentation.py``.
_PRESENTATIONS: dict[str, KindPresentation] = {
    name: getattr(import_module(f"games.kinds.{name}.presentation"), f"{name.upper()}_PRESENTATION")
    for name in REGISTERED
}


def of(kind: GameKind) -> KindPresentation:
    """How ``kind`` is shown (``LookupError`` for a kind with no presentation)."""
    try:
        return _PRESENTATIONS[kind.name]
    except KeyError:
        raise LookupError(f"the game kind {kind.name!r} has no presentation") from None


__all__ = ["KindPresentation", "of"]
