"""What pages show of a game: the board as one viewer may see it, and the log
of moves in words.

Everything here is built for one viewer: a seat (who sees their own rack) or a
spectator (``seat=None``).  Nothing private to another seat (its rack, its
draws, the tiles it exchanged) or the bag's order ever goes into what these
functions return; tests scan every page for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from accounts.names import shown_name
from games.engine import (
    Event,
    Exchanged,
    GameStarted,
    GameState,
    JumbulayaFailed,
    JumbulayaVerified,
    Passed,
    Resigned,
    TimedOut,
    WordBuilt,
    evolve,
    format_word,
    line_points,
    start,
)

END_WORDS = {
    "jumbulaya": "a JUMBULAYA was found",
    "ten_tiles": "a line reached 10 tiles",
    "all_lines": "one player claimed all nine lines",
    "stalled": "no word was built for too long",
    "resigned": "fewer than two players remain",
}


@dataclass(frozen=True)
class LineView:
    number: int  # 1..9
    tiles: tuple[str, ...]
    word: str | None
    owner: int | None
    owner_name: str | None
    points: int  # what the line scores for its owner


@dataclass(frozen=True)
class BoardView:
    lines: list[LineView]
    players: list[str]
    scores: list[int]
    rack_sizes: list[int]
    rack: tuple[str, ...] | None  # the viewer's own rack; None for a spectator
    bag: int
    turn: int | None
    turn_name: str | None
    over: bool
    end: str | None
    end_words: str | None
    winners: list[int]  # seats
    winner_names: list[str]
    resigned: list[int]
    jumbulaya_open: bool
    seq: int


def player_names(players: Sequence[str]) -> list[str]:
    """The players' names as pages and emails show them.  A game's log keeps
    the names its players had when it began; one that the name rules refuse
    (kept from before they did: a line break, a link) shows as its seat."""
    return [shown_name(name) or f"Seat {i + 1}" for i, name in enumerate(players)]


def board_view(state: GameState, seat: int | None) -> BoardView:
    """The board for ``seat`` (``None``: a spectator)."""
    players = player_names(state.players)
    return BoardView(
        lines=[
            LineView(
                number=i + 1,
                tiles=ln.tiles,
                word=ln.word,
                owner=ln.owner,
                owner_name=None if ln.owner is None else players[ln.owner],
                points=line_points(ln.tiles) if ln.owner is not None else 0,
            )
            for i, ln in enumerate(state.lines)
        ],
        players=players,
        scores=state.scores(),
        rack_sizes=[len(r) for r in state.racks],
        rack=None if seat is None else state.racks[seat],
        bag=len(state.bag),
        turn=state.turn,
        turn_name=None if state.turn is None else players[state.turn],
        over=state.over,
        end=state.end,
        end_words=END_WORDS.get(state.end or ""),
        winners=state.winners(),
        winner_names=[players[s] for s in state.winners()],
        resigned=sorted(state.resigned),
        jumbulaya_open=state.jumbulaya_open(),
        seq=state.seq,
    )


def describe(before: GameState, event: Event, after: GameState) -> str:
    """One move in words, from what every viewer may know."""
    name = player_names(before.players)
    match event:
        case WordBuilt(seat, line, tiles):
            previous = before.lines[line].owner
            took = (
                f", taking it from {name[previous]}"
                if previous is not None and previous != seat
                else ""
            )
            return (
                f"{name[seat]} built {format_word(tiles)} on line {line + 1} "
                f"(+{line_points(tiles)}){took}."
            )
        case Exchanged(seat, tiles):
            n = len(tiles)
            return f"{name[seat]} exchanged {n} tile{'s' if n != 1 else ''}."
        case Passed(seat):
            return f"{name[seat]} passed."
        case TimedOut(seat):
            return f"{name[seat]} ran out of time; the turn passed."
        case JumbulayaVerified(seat, tiles, lines, points):
            down = ", ".join(str(i + 1) for i in lines)
            return (
                f"{name[seat]} called JUMBULAYA: {format_word(tiles)} down lines {down} "
                f"(+{points})."
            )
        case JumbulayaFailed(seat, word, reason):
            return (
                f"{name[seat]} called JUMBULAYA with {word}, which could not be verified "
                f"({reason}), and loses a turn."
            )
        case Resigned(seat):
            return f"{name[seat]} resigned."
        case GameStarted():
            return f"The game began; {name[after.turn or 0]} moves first."
    raise TypeError(f"not an event: {event!r}")


def history(events: Sequence[Event]) -> list[tuple[int, str]]:
    """``(seq, words)`` for every event of a log, oldest first.  Needs the whole
    log (the fold needs the draws) but returns only public words."""
    out: list[tuple[int, str]] = []
    state: GameState | None = None
    for event in events:
        if isinstance(event, GameStarted):
            state = start(event)
            out.append((state.seq, describe(state, event, state)))
            continue
        assert state is not None, "a log starts with game_started"
        after = evolve(state, event)
        words = describe(state, event, after)
        if after.over and not state.over:
            words += f" The game is over: {END_WORDS[after.end or '']}."
        out.append((after.seq, words))
        state = after
    return out
