"""The stall check: games against robots played to their end through the one
door, each robot turn by the function its task runs, checking that no game
ever waits on a robot.

A game is played step by step, synchronously (no worker, no sleeping): every
robot turn owed is played by :func:`games.robots.turns.play`, and a person to
move moves through :func:`games.core.door.submit` (what the kind's weakest
robot would play for them, as the page would send it; off their turn, while a
JUMBULAYA claim window is open, a person calls what that robot would call,
which is sealed).  The game stalls, and :class:`Stalled` says how, when

* a robot is to move and is owed no turn (nothing would ever play it),
* a turn owed to a robot to move is played and the game does not move on, or
* the game is not over after :data:`MAX_EVENTS` events.

:func:`check` plays a batch (:func:`setups`: every kind, robot against robot
and a person against robots, JUMBULAYA with claim windows on and off) and
reports what it found; the suite plays a few dozen games
(``tests/robots/test_stalls.py``), ``python -m bench stalls`` hundreds.  The
daily limit on the games an account creates counts these games too: the
caller lifts it (``JUMBULAYA_GAMES_PER_DAY``).
"""

from __future__ import annotations

import random
import secrets
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain, cycle

from accounts import services as accounts
from games import kinds
from games.core import door, lobby
from games.core.projection import current_state, game_lexicon, kind_of, load_events
from games.core.windows import AlreadyCalled
from games.engine.errors import Refusal
from games.kinds.base import GameKind
from games.models import Event, Game, RobotTurn
from games.robots import owed, turns

#: Events a game may hold before it counts as stalled: the longest games of
#: ``python -m bench stalls`` hold 150 or fewer.
MAX_EVENTS = 600


class Stalled(AssertionError):
    """A game that waited on a robot, or never ended."""


@dataclass(frozen=True)
class Setup:
    """One game to play: its kind and preset, its robots' levels, whether a
    person holds seat 0, and whether its claim window is on."""

    kind: str
    preset: str
    levels: tuple[str, ...]
    person: bool
    claim_window: bool

    @property
    def label(self) -> str:
        """``jumbulaya/official person+casual window``, for a report."""
        who = "+".join(("person", *self.levels) if self.person else self.levels)
        window = " window" if self.claim_window and kinds.get(self.kind).window else ""
        return f"{self.kind}/{self.preset} {who}{window}"


@dataclass
class Played:
    """A game played to its end."""

    setup: Setup
    game_id: int
    events: int
    end: str
    #: How long each robot turn that moved the game took to play, in ms.
    robot_turn_ms: list[float]
    seconds: float


@dataclass
class Report:
    """A batch of games: each game played to its end, and each stall found."""

    games: list[Played] = field(default_factory=list)
    stalls: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, object]:
        """The batch in numbers, by kind."""
        out: dict[str, object] = {"games": len(self.games), "stalls": list(self.stalls)}
        for name in sorted({p.setup.kind for p in self.games}):
            mine = [p for p in self.games if p.setup.kind == name]
            turn_ms = sorted(ms for p in mine for ms in p.robot_turn_ms)
            out[name] = {
                "games": len(mine),
                "with_a_person": sum(1 for p in mine if p.setup.person),
                "claim_window_on": sum(1 for p in mine if p.setup.claim_window),
                "ends": dict(Counter(p.end for p in mine)),
                "events_max": max(p.events for p in mine),
                "events_mean": round(statistics.fmean(p.events for p in mine), 1),
                "robot_turns": len(turn_ms),
                "robot_turn_ms": _spread(turn_ms),
                "seconds": round(sum(p.seconds for p in mine), 1),
            }
        return out


def _spread(sorted_ms: list[float]) -> dict[str, float | None]:
    """The median, p95 and longest of sorted times (the longest is the first
    turn of a run, which loads the word list)."""
    if not sorted_ms:
        return {"median": None, "p95": None, "max": None}
    p95 = sorted_ms[min(len(sorted_ms) - 1, round(0.95 * (len(sorted_ms) - 1)))]
    return {
        "median": round(statistics.median(sorted_ms), 1),
        "p95": round(p95, 1),
        "max": round(sorted_ms[-1], 1),
    }


def setups(per_kind: int, seed: int, levels: int | None = None) -> list[Setup]:
    """``per_kind`` games of every kind with robots, robot against robot and a
    person against robots in turn, cycling through the kind's presets, its
    seat counts (the fewest and one more) and, for a kind with sealed calls,
    the claim window on and off; robots of the kind's ``levels`` weakest
    levels (at least as many as its fewest seats), or of all its levels."""
    rng = random.Random(seed)
    out = []
    for kind in kinds.all():
        offered = [lv for lv in kinds.robot_levels(kind) if owed.robot(lv) is not None]
        if levels is not None:
            offered = offered[: max(levels, kind.min_players)]
        if len(offered) < kind.min_players:
            continue  # too few robots to fill a game
        presets = cycle(kind.presets)
        seat_counts = cycle(
            range(kind.min_players, min(kind.max_players, kind.min_players + 1) + 1)
        )
        windows = cycle((True, False) if kind.window is not None else (False,))
        for i in range(per_kind):
            person = i % 2 == 1
            seats = min(next(seat_counts), len(offered) + person)
            chosen = tuple(rng.sample(offered, seats - person))
            out.append(Setup(kind.name, next(presets), chosen, person, next(windows)))
    return out


def check(games: Sequence[Setup], seed: int) -> Report:
    """Play each of ``games`` to its end; a game that stalls is reported and
    the batch goes on."""
    report = Report()
    rng = random.Random(seed)
    for setup in games:
        try:
            report.games.append(play(setup, rng))
        except Stalled as e:
            report.stalls.append(f"{setup.label}: {e}")
    return report


def play(setup: Setup, rng: random.Random) -> Played:
    """Create one game and play it to its end (:class:`Stalled` if it stalls)."""
    began = time.perf_counter()
    kind = kinds.get(setup.kind)
    levels = list(setup.levels)
    if setup.person:
        token = secrets.token_hex(4)
        creator = accounts.make_named_account(f"stall-{token}@example.com", f"Tester {token}")
    else:
        first = owed.robot(levels.pop(0))
        assert first is not None  # setups() offers only levels with their accounts
        creator = first
    game = lobby.create_game(
        creator,
        seat_count=len(setup.levels) + setup.person,
        rules=kind.presets[setup.preset],
        kind=kind.name,
        robots=levels,
        claim_window=setup.claim_window,
    )
    turn_ms: list[float] = []
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.OVER:
            break
        if game.last_seq > MAX_EVENTS:
            raise Stalled(f"game {game.pk} is not over after {MAX_EVENTS} events")
        _robots_answer(game, turn_ms)
        game.refresh_from_db()
        if setup.person and game.status == Game.Status.PLAYING:
            _person_answers(game, 0, kind, rng)
    return Played(
        setup, game.pk, game.last_seq, game.end_reason, turn_ms, time.perf_counter() - began
    )


def _robot_seats(game: Game) -> set[int]:
    return {s.index for s in game.seats.select_related("user") if s.user and s.user.robot_level}


def _robots_answer(game: Game, turn_ms: list[float]) -> None:
    """Play every robot turn owed, and those their moves owe, the oldest
    first; add the time each that moved the game took to ``turn_ms``.

    A robot to move must be owed its turn, and a turn owed to a robot to move
    must move the game on when it is played: else the game waits on it."""
    kind = kind_of(game)
    to_move = set(kind.progress(current_state(game)).to_move) & _robot_seats(game)
    owed_now = RobotTurn.objects.filter(game=game, seq=game.last_seq, done_at__isnull=True)
    missing = to_move - set(owed_now.values_list("seat", flat=True))
    if missing:
        raise Stalled(
            f"game {game.pk} at {game.last_seq}: robot seat {min(missing)} is to move "
            "and is owed no turn"
        )
    while True:
        row = (
            RobotTurn.objects.filter(game=game, done_at__isnull=True).order_by("seq", "pk").first()
        )
        if row is None:
            return
        game.refresh_from_db()
        must_move = (
            row.seq == game.last_seq and row.seat in kind.progress(current_state(game)).to_move
        )
        began = time.perf_counter()
        outcome = turns.play(row.pk)
        took = (time.perf_counter() - began) * 1000
        game.refresh_from_db()
        if game.last_seq != row.seq:
            turn_ms.append(took)
        elif must_move:
            raise Stalled(
                f"game {game.pk} at {row.seq}: robot seat {row.seat} was to move, its turn "
                f"was played ({outcome}) and the game did not move on"
            )


def _person_answers(game: Game, seat: int, kind: GameKind, rng: random.Random) -> None:
    """The person in ``seat`` moves when it is their turn (what the kind's
    weakest robot would play, else what ends a robot's turn when its own
    answer cannot be made), and off their turn calls what it would call."""
    state = current_state(game)
    on_turn = seat in kind.progress(state).to_move
    if not on_turn and not (kind.window is not None and kind.window.is_open(state)):
        return
    assert kind.robots is not None  # setups() plays only kinds with robots
    lexicon = game_lexicon(game) if kind.uses_word_list else None
    weakest = next(iter(kind.robots.levels))
    answer = kind.robots.play(load_events(game), state, seat, lexicon, weakest, rng)
    if answer.strip().lower() == "wait":
        if not on_turn:
            return
        answer = "pass"
    ending = turns.ending_moves(kind, state, seat, lexicon) if on_turn else ()
    for move in chain((answer,), ending):
        try:
            door.submit(game.pk, seat, move, game.last_seq, Event.Source.WEB)
            return
        except (Refusal, AlreadyCalled):
            continue  # off the turn, a call refused leaves nothing else to do
    if on_turn:
        raise Stalled(f"game {game.pk} at {game.last_seq}: seat {seat}'s player could not move")
