"""A kind over an engine package: what every kind asked of its engine by the
same name, forwarded by default, so a kind writes only what differs.

Every engine package (:mod:`games.engine.jumbulaya`, :mod:`~games.engine.crossword`,
:mod:`~games.engine.blockers`, :mod:`~games.engine.tumble`) names the fold
(``start``, ``evolve``, ``replay``), events and states to and from JSON
(``to_dict``, ``from_dict``, ``state_to_json``, ``state_from_json``), the
notation (``parse_move``, ``format_move``, ``verb_of``), its options
(``options_from_json``) and its records (``read_record``,
``read_record_json``, ``ReplayResult``) alike.  A kind names its package in
:attr:`EngineKind.engine` and overrides a method only where its rules say more
(Tumble-Words reads a crossword typed as rows before its notation; JUMBULAYA's
options are its ``Rules``).

``S`` is the kind's state, ``E`` its event: the types the registry's callers
hand back to the same kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

from games.engine.errors import BadRecord

from .engine_events import EngineEvents

#: The skeleton's templates, by the :class:`~games.kinds.base.Templates` member
#: that names each, in ``templates/<kind>/``.
TEMPLATES = {
    "board_template": "board.html",
    "compose_template": "compose.html",
    "email_html_template": "emails/game.html",
    "email_text_template": "emails/game.txt",
    "replay_board_template": "replay_board.html",
}


class EngineKind[S, E](EngineEvents):
    """The engine's functions as a kind's methods: each forwards to
    :attr:`engine` under the name every engine package gives it.  A kind
    names its package once, ``class Blockers(EngineKind[BlockersState, Event],
    engine=blockers)``."""

    #: The kind's engine package.
    engine: ClassVar[ModuleType]
    #: The kind's name (:attr:`games.kinds.base.GameKind.name`), which names its
    #: templates' folder.
    name: str
    #: Its templates, ``templates/<name>/`` by default (:class:`~games.kinds.base.Templates`).
    board_template: str
    compose_template: str
    email_html_template: str
    email_text_template: str
    replay_board_template: str

    def __init_subclass__(cls, *, engine: ModuleType | None = None, **kwargs: Any) -> None:
        """Name the engine package; the deal, time-out and resignation events
        are its ``GameStarted``, ``TimedOut`` and ``Resigned``, and the
        templates are the skeleton's in ``templates/<name>/``, unless the kind
        says otherwise."""
        super().__init_subclass__(**kwargs)
        if engine is None:
            return
        cls.engine = engine
        defaults: dict[str, object] = {
            "deal_event": engine.GameStarted,
            "timeout_event": engine.TimedOut,
            "resigned_event": engine.Resigned,
        }
        for role, template in TEMPLATES.items():
            defaults[role] = f"{cls.name}/{template}"
        for attribute, value in defaults.items():
            if attribute not in cls.__dict__:
                setattr(cls, attribute, value)

    # --- the fold --------------------------------------------------------------

    def start(self, started: E) -> S:
        state: S = self.engine.start(started)
        return state

    def evolve(self, state: S, event: E) -> S:
        after: S = self.engine.evolve(state, event)
        return after

    def replay(self, events: Sequence[E]) -> S:
        state: S = self.engine.replay(events)
        return state

    # --- events and states as JSON ---------------------------------------------

    def event_to_dict(self, event: E) -> dict[str, Any]:
        data: dict[str, Any] = self.engine.to_dict(event)
        return data

    def event_from_dict(self, data: dict[str, Any]) -> E:
        event: E = self.engine.from_dict(data)
        return event

    def state_to_json(self, state: S) -> dict[str, Any]:
        data: dict[str, Any] = self.engine.state_to_json(state)
        return data

    def state_from_json(self, data: dict[str, Any]) -> S:
        state: S = self.engine.state_from_json(data)
        return state

    # --- the notation ------------------------------------------------------------

    def verb_of(self, move: str) -> str:
        return str(self.engine.verb_of(move))

    def parse_move(self, text: str) -> Any:
        return self.engine.parse_move(text)

    def format_move(self, command: Any) -> str:
        return str(self.engine.format_move(command))

    # --- options and records -------------------------------------------------------

    def options_from_json(self, data: object) -> Any:
        return self.engine.options_from_json(data)

    def read_record(self, data: object) -> Any:
        return self.engine.read_record(data)

    def read_record_json(self, text: str | bytes) -> Any:
        return self.engine.read_record_json(text)

    def unreadable_record(self, error: BadRecord) -> Any:
        return self.engine.ReplayResult(None, error=error)
