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

from .base import GameKind, KindPresentation
from .blockers.presentation import BLOCKERS_PRESENTATION
from .crossword.presentation import CROSSWORD_PRESENTATION
from .jumbulaya.presentation import JUMBULAYA_PRESENTATION
from .tumble.presentation import TUMBLE_PRESENTATION

_PRESENTATIONS: dict[str, KindPresentation] = {
    shown.name: shown
    for shown in (
        JUMBULAYA_PRESENTATION,
        CROSSWORD_PRESENTATION,
        BLOCKERS_PRESENTATION,
        TUMBLE_PRESENTATION,
    )
}


def of(kind: GameKind) -> KindPresentation:
    """How ``kind`` is shown (``LookupError`` for a kind with no presentation)."""
    try:
        return _PRESENTATIONS[kind.name]
    except KeyError:
        raise LookupError(f"the game kind {kind.name!r} has no presentation") from None


__all__ = ["KindPresentation", "of"]
