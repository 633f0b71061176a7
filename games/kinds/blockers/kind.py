"""Blockers as a game kind: the engine of :mod:`games.engine.blockers` behind
the :class:`~games.kinds.base.GameKind` interface.  This module wraps it; it
copies none of its rules.

A game's options are the engine's (each seat's colour) with the preset they
started from, so ``Game.rules`` reads ``{"preset": "standard", "colours": []}``.
Scores are a cost here: the fewest points win (:meth:`Blockers.winners_from_state`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine import blockers as engine
from games.engine.blockers.board import SQUARE_INDEX, SQUARES
from games.engine.blockers.groups import group_counts
from games.engine.blockers.options import MAX_PLAYERS, MIN_PLAYERS
from games.engine.blockers.record import FORMAT, read_turn, turn_of
from games.engine.errors import BadRecord
from games.engine.lexicon import Lexicon

from ..base import OptionField, OptionGroup, Resolver, Robots, Window
from ..engine_events import NoWordList, best_seats, kept_record
from ..engine_kind import EngineKind
from .robots import BLOCKERS_ROBOTS

#: The one preset: the rule sheet, each seat playing the box's colours in order.
STANDARD = "standard"


@dataclasses.dataclass(frozen=True, slots=True)
class BlockersOptions:
    """The engine's options, and the preset they started from."""

    preset: str
    rules: engine.Options

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.rules.to_json()}


PRESETS: Mapping[str, BlockersOptions] = {STANDARD: BlockersOptions(STANDARD, engine.Options())}


def _rules(options: BlockersOptions | engine.Options) -> engine.Options:
    return options.rules if isinstance(options, BlockersOptions) else options


def _stored_board(board: Mapping[str, Any]) -> list[int]:
    owners = [-1] * SQUARES
    for name, cell in board.items():
        owners[SQUARE_INDEX[name]] = int(cell["seat"])
    return owners


def _taken_counts(taken: Sequence[Sequence[Any]], seats: int) -> list[list[int]]:
    """``counts[s][c]``: the tiles of colour ``c`` seat ``s`` has taken."""
    counts = [[0] * seats for _ in range(seats)]
    for s, tiles in enumerate(taken):
        for _face, colour in tiles:
            counts[s][int(colour)] += 1
    return counts


class Blockers(NoWordList, EngineKind[engine.BlockersState, engine.Event], engine=engine):
    """Blockers: place tiles in their column, row or sector; fewest groups and captures win."""

    name = "blockers"
    label = "Blockers"
    description = "the tile-placing game of the fewest groups"
    record_secrets = "every player's rack and pile"
    record_format = FORMAT
    uses_word_list = False
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    presets: Mapping[str, BlockersOptions] = PRESETS
    preset_labels: Mapping[str, str] = {
        STANDARD: "The rule sheet (3 to 5 players, one colour each)",
    }
    option_fields: tuple[OptionField, ...] = ()
    option_groups: tuple[OptionGroup, ...] = (
        OptionGroup(
            "Rules",
            "Each player plays one colour's 28 tiles; the fewest groups and captures win.",
            ("preset", "hints"),
        ),
    )
    #: The board and the captured tiles are face up; racks and piles are never read.
    score_keys: tuple[str, ...] = ("board", "taken", "resigned")
    window: Window | None = None
    robots: Robots | None = BLOCKERS_ROBOTS

    # --- options -------------------------------------------------------------

    def options_from_json(self, data: object) -> BlockersOptions:
        if not isinstance(data, dict):
            raise BadRecord('the options must be an object such as {"preset": "standard"}')
        preset = data.get("preset", STANDARD)
        if preset not in PRESETS:
            raise BadRecord(f"{preset!r} is not a Blockers preset ({', '.join(PRESETS)})")
        rules = engine.options_from_json({k: v for k, v in data.items() if k != "preset"})
        return BlockersOptions(preset, rules)

    def option_values(self, options: BlockersOptions) -> dict[str, Any]:
        return {}

    def with_options(self, preset: str, changed: Mapping[str, Any]) -> BlockersOptions:
        if changed:
            raise ValueError(f"Blockers has no option {sorted(changed)[0]!r}")
        return PRESETS[preset]

    def preset_of(self, options: BlockersOptions) -> tuple[str, bool]:
        return options.preset, options.rules != PRESETS[options.preset].rules

    # --- scores from a stored state ----------------------------------------------

    def scores_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        """Each seat's groups on the board plus its captures of the colour it
        took most (reading 9), from the stored board and captured tiles."""
        groups = group_counts(_stored_board(state["board"]), seats)
        counts = _taken_counts(state["taken"], seats)
        return [g + max(c, default=0) for g, c in zip(groups, counts, strict=True)]

    def winners_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        """The fewest points among the seats still in, then the fewest
        captures in all; a tie on both is shared."""
        scores = self.scores_from_state(state, seats)
        totals = [sum(c) for c in _taken_counts(state["taken"], seats)]
        ranked = [(scores[s], totals[s]) for s in range(seats)]
        return best_seats(ranked, self.out_from_state(state), best=min)

    # --- the engine ----------------------------------------------------------

    def deal(
        self,
        players: Sequence[str],
        options: BlockersOptions,
        lexicon: Lexicon | None,
        rng: random.Random,
    ) -> engine.GameStarted:
        return engine.deal(tuple(players), _rules(options), rng)

    def decide(
        self, state: engine.BlockersState, seat: int, move: str, lexicon: Lexicon | None
    ) -> list[engine.Event]:
        return engine.decide(state, seat, move)

    def legal_moves(
        self, state: engine.BlockersState, seat: int, lexicon: Lexicon | None
    ) -> list[str]:
        """Every legal placement and capture, or ``pass`` when there is none
        (reading 7: then, and only then, the seat may pass)."""
        if state.over or state.turn != seat:
            return []
        return [m.notation() for m in engine.legal_moves(state, seat)] or ["pass"]

    # --- records -------------------------------------------------------------

    def record_turn(self, record: engine.Record, index: int) -> tuple[int, str]:
        turn = read_turn(record.turns[index], len(record.players))
        return turn.seat, turn.move

    def stored_record(
        self, record: engine.Record, turns: int, text: Callable[[str], str]
    ) -> dict[str, Any]:
        return kept_record(record, turns, text, lambda raw, n: read_turn(raw, n).to_json())

    def record_moves(self, events: Sequence[engine.Event]) -> tuple[str, ...]:
        return tuple("" if (t := turn_of(e)) is None else str(t["move"]) for e in events[1:])

    def replay_record(self, record: engine.Record, resolve: Resolver) -> engine.ReplayResult:
        return engine.replay_record(record)

    def replay_json(self, text: str | bytes, resolve: Resolver) -> engine.ReplayResult:
        return engine.replay_json(text)

    def write_record(self, events: Sequence[engine.Event], lexicon: str | None) -> dict[str, Any]:
        return engine.write_record(list(events))


#: The one instance the registry holds.
BLOCKERS = Blockers()
