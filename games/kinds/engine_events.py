"""The :class:`~games.kinds.base.GameKind` methods that every engine's events and
states answer alike (frozen dataclasses with a ``type``, ``PRIVATE`` fields, a
``seat`` when a seat made them, a deal event naming the players; states with
``seq``, ``turn``, ``over``, ``end``, ``players`` and ``in_game``; options with
``to_json``; stored states listing the ``resigned`` seats), so each kind names
its deal, timeout and resignation events instead of writing them again; and
the helpers kinds share to say who won and to write a record as it is kept.

>>> best_seats([3, 7, 7, 1], out=frozenset({2}))
[1]
>>> best_seats([(5, 2), (5, 1), (6, 0)], out=frozenset(), best=min)
[1]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

from .base import Progress


class EngineEvents:
    """Mixed into a kind: its engine's events read the same way in every kind."""

    deal_event: ClassVar[type]
    timeout_event: ClassVar[type]
    resigned_event: ClassVar[type]

    def with_players(self, state: Any, players: Sequence[str]) -> Any:
        return dataclasses.replace(state, players=tuple(players))

    def players(self, state: Any) -> tuple[str, ...]:
        players: tuple[str, ...] = state.players
        return players

    def in_game(self, state: Any, seat: int) -> bool:
        return bool(state.in_game(seat))

    def progress(self, state: Any) -> Progress:
        """One seat moves at a time: the state's ``turn``."""
        return Progress(state.seq, state.turn, state.over, state.end)

    def options_to_json(self, options: Any) -> dict[str, Any]:
        stored: dict[str, Any] = options.to_json()
        return stored

    def out_from_state(self, state: Mapping[str, Any]) -> frozenset[int]:
        return frozenset(state.get("resigned") or ())

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


class NoWordList:
    """Mixed into a kind played without a word list: it has no index to give."""

    label: str

    def word_index(self, store: Any, name: str) -> Any:
        raise LookupError(f"{self.label} is played without a word list")

    def word_index_of(self, words: tuple[str, ...]) -> Any:
        raise ValueError(f"{self.label} is played without a word list")


class _Ranked(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


def best_seats[K: _Ranked](
    keys: Sequence[K], out: frozenset[int], best: Callable[..., K] = max
) -> list[int]:
    """The seats not ``out`` whose key (a score, or a score and its tie-break)
    is the ``best`` (``max``, or ``min`` where the fewest points win) among
    them: more than one is a shared win, none when every seat is out."""
    live = [s for s in range(len(keys)) if s not in out]
    if not live:
        return []
    top = best(keys[s] for s in live)
    return [s for s in live if keys[s] == top]


def kept_record(
    record: Any,
    turns: int,
    text: Callable[[str], str],
    turn_entry: Callable[[object, int], dict[str, Any]],
) -> dict[str, Any]:
    """:meth:`GameKind.stored_record` of a record dataclass with ``players``
    and ``turns``: its first ``turns`` turns, each checked and written by
    ``turn_entry(raw, players)`` (its ``seat`` and ``move`` and what else the
    engine's turn holds), every name and move passed through ``text``."""
    kept = []
    for raw in record.turns[:turns]:
        entry = turn_entry(raw, len(record.players))
        kept.append(entry | {"move": text(entry["move"])})
    players = tuple(text(p) for p in record.players)
    stored: dict[str, Any] = dataclasses.replace(
        record, players=players, turns=tuple(kept)
    ).to_json()
    return stored
