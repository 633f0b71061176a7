"""The crossword tile game, Bible edition, as a game kind: the rules engine of
:mod:`games.engine.crossword` behind the :class:`~games.kinds.base.GameKind`
interface.  This module wraps it; it copies none of its rules.

Its word list is :class:`.words.CrosswordWords` (the list's DAWG with the bonus
words), which the core asks for by name (:meth:`Crossword.word_index`) and
keeps per process: a crossword game never builds JUMBULAYA's index.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine import crossword
from games.engine.crossword import commands, events, record, state
from games.engine.crossword.deal import deal
from games.engine.crossword.options import (
    LEVEL_NAMES,
    PRESET_LABELS,
    PRESETS,
    TARGETS,
    Options,
)
from games.engine.lexicon import LexiconStore
from games.kinds.crossword.word_index import CrosswordWords, inline, installed

from ..base import OptionField, OptionGroup, Progress, Resolver, Robots, Window
from ..engine_events import best_seats, kept_record
from ..engine_kind import EngineKind
from .moves import scored_moves
from .robots import CROSSWORD_ROBOTS

#: The create page's value for "no target" (the normal end).
NO_LEVEL = "none"


def words_of(lexicon: object) -> CrosswordWords:
    """The game's word list, as the core hands it over."""
    if not isinstance(lexicon, CrosswordWords):
        raise ValueError("the crossword game is played with a word list")
    return lexicon


def _level_choices() -> tuple[tuple[str, str], ...]:
    said = [(NO_LEVEL, "None: the game ends the usual way")]
    for level, name in LEVEL_NAMES.items():
        goals = TARGETS[level]
        said.append(
            (
                level,
                f"{name} ({goals[2]} points with 2 players, {goals[3]} with 3, {goals[4]} with 4)",
            )
        )
    return tuple(said)


class Crossword(EngineKind[state.GameState, events.Event], engine=crossword):
    """The crossword tile game, Bible edition: words across and down on a 15×15
    board of premium squares, with bonus points for the rule sheet's Bible words."""

    name = "crossword"
    label = "Crossword — Bible edition"
    description = "the crossword tile game with bonus points for Bible words"
    record_secrets = "every rack and the bag"
    record_format = record.FORMAT
    uses_word_list = True
    min_players = 2
    max_players = 4
    presets: Mapping[str, Options] = PRESETS
    preset_labels: Mapping[str, str] = PRESET_LABELS
    window: Window | None = None
    robots: Robots | None = CROSSWORD_ROBOTS
    option_fields: tuple[OptionField, ...] = (
        OptionField(
            "challenge",
            "A word not in the word list",
            "How a play with a word the list lacks is treated (the bonus words are always "
            "accepted).",
            "radio",
            choices=(
                ("void", "is refused when it is played, and nothing changes"),
                (
                    "async",
                    "is accepted, and any other player may challenge it until the next move: "
                    "a wrong play is taken back and its turn lost, a wrong challenge costs a turn",
                ),
            ),
        ),
        OptionField(
            "rack_size",
            "Tiles on each rack",
            "Sharing the Word plays with racks of 9, and pays the 50 points for 7, 8 or 9 "
            "tiles in one move.",
            "radio",
            choices=(("7", "7 (the standard game)"), ("9", "9 (Sharing the Word)")),
        ),
        OptionField(
            "level",
            "Target score (Translating the Word)",
            "The first player to reach the target wins at once, whoever has more points.",
            "radio",
            choices=_level_choices(),
        ),
        OptionField(
            "noahs_ark",
            "Noah's Ark: 10 points for a word with two equal letters side by side",
            "As in CARRY or TALL: each word formed with such a pair earns 10.",
            "bool",
        ),
        OptionField(
            "david_goliath",
            "David and Goliath: 15 points for a short word through the middle of a longer one",
            "A word through the middle letter of a longer one (LOVE through the V of SAVED).",
            "bool",
        ),
    )
    option_groups: tuple[OptionGroup, ...] = (
        OptionGroup(
            "Rules",
            "The variant played and how words are checked.",
            ("preset", "challenge", "rack_size", "level", "lexicon_name", "hints"),
        ),
        OptionGroup(
            "Extras",
            "Bonuses the rule sheet offers as options, off unless chosen.",
            ("noahs_ark", "david_goliath"),
        ),
    )
    score_keys: tuple[str, ...] = ("points", "adjustments", "resigned", "end", "finisher")

    # --- the engine ----------------------------------------------------------

    def word_index(self, store: LexiconStore, name: str) -> CrosswordWords:
        return installed(store, name)

    def word_index_of(self, words: tuple[str, ...]) -> CrosswordWords:
        return inline(words)

    def option_values(self, options: Options) -> dict[str, Any]:
        return {
            "challenge": options.challenge,
            "rack_size": str(options.rack_size),
            "level": options.levels[0] if options.levels else NO_LEVEL,
            "noahs_ark": options.noahs_ark,
            "david_goliath": options.david_goliath,
        }

    def with_options(self, preset: str, changed: Mapping[str, Any]) -> Options:
        values = dict(changed)
        if "rack_size" in values:
            values["rack_size"] = int(values["rack_size"])
        if "level" in values:
            level = values.pop("level")
            values["levels"] = () if level == NO_LEVEL else (level,)
        return dataclasses.replace(PRESETS[preset], **values)

    def preset_of(self, options: Options) -> tuple[str, bool]:
        return options.preset, bool(options.overrides())

    def scores_from_state(self, stored: Mapping[str, Any], seats: int) -> list[int]:
        """What :meth:`GameState.scores` returns: the points made in play and,
        once over, the unplayed letters' adjustments."""
        points = stored["points"]
        adjustments = stored.get("adjustments") or [0] * len(points)
        return [p + a for p, a in zip(points, adjustments, strict=True)][:seats]

    def winners_from_state(self, stored: Mapping[str, Any], seats: int) -> list[int]:
        """What :meth:`GameState.winners` says of a finished game: the player who
        reached the target (Translating the Word), or else the highest score, a
        tie going to the higher score before the adjustments; still tied, all."""
        if stored.get("end") == "target" and stored.get("finisher") is not None:
            return [stored["finisher"]]
        scores = self.scores_from_state(stored, seats)
        ranked = [(scores[s], stored["points"][s]) for s in range(seats)]
        return best_seats(ranked, self.out_from_state(stored))

    def deal(
        self, players: Sequence[str], options: Options, lexicon: Any, rng: random.Random
    ) -> events.GameStarted:
        return deal(tuple(players), options, words_of(lexicon).name, rng)

    def decide(self, st: state.GameState, seat: int, move: str, lexicon: Any) -> list[events.Event]:
        """The rules' events for ``move``.  With ``async`` challenges a play
        that would end the game leaves it waiting on the next seat (challenge
        or accept), so the game is over, and its record with every rack
        published, only once nothing can be challenged."""
        return commands.decide(st, seat, move, words_of(lexicon).dawg)

    def progress(self, st: state.GameState) -> Progress:
        made = st.open_play  # an async game's play that may still be challenged
        answerers = (
            ()
            if made is None or st.over
            else tuple(
                seat
                for seat in range(len(st.players))
                if seat not in (made.seat, st.turn) and st.in_game(seat)
            )
        )
        return Progress(st.seq, st.turn, st.over, st.end, answerers=answerers)

    def event_seat(self, event: events.Event) -> int | None:
        return events.event_seat(event)

    def legal_moves(self, st: state.GameState, seat: int, lexicon: Any) -> list[str]:
        return [move for move, _ in scored_moves(st, seat, words_of(lexicon))]

    def record_turn(self, rec: record.Record, index: int) -> tuple[int, str]:
        turn = record.read_turn(rec.turns[index], len(rec.players))
        return turn.seat, turn.move

    def stored_record(
        self, rec: record.Record, turns: int, text: Callable[[str], str]
    ) -> dict[str, Any]:
        return kept_record(rec, turns, text, _turn_entry)

    def record_moves(self, log: Sequence[events.Event]) -> tuple[str, ...]:
        return record.turn_moves(log)

    def replay_record(self, rec: record.Record, resolve: Resolver) -> record.ReplayResult:
        return record.replay_record(rec, _dawg_of(resolve))

    def replay_json(self, text: str | bytes, resolve: Resolver) -> record.ReplayResult:
        return record.replay_json(text, _dawg_of(resolve))

    def write_record(self, log: Sequence[events.Event], lexicon: str | None) -> dict[str, Any]:
        return record.write_record(log, lexicon)


def _turn_entry(raw: object, players: int) -> dict[str, Any]:
    """A record's turn as it is kept: its draw too, when it lists one."""
    turn = record.read_turn(raw, players)
    entry: dict[str, Any] = {"seat": turn.seat, "move": turn.move}
    if turn.draw is not None:
        entry["draw"] = turn.draw
    return entry


def _dawg_of(resolve: Resolver) -> record.Resolver:
    """A record's resolver of the engine's kind: the rules need ``word in words`` only."""
    return lambda name: words_of(resolve(name)).dawg


#: The one instance the registry holds.
CROSSWORD = Crossword()
