"""High card: a small game with hidden hands, written to show that the service
runs any game kind (``tests/kinds/highcard/``; only the tests register it).

The rules: the numbered cards 1 to ``top_card`` are shuffled and each seat is
dealt ``hand_size`` of them, face down (the rest stay unseen).  Seats take turns
in order; a turn plays one card of one's hand (``play 7``) or passes (``pass``;
the service writes ``timeout`` for a seat whose deadline passed, which passes).
A round is one turn for each seat still in the game: when it is complete, the
highest card played in it by a seat still in scores that seat a point.  The game
ends when the hands of every seat still in are empty at the end of a round, when
a round passes with no card played, or when fewer than two seats are left
(``resign``, at any time).  The highest score among the seats still in wins.

Pure Python, like :mod:`games.engine`: commands are decided into events, which
a fold applies; randomness comes only through the ``random.Random`` given to
:func:`deal`, and the deal's event records the hands dealt, never a seed.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.common import fold
from games.engine.common import records as common
from games.engine.common.records import parse_json, read_turns
from games.engine.errors import BadRecord, Refusal

FORMAT = "highcard-record/1"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MIN_HAND, MAX_HAND = 1, 8
#: The deck is never smaller than every hand the largest table needs.
MIN_TOP, MAX_TOP = MAX_PLAYERS * MAX_HAND, 60


@dataclass(frozen=True, slots=True)
class Options:
    preset: str = "standard"
    hand_size: int = 5
    top_card: int = 40

    def values(self) -> dict[str, Any]:
        return {"hand_size": self.hand_size, "top_card": self.top_card}

    def to_json(self) -> dict[str, Any]:
        base = PRESETS.get(self.preset)
        out: dict[str, Any] = {"preset": self.preset}
        out |= {k: v for k, v in self.values().items() if base is None or getattr(base, k) != v}
        return out


PRESETS: dict[str, Options] = {
    "standard": Options("standard", 5, 40),
    "quick": Options("quick", 3, 32),
}


def options_from_json(data: object) -> Options:
    if not isinstance(data, dict) or data.get("preset") not in PRESETS:
        raise BadRecord(f"'options' must name a preset ({', '.join(PRESETS)})")
    changed = {k: v for k, v in data.items() if k != "preset"}
    unknown = set(changed) - {"hand_size", "top_card"}
    if unknown:
        raise BadRecord(f"'options' has no {sorted(unknown)[0]!r}")
    options = dataclasses.replace(PRESETS[data["preset"]], **changed)
    if not isinstance(options.hand_size, int) or not MIN_HAND <= options.hand_size <= MAX_HAND:
        raise BadRecord(f"'hand_size' must be {MIN_HAND} to {MAX_HAND}")
    if not isinstance(options.top_card, int) or not MIN_TOP <= options.top_card <= MAX_TOP:
        raise BadRecord(f"'top_card' must be {MIN_TOP} to {MAX_TOP}")
    return options


# --- events ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    players: tuple[str, ...]
    options: Options
    hands: tuple[tuple[int, ...], ...]  # private: only the server holds every hand
    first: int
    type = "dealt"
    PRIVATE = ("hands",)


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: int
    type = "played"
    PRIVATE = ()


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int
    type = "passed"
    PRIVATE = ()


@dataclass(frozen=True, slots=True)
class TimedOut:
    seat: int
    type = "timed_out"
    PRIVATE = ()


@dataclass(frozen=True, slots=True)
class Resigned:
    seat: int
    type = "resigned"
    PRIVATE = ()


@dataclass(frozen=True, slots=True)
class RoundWon:
    """A round's end: who played its highest card (``None``: nobody played one)."""

    winner: int | None
    card: int | None
    type = "round_won"
    PRIVATE = ()


Event = Dealt | Played | Passed | TimedOut | Resigned | RoundWon
_TYPES: dict[str, type[Any]] = {
    cls.type: cls for cls in (Dealt, Played, Passed, TimedOut, Resigned, RoundWon)
}


def to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": event.type}
    if isinstance(event, Dealt):
        return data | {
            "players": list(event.players),
            "options": event.options.to_json(),
            "hands": [list(h) for h in event.hands],
            "first": event.first,
        }
    return data | {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}


def from_dict(data: dict[str, Any]) -> Event:
    kind = _TYPES[data["type"]]
    if kind is Dealt:
        return Dealt(
            tuple(data["players"]),
            options_from_json(data["options"]),
            tuple(tuple(h) for h in data["hands"]),
            data["first"],
        )
    fields = {f.name: data[f.name] for f in dataclasses.fields(kind)}
    event: Event = kind(**fields)
    return event


# --- state -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[str, ...]
    options: Options
    hands: tuple[tuple[int, ...], ...]
    turn: int | None
    scores: tuple[int, ...]
    #: This round's turns so far: (seat, card played or None for a pass).
    table: tuple[tuple[int, int | None], ...] = ()
    resigned: frozenset[int] = frozenset()
    #: The last round's end: (winner or None, card or None).
    last_round: tuple[int | None, int | None] | None = None
    seq: int = 1
    over: bool = False
    end: str | None = None

    @property
    def seats(self) -> int:
        return len(self.players)

    def in_game(self, seat: int) -> bool:
        return seat not in self.resigned

    def live(self) -> list[int]:
        return [s for s in range(self.seats) if s not in self.resigned]

    def winners(self) -> list[int]:
        live = self.live()
        top = max((self.scores[s] for s in live), default=0)
        return [s for s in live if self.scores[s] == top]

    def next_seat(self, after: int) -> int:
        for step in range(1, self.seats + 1):
            seat = (after + step) % self.seats
            if seat not in self.resigned:
                return seat
        return after


def state_to_json(state: State) -> dict[str, Any]:
    return {
        "players": list(state.players),
        "options": state.options.to_json(),
        "hands": [list(h) for h in state.hands],
        "turn": state.turn,
        "scores": list(state.scores),
        "table": [list(t) for t in state.table],
        "resigned": sorted(state.resigned),
        "last_round": None if state.last_round is None else list(state.last_round),
        "seq": state.seq,
        "over": state.over,
        "end": state.end,
    }


def state_from_json(data: dict[str, Any]) -> State:
    last = data["last_round"]
    return State(
        players=tuple(data["players"]),
        options=options_from_json(data["options"]),
        hands=tuple(tuple(h) for h in data["hands"]),
        turn=data["turn"],
        scores=tuple(data["scores"]),
        table=tuple((s, c) for s, c in data["table"]),
        resigned=frozenset(data["resigned"]),
        last_round=None if last is None else (last[0], last[1]),
        seq=data["seq"],
        over=data["over"],
        end=data["end"],
    )


def deal(players: Sequence[str], options: Options, rng: random.Random) -> Dealt:
    """Shuffle the deck and deal each seat its hand; the first to move at random."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"high card is played by {MIN_PLAYERS} to {MAX_PLAYERS}")
    deck = rng.sample(range(1, options.top_card + 1), options.hand_size * len(players))
    n = options.hand_size
    hands = tuple(tuple(sorted(deck[i * n : (i + 1) * n])) for i in range(len(players)))
    return Dealt(tuple(players), options, hands, rng.randrange(len(players)))


def start(dealt: Dealt) -> State:
    seats = len(dealt.players)
    return State(dealt.players, dealt.options, dealt.hands, dealt.first, (0,) * seats)


def evolve(state: State, event: Event) -> State:
    seq = state.seq + 1
    match event:
        case Played(seat, card):
            hands = list(state.hands)
            hands[seat] = tuple(c for c in hands[seat] if c != card)
            return dataclasses.replace(
                state,
                hands=tuple(hands),
                table=(*state.table, (seat, card)),
                turn=state.next_seat(seat),
                seq=seq,
            )
        case Passed(seat) | TimedOut(seat):
            return dataclasses.replace(
                state, table=(*state.table, (seat, None)), turn=state.next_seat(seat), seq=seq
            )
        case Resigned(seat):
            resigned = state.resigned | {seat}
            after = dataclasses.replace(state, resigned=resigned, seq=seq)
            if len(after.live()) < 2:
                return dataclasses.replace(after, turn=None, over=True, end="resigned")
            if state.turn == seat:
                after = dataclasses.replace(after, turn=after.next_seat(seat))
            return after
        case RoundWon(winner, card):
            scores = list(state.scores)
            if winner is not None:
                scores[winner] += 1
            after = dataclasses.replace(
                state, scores=tuple(scores), table=(), last_round=(winner, card), seq=seq
            )
            if not any(state.hands[s] for s in state.live()):
                return dataclasses.replace(after, turn=None, over=True, end="cards")
            if winner is None:
                return dataclasses.replace(after, turn=None, over=True, end="stalled")
            return after
    raise ValueError(f"not an event of high card: {event!r}")


def replay(events: Sequence[Event]) -> State:
    return fold.replay(events, Dealt, start, evolve)


# --- moves -----------------------------------------------------------------------

_PLAY = re.compile(r"play\s+(\d{1,3})", re.IGNORECASE)
MOVE_FORMS = "“play 7” (a card of your hand), “pass” or “resign”"


def parse_move(text: str) -> tuple[str, int | None]:
    """A move in the notation: ``("play", 7)``, ``("pass", None)``…"""
    words = text.strip()
    if (found := _PLAY.fullmatch(words)) is not None:
        return "play", int(found.group(1))
    if words.lower() in ("pass", "resign", "timeout"):
        return words.lower(), None
    raise Refusal("bad_move", f"Could not read the move {text[:40]!r}: write {MOVE_FORMS}.")


def format_move(command: tuple[str, int | None]) -> str:
    verb, card = command
    return f"play {card}" if verb == "play" else verb


def _round_end(state: State) -> list[Event]:
    """The round's end once every seat still in has had its turn in it."""
    if state.over or not state.table:
        return []
    moved = {seat for seat, _ in state.table}
    if not set(state.live()) <= moved:
        return []
    played = [
        (card, seat) for seat, card in state.table if card is not None and state.in_game(seat)
    ]
    if not played:
        return [RoundWon(None, None)]
    card, seat = max(played)
    return [RoundWon(seat, card)]


def decide(state: State, seat: int, move: str) -> list[Event]:
    """The events ``move`` by ``seat`` makes, or a ``Refusal``."""
    verb, card = parse_move(move)
    if state.over:
        raise Refusal("game_over", "The game is over: no more moves can be made.")
    if not state.in_game(seat):
        raise Refusal("not_in_game", "You have left this game: you cannot move in it.")
    first: Event
    if verb == "resign":
        first = Resigned(seat)
    else:
        if state.turn != seat:
            assert state.turn is not None
            raise Refusal("not_your_turn", f"It is {state.players[state.turn]}'s turn, not yours.")
        if verb == "play":
            assert card is not None
            if card not in state.hands[seat]:
                raise Refusal("bad_move", f"You hold no card {card}: play a card of your hand.")
            first = Played(seat, card)
        elif verb == "pass":
            first = Passed(seat)
        else:
            first = TimedOut(seat)
    after = evolve(state, first)
    return [first, *_round_end(after)]


def legal_moves(state: State, seat: int) -> list[str]:
    if state.over or state.turn != seat:
        return []
    return [f"play {c}" for c in state.hands[seat]] + ["pass"]


# --- records ---------------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    players: tuple[str, ...]
    options: Options
    hands: tuple[tuple[int, ...], ...]
    first: int
    turns: tuple[Any, ...]
    lexicon: None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "players": list(self.players),
            "options": self.options.to_json(),
            "hands": [list(h) for h in self.hands],
            "first": self.first,
            "turns": list(self.turns),
        }


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_record(data: object) -> Record:
    if not isinstance(data, dict):
        raise BadRecord("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise BadRecord(f"'format' must be exactly {FORMAT!r}")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        or not all(isinstance(p, str) and p for p in players)
    ):
        raise BadRecord(f"'players' must list {MIN_PLAYERS} to {MAX_PLAYERS} names")
    options = options_from_json(data.get("options"))
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != len(players):
        raise BadRecord("'hands' must hold one hand for each player")
    seen: set[int] = set()
    for hand in hands:
        if not isinstance(hand, list) or len(hand) != options.hand_size:
            raise BadRecord(f"each hand must hold {options.hand_size} cards")
        for card in hand:
            if not _int(card) or not 1 <= card <= options.top_card or card in seen:
                raise BadRecord(f"the cards dealt must be different, from 1 to {options.top_card}")
            seen.add(card)
    first = data.get("first")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(players):
        raise BadRecord("'first' must be a seat")
    turns = read_turns(data.get("turns"))
    return Record(tuple(players), options, tuple(tuple(h) for h in hands), first, turns)


def read_record_json(text: str | bytes) -> Record:
    return read_record(parse_json(text))


def read_turn(raw: object, seats: int) -> tuple[int, str]:
    if not isinstance(raw, dict):
        raise BadRecord("a turn is an object with 'seat' and 'move'")
    seat, move = raw.get("seat"), raw.get("move")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise BadRecord("a turn's 'seat' must be a seat of the game")
    if not isinstance(move, str):
        raise BadRecord("a turn's 'move' must be text")
    return seat, move


class ReplayResult(common.ReplayResult[State, Event]):
    STATE_KEYS = ("status", "end", "next", "hands", "scores", "winners")

    def state_json(self, s: State) -> dict[str, Any]:
        return {
            "status": "over" if s.over else "playing",
            "end": s.end,
            "next": s.turn,
            "hands": [list(h) for h in s.hands],
            "scores": list(s.scores),
            "winners": s.winners(),
        }


def replay_record(record: Record) -> ReplayResult:
    dealt = Dealt(record.players, record.options, record.hands, record.first)

    def play(state: State, raw: object) -> list[Event]:
        seat, move = read_turn(raw, len(record.players))
        return decide(state, seat, move)

    return ReplayResult(start(dealt), [dealt]).play_turns(record.turns, play, evolve)


def replay_json(text: str | bytes) -> ReplayResult:
    try:
        record = read_record_json(text)
    except BadRecord as e:
        return ReplayResult(None, error=e)
    return replay_record(record)


def turn_of(event: Event) -> tuple[int, str] | None:
    """The record's turn an event was made by (``None``: the deal, a round's end)."""
    match event:
        case Played(seat, card):
            return seat, f"play {card}"
        case Passed(seat):
            return seat, "pass"
        case TimedOut(seat):
            return seat, "timeout"
        case Resigned(seat):
            return seat, "resign"
    return None


def write_record(events: Sequence[Event]) -> dict[str, Any]:
    dealt = events[0]
    assert isinstance(dealt, Dealt)
    turns = [
        {"seat": turn[0], "move": turn[1]} for e in events[1:] if (turn := turn_of(e)) is not None
    ]
    return Record(dealt.players, dealt.options, dealt.hands, dealt.first, tuple(turns)).to_json()


def stored_record(record: Record, turns: int, text: Callable[[str], str]) -> dict[str, Any]:
    kept = []
    for raw in record.turns[:turns]:
        seat, move = read_turn(raw, len(record.players))
        kept.append({"seat": seat, "move": text(move)})
    players = tuple(text(p) for p in record.players)
    return dataclasses.replace(record, players=players, turns=tuple(kept)).to_json()


def option_values(options: Options) -> Mapping[str, Any]:
    return options.values()
