"""Tumble-Words as a game kind: the rules engine of :mod:`games.engine.tumble`
behind the :class:`~games.kinds.base.GameKind` interface.  This module wraps
it; it copies none of its rules.

With two players both seats move at once: each round is sealed, and
:meth:`TumbleWords.progress` names every seat the open round still waits for
(``movers``) and the round's number, so the core sends "your turn" to both,
gives the round one deadline, and opens a new turn when the next round is
rolled.  With three or more, one seat plays the cubes at a time.

Its word list is :class:`.words.TumbleWords`, the same DAWG the crossword game
builds of an installed list.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine import tumble as engine
from games.engine.errors import Refusal
from games.engine.lexicon import LexiconStore
from games.engine.tumble import record
from games.engine.tumble.options import MAX_PLAYERS, MIN_PLAYERS, Options
from games.kinds.tumble.word_index import TumbleWords, inline, installed, words_of

from ..base import OptionField, OptionGroup, Progress, Resolver, Robots, Window
from ..engine_events import best_seats, kept_record
from ..engine_kind import EngineKind
from .robots import TUMBLE_ROBOTS

#: The presets, by name: the seed's rules, its younger child's variant, and a
#: shorter game.
PRESETS: Mapping[str, Options] = {
    "standard": Options(),
    "younger": Options(younger=True),
    "short": Options(target=50),
}
PRESET_LABELS: Mapping[str, str] = {
    "standard": "The rule sheet's game: to 100 points, one connected crossword a round",
    "younger": "The younger child's variant: words need not be connected",
    "short": "A short game: to 50 points",
}


#: The verbs of the notation; anything else typed is read as a crossword.
VERBS = ("submit", "timeout", "resign")


#: The empty crossword's submission: a seat may always hand it in (it scores
#: :data:`games.engine.tumble.NOTHING_SUBMITTED`).
EMPTY_CROSSWORD = "submit ."


def as_move(text: str) -> str:
    """A move as a person types it on the page or in a reply: the notation,
    or a crossword's rows alone, read as its submission (``submit`` and the
    rows below).  ``pass`` is refused by name: the rules have none.

    >>> as_move("..H\nFAME")
    'submit\n..H\nFAME'
    >>> as_move("resign")
    'resign'
    """
    verb = engine.verb_of(text)
    if verb in VERBS or not verb:  # an empty move is the notation's to refuse
        return text
    if verb == "pass":
        raise Refusal(
            "bad_move",
            "There is no passing in Tumble-Words: hand in a crossword, or '.' (the empty "
            f"crossword, which scores {engine.NOTHING_SUBMITTED}), or resign.",
        )
    return "submit\n" + text.strip("\r\n")


def _turn_entry(raw: object, players: int) -> dict[str, Any]:
    """A record's turn as it is kept: its rolls too, when it lists them."""
    turn = record.read_turn(raw, players)
    entry: dict[str, Any] = {"seat": turn.seat, "move": turn.move}
    if turn.rolls is not None:
        entry["rolls"] = list(turn.rolls)
    return entry


class Tumble(EngineKind[engine.TumbleState, engine.Event], engine=engine):
    """Tumble-Words: a crossword of 13 rolled cubes a round, one-colour words
    scoring double; the first to 100 points wins."""

    name = "tumble"
    label = "Tumble-Words"
    description = "the crossword game of 13 rolled letter cubes, one-colour words scoring double"
    record_secrets = "each player's sealed crossword of the round still open"
    record_format = record.FORMAT
    uses_word_list = True
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    presets: Mapping[str, Options] = PRESETS
    preset_labels: Mapping[str, str] = PRESET_LABELS
    window: Window | None = None
    robots: Robots | None = TUMBLE_ROBOTS
    option_fields: tuple[OptionField, ...] = (
        OptionField(
            "target",
            "Points to win",
            "After a round, the one player at or above it with the top total wins; a tie at "
            "the top plays on.",
            "int",
            minimum=10,
            maximum=500,
        ),
        OptionField(
            "younger",
            "The younger child's variant: the words need not be connected",
            "Every run of letters must still be a word, and every letter in one.",
            "bool",
        ),
        OptionField(
            "play_out",
            "Three or more players: finish the round of turns once someone reaches the target",
            "So that every player has had as many turns; the top total then wins.",
            "bool",
        ),
    )
    option_groups: tuple[OptionGroup, ...] = (
        OptionGroup(
            "Rules",
            "The variant played and the points that win.",
            ("preset", "target", "younger", "play_out", "lexicon_name", "hints"),
        ),
    )
    score_keys: tuple[str, ...] = ("totals", "resigned", "end")

    # --- the engine ----------------------------------------------------------

    def word_index(self, store: LexiconStore, name: str) -> TumbleWords:
        return installed(store, name)

    def word_index_of(self, words: tuple[str, ...]) -> TumbleWords:
        return inline(words)

    def option_values(self, options: Options) -> dict[str, Any]:
        return {"target": options.target, "younger": options.younger, "play_out": options.play_out}

    def with_options(self, preset: str, changed: Mapping[str, Any]) -> Options:
        return dataclasses.replace(PRESETS[preset], **dict(changed))

    def preset_of(self, options: Options) -> tuple[str, bool]:
        for name, preset in PRESETS.items():
            if preset == options:
                return name, False
        base = "younger" if options.younger else "standard"
        return base, True

    def scores_from_state(self, stored: Mapping[str, Any], seats: int) -> list[int]:
        return list(stored["totals"])[:seats]

    def winners_from_state(self, stored: Mapping[str, Any], seats: int) -> list[int]:
        """The top total among the players left (the engine's
        :meth:`~games.engine.tumble.TumbleState.winners`)."""
        return best_seats(self.scores_from_state(stored, seats), self.out_from_state(stored))

    def deal(
        self, players: Sequence[str], options: Options, lexicon: Any, rng: random.Random
    ) -> engine.GameStarted:
        return engine.deal(tuple(players), options, rng)

    def decide(
        self, st: engine.TumbleState, seat: int, move: str, lexicon: Any
    ) -> list[engine.Event]:
        """The rules' events for ``move`` (a crossword alone is its
        submission: :func:`as_move`); a move that closes a round rolls the
        next one from the operating system's generator."""
        return engine.decide(st, seat, as_move(move), words_of(lexicon))

    def progress(self, st: engine.TumbleState) -> Progress:
        """Every seat the open round still waits for may move: both players
        of a sealed round until they submit, or the one seat on turn."""
        return Progress(st.seq, st.turn, st.over, st.end, movers=st.waiting(), round=st.round)

    def verb_of(self, move: str) -> str:
        return engine.verb_of(move) if engine.verb_of(move) in VERBS else "submit"

    def parse_move(self, text: str) -> engine.Command:
        return engine.parse_move(as_move(text))

    def legal_moves(self, st: engine.TumbleState, seat: int, lexicon: Any) -> list[str]:
        """A robot's crossword: the strongest level's for ``seat``'s roll (the
        crosswords a roll allows are far too many to list), then the empty
        crossword, which is always allowed; none off its turn."""
        if seat not in st.waiting():
            return []
        strongest = TUMBLE_ROBOTS.strongest
        answer = TUMBLE_ROBOTS.play([], st, seat, lexicon, strongest, random.Random(0))
        return (
            [answer, EMPTY_CROSSWORD]
            if answer not in ("wait", EMPTY_CROSSWORD)
            else [EMPTY_CROSSWORD]
        )

    def record_turn(self, rec: record.Record, index: int) -> tuple[int, str]:
        turn = record.read_turn(rec.turns[index], len(rec.players))
        return turn.seat, turn.move

    def stored_record(
        self, rec: record.Record, turns: int, text: Callable[[str], str]
    ) -> dict[str, Any]:
        return kept_record(rec, turns, text, _turn_entry)

    def record_moves(self, log: Sequence[engine.Event]) -> tuple[str, ...]:
        """Each event after the deal as its turn's move: a submission, the
        round's one deadline (its first timeout), a resignation; ``""`` for
        the reveals and rolls no turn made."""
        moves: list[str] = []
        previous = log[0] if log else None
        for event in log[1:]:
            match event:
                case engine.Submitted(crossword=crossword):
                    moves.append(f"submit {crossword}")
                case engine.TimedOut() if not isinstance(previous, engine.TimedOut):
                    moves.append("timeout")
                case engine.Resigned():
                    moves.append("resign")
                case _:
                    moves.append("")
            previous = event
        return tuple(moves)

    def replay_record(self, rec: record.Record, resolve: Resolver) -> record.ReplayResult:
        return record.replay_record(rec, _words_of(resolve))

    def replay_json(self, text: str | bytes, resolve: Resolver) -> record.ReplayResult:
        return record.replay_json(text, _words_of(resolve))

    def write_record(self, log: Sequence[engine.Event], lexicon: str | None) -> dict[str, Any]:
        return record.write_record(log, lexicon or "default")


def _words_of(resolve: Resolver) -> record.Resolver:
    """A record's resolver of the engine's kind: the rules need ``word in words`` only."""
    return lambda name: words_of(resolve(name))


#: The one instance the registry holds.
TUMBLE = Tumble()
