"""JUMBULAYA as a game kind: the rules engine of :mod:`games.engine` behind the
:class:`~games.kinds.base.GameKind` interface.  This module wraps it; it copies
none of its rules.

Its presentation (:mod:`games.kinds.jumbulaya.presentation`) is apart: the
presentation code reads the core's read side, and the core imports this
module through the registry, so this module imports no presentation at all.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine import jumbulaya as engine
from games.engine.jumbulaya.record import FORMAT, read_turn, turn_of
from games.engine.lexicon import Lexicon, LexiconStore, lexicon_from_words
from games.engine.tiles import RACK_SIZE

from ..base import OptionField, OptionGroup, Play, Resolver, Robots, Window
from ..engine_events import best_seats, kept_record
from ..engine_kind import EngineKind
from .claims import JUMBULAYA_CALLS
from .robots import JUMBULAYA_ROBOTS

#: The most rounds without a word a game may be set to end after.
MAX_STALL_ROUNDS = 20


def _words(lexicon: Lexicon | None) -> Lexicon:
    if lexicon is None:
        raise ValueError("JUMBULAYA is played with a word list")
    return lexicon


def _turn_entry(raw: object, players: int) -> dict[str, Any]:
    """A record's turn as it is kept: its draw too, when it lists one."""
    turn = read_turn(raw, players)
    entry: dict[str, Any] = {"seat": turn.seat, "move": turn.move}
    if turn.draw is not None:
        entry["draw"] = list(turn.draw)
    return entry


class Jumbulaya(EngineKind[engine.GameState, engine.Event], engine=engine):
    """JUMBULAYA: words built on nine lines; a 7–9 tile word running down them ends it."""

    name = "jumbulaya"
    label = "JUMBULAYA"
    description = "the rearranging word game"
    record_secrets = "every rack and the bag"
    record_format = FORMAT
    uses_word_list = True
    min_players = 2
    max_players = 4
    presets: Mapping[str, engine.Rules] = engine.PRESETS
    window: Window | None = JUMBULAYA_CALLS
    robots: Robots | None = JUMBULAYA_ROBOTS
    preset_labels: Mapping[str, str] = {
        "official": "Official (the 2009 rule sheet)",
        "boardspace": "Boardspace (the rules of boardspace.net)",
    }
    option_fields: tuple[OptionField, ...] = (
        OptionField(
            "rack_limit",
            "Most tiles from your rack per move",
            f"How many of your {RACK_SIZE} rack tiles one new word may take in.",
            "int",
            minimum=1,
            maximum=RACK_SIZE,
        ),
        OptionField(
            "new_word",
            "A new word must differ from",
            "Whether a line may go back to a word it held before.",
            "radio",
            choices=(
                ("current", "the line's current word"),
                ("history", "every word the line has held"),
            ),
        ),
        OptionField(
            "stall_rounds",
            "End the game after this many rounds without a word (0: never)",
            "A round is one turn for each player still in the game.",
            "int",
            minimum=0,
            maximum=MAX_STALL_ROUNDS,
        ),
        OptionField(
            "jumbulaya_bonus",
            "Bonus point per two-letter tile in a JUMBULAYA",
            "Tiles such as QU or TH each add a point to a JUMBULAYA's score.",
            "bool",
        ),
        OptionField(
            "jumbulaya_cooldown",
            "After a failed JUMBULAYA call, wait for another player's turn before calling again",
            "Off: a player may call again straight after a call that failed.",
            "bool",
        ),
    )
    option_groups: tuple[OptionGroup, ...] = (
        OptionGroup(
            "Rules",
            "How a move is made and when the game ends.",
            ("preset", "rack_limit", "new_word", "stall_rounds", "lexicon_name", "hints"),
        ),
        OptionGroup(
            "JUMBULAYA",
            "Calling a word of 7 to 9 tiles down the board, which ends the game.",
            ("jumbulaya_bonus", "jumbulaya_cooldown", "claim_window"),
        ),
    )
    score_keys: tuple[str, ...] = ("lines", "jumbulaya", "resigned")

    # --- the engine ----------------------------------------------------------

    def word_index(self, store: LexiconStore, name: str) -> Lexicon:
        return store.load(name)

    def word_index_of(self, words: tuple[str, ...]) -> Lexicon:
        return lexicon_from_words(words)

    def options_from_json(self, data: object) -> engine.Rules:
        return engine.rules_from_json(data)

    def option_values(self, options: engine.Rules) -> dict[str, Any]:
        return options.options()

    def with_options(self, preset: str, changed: Mapping[str, Any]) -> engine.Rules:
        return dataclasses.replace(engine.PRESETS[preset], **changed)

    def preset_of(self, options: engine.Rules) -> tuple[str, bool]:
        return options.preset, bool(options.overrides())

    def scores_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        """What :meth:`GameState.scores` returns, from the stored state's lines
        and its JUMBULAYA."""
        out = [0] * seats
        for line in state["lines"]:
            owner = line["owner"]
            if owner is not None:
                out[owner] += engine.line_points(line["tiles"])
        made = state.get("jumbulaya")
        if made is not None:
            out[made["seat"]] += made["points"]
        return out

    def winners_from_state(self, state: Mapping[str, Any], seats: int) -> list[int]:
        """The highest score among the seats still in (a tie is shared)."""
        return best_seats(self.scores_from_state(state, seats), self.out_from_state(state))

    def deal(
        self,
        players: Sequence[str],
        options: engine.Rules,
        lexicon: Lexicon | None,
        rng: random.Random,
    ) -> engine.GameStarted:
        return engine.deal(tuple(players), options, _words(lexicon), rng)

    def decide(
        self, state: engine.GameState, seat: int, move: str, lexicon: Lexicon | None
    ) -> list[engine.Event]:
        return engine.decide(state, seat, move, _words(lexicon))

    def legal_moves(self, state: engine.GameState, seat: int, lexicon: Lexicon | None) -> list[str]:
        return [move.notation() for move in engine.legal_moves(state, seat, _words(lexicon))]

    def record_turn(self, record: engine.Record, index: int) -> tuple[int, str]:
        turn = read_turn(record.turns[index], len(record.players))
        return turn.seat, turn.move

    def stored_record(
        self, record: engine.Record, turns: int, text: Callable[[str], str]
    ) -> dict[str, Any]:
        return kept_record(record, turns, text, _turn_entry)

    def record_moves(self, events: Sequence[engine.Event]) -> tuple[str, ...]:
        out = []
        for event in events[1:]:
            turn = turn_of(event)
            out.append("" if turn is None else str(turn["move"]))
        return tuple(out)

    def replay_record(self, record: engine.Record, resolve: Resolver) -> engine.ReplayResult:
        return engine.replay_record(record, resolve)

    def replay_json(self, text: str | bytes, resolve: Resolver) -> engine.ReplayResult:
        return engine.replay_json(text, resolve)

    def write_record(self, events: Sequence[engine.Event], lexicon: str | None) -> dict[str, Any]:
        return engine.write_record(events, lexicon)

    # --- players' pages ------------------------------------------------------

    def best_plays(self, events: Sequence[engine.Event], seat: int) -> list[Play]:
        """``seat``'s words, each worth its line's points once built, and its
        JUMBULAYA, the highest first (ties: the earliest first)."""
        plays = []
        for event in events:
            if isinstance(event, engine.WordBuilt) and event.seat == seat:
                plays.append(Play("".join(event.tiles), engine.line_points(event.tiles)))
            elif isinstance(event, engine.JumbulayaVerified) and event.seat == seat:
                plays.append(Play(f"JUMBULAYA {''.join(event.tiles)}", event.points))
        return sorted(plays, key=lambda play: -play.points)


#: The one instance the registry holds.
JUMBULAYA = Jumbulaya()
