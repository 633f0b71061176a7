"""High card as a game kind: :mod:`.engine` behind the
:class:`~games.kinds.base.GameKind` interface, with robots and hints
(:mod:`.robots`) and no sealed calls (so the service's paths for a kind
without them are exercised)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.errors import BadRecord
from games.engine.lexicon import Lexicon
from games.kinds.base import OptionField, OptionGroup, Resolver, Robots, Window
from games.kinds.engine_events import EngineEvents, NoWordList, best_seats

from . import engine
from .engine import Event, Options, State
from .robots import HIGH_CARD_ROBOTS


class HighCard(NoWordList, EngineEvents):
    """Each seat plays a card a turn; the highest card of a round scores."""

    deal_event = engine.Dealt
    timeout_event = engine.TimedOut
    resigned_event = engine.Resigned

    name = "highcard"
    label = "High card"
    description = "the card game of the highest card"
    record_secrets = "every hand"
    record_format = engine.FORMAT
    uses_word_list = False
    min_players = engine.MIN_PLAYERS
    max_players = engine.MAX_PLAYERS
    presets: Mapping[str, Options] = engine.PRESETS
    preset_labels: Mapping[str, str] = {
        "standard": "Standard (five cards each)",
        "quick": "Quick (three cards each)",
    }
    option_fields: tuple[OptionField, ...] = (
        OptionField(
            "hand_size",
            "Cards in each hand",
            "How many cards each player is dealt, face down.",
            "int",
            minimum=engine.MIN_HAND,
            maximum=engine.MAX_HAND,
        ),
        OptionField(
            "top_card",
            "Highest card of the deck",
            "The deck holds the cards 1 to this one.",
            "int",
            minimum=engine.MIN_TOP,
            maximum=engine.MAX_TOP,
        ),
    )
    option_groups: tuple[OptionGroup, ...] = (
        OptionGroup("Cards", "The deck and the hands dealt from it.", ("preset", "hand_size")),
        OptionGroup("Deck", "Which cards the deck holds.", ("top_card",)),
    )
    score_keys: tuple[str, ...] = ("scores", "resigned")
    window: Window | None = None
    robots: Robots | None = HIGH_CARD_ROBOTS

    board_template = "highcard/board.html"
    compose_template = "highcard/compose.html"
    email_html_template = "highcard/emails/game.html"
    email_text_template = "highcard/emails/game.txt"
    replay_board_template = "highcard/replay_board.html"

    def options_from_json(self, data: object) -> Options:
        return engine.options_from_json(data)

    def option_values(self, options: Options) -> dict[str, Any]:
        return options.values()

    def with_options(self, preset: str, changed: Mapping[str, Any]) -> Options:
        return dataclasses.replace(engine.PRESETS[preset], **changed)

    def preset_of(self, options: Options) -> tuple[str, bool]:
        return options.preset, options.values() != engine.PRESETS[options.preset].values()

    def scores_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        return list(state["scores"])

    def winners_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        return best_seats(self.scores_from_state(state, seats), self.out_from_state(state))

    def deal(
        self, players: Sequence[str], options: Options, lexicon: Lexicon | None, rng: random.Random
    ) -> engine.Dealt:
        return engine.deal(players, options, rng)

    def start(self, started: engine.Dealt) -> State:
        return engine.start(started)

    def decide(self, state: State, seat: int, move: str, lexicon: Lexicon | None) -> list[Event]:
        return engine.decide(state, seat, move)

    def evolve(self, state: State, event: Event) -> State:
        return engine.evolve(state, event)

    def replay(self, events: Sequence[Event]) -> State:
        return engine.replay(events)

    def verb_of(self, move: str) -> str:
        words = move.split()
        return words[0].lower() if words else ""

    def event_to_dict(self, event: Event) -> dict[str, Any]:
        return engine.to_dict(event)

    def event_from_dict(self, data: dict[str, Any]) -> Event:
        return engine.from_dict(data)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return engine.state_to_json(state)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return engine.state_from_json(data)

    def parse_move(self, text: str) -> tuple[str, int | None]:
        return engine.parse_move(text)

    def format_move(self, command: tuple[str, int | None]) -> str:
        return engine.format_move(command)

    def legal_moves(self, state: State, seat: int, lexicon: Lexicon | None) -> list[str]:
        return engine.legal_moves(state, seat)

    def read_record(self, data: object) -> engine.Record:
        return engine.read_record(data)

    def read_record_json(self, text: str | bytes) -> engine.Record:
        return engine.read_record_json(text)

    def record_turn(self, record: engine.Record, index: int) -> tuple[int, str]:
        return engine.read_turn(record.turns[index], len(record.players))

    def stored_record(
        self, record: engine.Record, turns: int, text: Callable[[str], str]
    ) -> dict[str, Any]:
        return engine.stored_record(record, turns, text)

    def record_moves(self, events: Sequence[Event]) -> tuple[str, ...]:
        return tuple("" if (t := engine.turn_of(e)) is None else t[1] for e in events[1:])

    def replay_record(self, record: engine.Record, resolve: Resolver) -> engine.ReplayResult:
        return engine.replay_record(record)

    def replay_json(self, text: str | bytes, resolve: Resolver) -> engine.ReplayResult:
        return engine.replay_json(text)

    def unreadable_record(self, error: BadRecord) -> engine.ReplayResult:
        return engine.ReplayResult(None, error=error)

    def write_record(self, events: Sequence[Event], lexicon: str | None) -> dict[str, Any]:
        return engine.write_record(events)


HIGH_CARD = HighCard()
