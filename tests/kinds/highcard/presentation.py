"""High card's presentation: the seat view, its log and rules in words, a move's
preview, a replay's step and how a reply's move line is read.  Like every
kind's presentation it may read the core's read side."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import seat_names
from games.core.projection import current_state, kind_of, load_events
from games.engine.common.fold import fold_states
from games.engine.errors import Refusal
from games.kinds.base import Logged, Question, ShownHint, Steps
from games.kinds.replay_steps import ReplayStep, step_log, step_words
from games.models import Game

from . import engine
from .engine import Event, State
from .kind import HIGH_CARD
from .robots import Analysis

END_WORDS = {
    "cards": "every hand was played out",
    "stalled": "a whole round passed without a card",
    "resigned": "fewer than two players remain",
}
ACCEPTED_FORMS: tuple[str, ...] = (
    "play 7",
    "pass",
    "resign",
    "add #17 to name the move you answer",
)


@dataclass(frozen=True)
class TableCard:
    seat: int
    name: str
    card: int | None  # None: a pass


@dataclass(frozen=True)
class HighView:
    """The game as one seat (or a spectator) sees it: its own hand only."""

    players: list[str]
    scores: list[int]
    hand_sizes: list[int]
    hand: tuple[int, ...] | None
    table: list[TableCard]
    last_round: str | None
    turn: int | None
    turn_name: str | None
    over: bool
    end_words: str | None
    winners: list[int]
    winner_names: list[str]
    resigned: list[int]
    seq: int


def seat_view(state: State, seat: int | None) -> HighView:
    names = list(state.players)
    winners = state.winners() if state.over else []
    return HighView(
        players=names,
        scores=list(state.scores),
        hand_sizes=[len(h) for h in state.hands],
        hand=None if seat is None else state.hands[seat],
        table=[TableCard(s, names[s], c) for s, c in state.table],
        last_round=None if state.last_round is None else _round_words(state, *state.last_round),
        turn=state.turn,
        turn_name=None if state.turn is None else names[state.turn],
        over=state.over,
        end_words=END_WORDS.get(state.end or ""),
        winners=winners,
        winner_names=[names[s] for s in winners],
        resigned=sorted(state.resigned),
        seq=state.seq,
    )


def _round_words(state: State, winner: int | None, card: int | None) -> str:
    if winner is None:
        return "Nobody played a card, so nobody won the round."
    return f"{state.players[winner]} won the round with the {card}."


def describe(before: State, event: Event, after: State) -> str:
    name = before.players
    match event:
        case engine.Dealt(players, _, _, first):
            return f"The cards were dealt; {players[first]} moves first."
        case engine.Played(seat, card):
            return f"{name[seat]} played the {card}."
        case engine.Passed(seat):
            return f"{name[seat]} passed."
        case engine.TimedOut(seat):
            return f"{name[seat]} ran out of time and passed."
        case engine.Resigned(seat):
            return f"{name[seat]} resigned."
        case engine.RoundWon(winner, card):
            return _round_words(before, winner, card)
    return ""


def history(events: Sequence[Event]) -> list[Logged]:
    """The log in words: one entry a move (a round's end told with the move
    that completed it), then how the game ended."""
    dealt = events[0]
    assert isinstance(dealt, engine.Dealt)
    state = engine.start(dealt)
    out = [Logged(state.seq, describe(state, dealt, state), "the cards were dealt", "")]
    for event in events[1:]:
        after = engine.evolve(state, event)
        said = describe(state, event, after)
        if isinstance(event, engine.RoundWon) and out:
            last = out[-1]
            out[-1] = Logged(after.seq, f"{last.words} {said}", last.headline, last.event_words)
        else:
            out.append(Logged(after.seq, said, said.rstrip("."), said))
        if after.over and not state.over:
            last = out[-1]
            ended = f"The game is over: {END_WORDS.get(after.end or '', 'it ended')}."
            out[-1] = last._replace(words=f"{last.words} {ended}")
        state = after
    return out


def game_log(game: Game, names: Mapping[int, str] | None = None) -> list[Logged]:
    now = seat_names.names_now(game) if names is None else dict(names)
    return history(seat_names.renamed_events(HIGH_CARD, load_events(game), now))


# --- replies ---------------------------------------------------------------------

_ANSWERING = re.compile(r"#(\d{1,9})")
_CARD = re.compile(r"(?:play\s+)?(\d{1,3})", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    move: str | None
    answering: int | None
    read: str
    problem: str | None
    unconfirmed_resign: bool = False


def problem_with(why: str) -> str:
    return f"{why} Reply with one move on the first line: {engine.MOVE_FORMS}."


def read_reply(text: str, subject: str = "") -> Reading:
    """The first non-empty line, read as ``play N`` (or just ``N``), ``pass``,
    ``resign`` or ``hint``, with ``#N`` naming the move answered."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith(">")]
    if not lines:
        return Reading(None, None, "", problem_with("Your reply holds no move."))
    first = lines[0]
    found = _ANSWERING.search(first)
    answering = int(found.group(1)) if found else None
    line = _ANSWERING.sub(" ", first).strip(" .!").lower()
    if (card := _CARD.fullmatch(line)) is not None:
        return Reading(f"play {int(card.group(1))}", answering, first, None)
    if line in ("pass", "resign", "hint"):
        return Reading(line, answering, first, None)
    return Reading(None, None, first, problem_with(f"“{first[:60]}” is not a move."))


# --- previews and questions ---------------------------------------------------------


@dataclass(frozen=True)
class CardPreview:
    kind: str  # "card", "pass", "resign" or "refused"
    summary: str
    details: tuple[str, ...] = ()
    ends_game: bool = False
    message: str | None = None
    accepted: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        return self.kind == "refused"


def preview(game: Game, seat: int, move: str) -> CardPreview:
    names = seat_names.names_now(game)
    state = seat_names.renamed_state(HIGH_CARD, current_state(game), names)
    try:
        if move.split()[:1] == ["timeout"]:
            raise Refusal("bad_move", "'timeout' is written by the service; write 'pass'.")
        events = engine.decide(state, seat, move)
    except Refusal as r:
        return CardPreview("refused", "This move cannot be made:", message=r.message)
    after = state
    for event in events:
        after = engine.evolve(after, event)
    first = events[0]
    details = [describe(state, e, after) for e in events[1:]]
    if isinstance(first, engine.Played):
        return CardPreview("card", f"Play the {first.card}.", tuple(details), after.over)
    if isinstance(first, engine.Resigned):
        return CardPreview("resign", "Resign from the game.", tuple(details), after.over)
    return CardPreview("pass", "Pass this turn.", tuple(details), after.over)


def question_for(move: str) -> Question | None:
    verb = move.strip().lower()
    if verb == "pass":
        return Question(move, "Pass your turn?", "Yes, pass", "No, keep my turn")
    if verb == "resign":
        return Question(
            move, "Resign from this game?", "Yes, resign", "No, stay in the game", danger=True
        )
    return None


# --- replays ---------------------------------------------------------------------


@dataclass(frozen=True)
class HandRow:
    seat: int
    name: str
    score: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Step(ReplayStep[HighView]):
    hands: list[HandRow]  # every hand: nothing is secret in a record
    table: list[TableCard]


def replay_step(replay: Steps, step: int) -> Step:
    states = fold_states(replay.events, engine.Dealt, engine.start, engine.evolve)
    words = step_words(replay.events, states, describe)
    at = states[step]
    return Step(
        step=step,
        last=replay.last_step,
        words=words[step],
        hands=[
            HandRow(s, at.players[s], at.scores[s], at.hands[s]) for s in range(len(at.players))
        ],
        table=[TableCard(s, at.players[s], c) for s, c in at.table],
        log=step_log(words, replay.moves, step),
        final=seat_view(states[-1], None),
        refused=replay.refused,
    )


# --- the presentation --------------------------------------------------------------


class HighCardPresentation:
    name = HIGH_CARD.name
    accepted_forms = ACCEPTED_FORMS
    analysis_template: str | None = None

    def seat_view(self, state: State, seat: int | None) -> HighView:
        return seat_view(state, seat)

    def board_text(self, view: HighView) -> str:
        table = ", ".join(f"{t.name}: {'pass' if t.card is None else t.card}" for t in view.table)
        return f"This round: {table or 'no card yet'}."

    def read_reply(self, text: str, subject: str = "") -> Reading:
        return read_reply(text, subject)

    def describe(self, before: State, event: Event, after: State) -> str:
        return describe(before, event, after)

    def problem_with(self, why: str) -> str:
        return problem_with(why)

    def question_for(self, state: State, seat: int, move: str) -> Question | None:
        return question_for(move)

    def reply_hint(self, seq: int) -> str:
        return (
            "Or reply to this email with your move on the first line, such as "
            f"“play 7 #{seq}” (#{seq} names this position), “pass” or “resign”."
        )

    def hints_in_words(self, hints: Sequence[Any], seq: int) -> str:
        if not hints:
            return "There is no card to suggest now: hints are for your turn."
        lines = [f"- {h.notation}" + (" takes the round so far" if h.points else "") for h in hints]
        heading = f"The cards to play now (at move #{seq}; the lowest that takes the round first):"
        return "\n".join([heading, *lines])

    def hints_shown(self, game: Game, seat: int, hints: Sequence[Any]) -> list[ShownHint]:
        """Each card as the log tells one (``the 7``), filling the move field
        with its notation (``play 7``)."""
        return [
            ShownHint(f"the {h.notation.split()[-1]}", h.notation, h.points, h.gain) for h in hints
        ]

    def rules_in_words(self, options: engine.Options) -> list[str]:
        return [
            f"Rules: {HIGH_CARD.preset_labels.get(options.preset, options.preset)}.",
            f"Each player is dealt {options.hand_size} cards from a deck of 1 to "
            f"{options.top_card}.",
            "The highest card of each round scores a point.",
        ]

    def game_log(self, game: Game, names: Mapping[int, str] | None = None) -> list[Logged]:
        return game_log(game, names)

    def window_outcomes(self, game: Game, seat: int | None) -> list[str]:
        return []

    def compose_context(self, state: State) -> dict[str, Any]:
        return {}

    def preview(self, game: Game, seat: int, move: str) -> CardPreview:
        assert kind_of(game) is HIGH_CARD
        return preview(game, seat, move)

    def analysis_context(self, analysis: Any, names: Mapping[int, str]) -> dict[str, Any]:
        return {}

    def missed_chances(self, analysis: Any, seat: int) -> list[str]:
        """The cards ``seat`` played where the greedy robot would have played another."""
        assert isinstance(analysis, Analysis)
        other = [t for t in analysis.turns if t.seat == seat and t.robot and t.robot != t.played]
        if not other:
            return []
        said = "; ".join(f"you played {t.played[5:]} where it played {t.robot[5:]}" for t in other)
        return [f"Your cards beside the {analysis.robot_level} robot's: {said}."]

    def replay_step(self, replay: Steps, step: int) -> Step:
        return replay_step(replay, step)


HIGH_CARD_PRESENTATION = HighCardPresentation()
