"""The :class:`~games.kinds.base.GameKind` methods that every engine's events and
states answer alike (frozen dataclasses with a ``type``, ``PRIVATE`` fields, a
``seat`` when a seat made them, a deal event naming the players), so each kind
names its deal, timeout and resignation events instead of writing them again."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar


class EngineEvents:
    """Mixed into a kind: its engine's events read the same way in every kind."""

    deal_event: ClassVar[type]
    timeout_event: ClassVar[type]
    resigned_event: ClassVar[type]

    def with_players(self, state: Any, players: Sequence[str]) -> Any:
        return dataclasses.replace(state, players=tuple(players))

    def private_fields(self, event: Any) -> tuple[str, ...]:
        private: tuple[str, ...] = event.PRIVATE
        return private

    def event_type(self, event: Any) -> str:
        return str(event.type)

    def event_seat(self, event: Any) -> int | None:
        seat = getattr(event, "seat", None)
        return seat if isinstance(seat, int) else None

    def is_deal(self, event: Any) -> bool:
        return isinstance(event, self.deal_event)

    def is_timeout(self, event: Any) -> bool:
        return isinstance(event, self.timeout_event)

    def is_resignation(self, event: Any) -> bool:
        return isinstance(event, self.resigned_event)

    def rename_deal(self, started: Any, names: Mapping[int, str]) -> Any:
        if not self.is_deal(started):
            return started
        players = tuple(names.get(i, name) for i, name in enumerate(started.players))
        return dataclasses.replace(started, players=players)
