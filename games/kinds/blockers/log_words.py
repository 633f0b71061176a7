"""Blockers in words: each event for the log (from what every viewer may know:
never a tile drawn), the log itself, and the rules."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import blockers as engine
from games.kinds.base import Logged
from games.kinds.blockers.seat_view import END_WORDS, tile_words


def _who(state: engine.BlockersState, seat: int) -> str:
    return f"{state.players[seat]} ({state.colours[seat]})"


def _placed(
    state: engine.BlockersState, seat: int, tile: str, square: str, captured: int | None
) -> str:
    said = f"{tile_words(tile)} at {square}"
    if captured is None:
        return said
    taken = state.faces[engine.SQUARE_NAMES.index(square)]
    return f"{said}, capturing {state.players[captured]}'s {state.colours[captured]} {taken}"


def describe(before: engine.BlockersState, event: engine.Event) -> str:
    """One event in words; ``before`` is the state it was made on."""
    match event:
        case engine.GameStarted(players=players, first=first):
            return f"Each player drew five tiles from their own pile; {players[first]} moves first."
        case engine.TilePlaced(seat, tile, square, captured):
            return f"{_who(before, seat)} placed {_placed(before, seat, tile, square, captured)}."
        case engine.TimedOut(seat, tile, square, captured):
            if tile is None or square is None:
                return f"{_who(before, seat)} ran out of time; with no legal move, the turn passed."
            return (
                f"{_who(before, seat)} ran out of time, so the service played the first "
                f"legal move for them: {_placed(before, seat, tile, square, captured)}."
            )
        case engine.Passed(seat):
            return f"{_who(before, seat)} passed: no tile of their rack could go anywhere."
        case engine.Resigned(seat):
            return f"{_who(before, seat)} resigned; their tiles stay on the board."
    return ""


def history(events: Sequence[engine.Event]) -> list[Logged]:
    """The log in words, one entry an event, the end told with the move that made it."""
    started = events[0]
    assert isinstance(started, engine.GameStarted)
    state = engine.start(started)
    out = [Logged(state.seq, describe(state, started), "the tiles were dealt", "")]
    for event in events[1:]:
        after = engine.evolve(state, event)
        said = describe(state, event)
        words = said
        if after.over and not state.over:
            winners = " and ".join(after.players[s] for s in after.winners()) or "nobody"
            words = (
                f"{said} The game is over: {END_WORDS.get(after.end or '', 'it ended')}; "
                f"won by {winners}."
            )
        out.append(Logged(after.seq, words, said.rstrip("."), said))
        state = after
    return out


def rules_in_words(preset_label: str) -> list[str]:
    return [
        f"Rules: {preset_label}.",
        "Each player plays one colour's 28 tiles from their own face-down pile, "
        "with five on their rack.",
        "A number goes in its column, a letter in its row, a symbol S1–S9 in its 3×3 "
        "sector, the wild anywhere: on an empty square, or capturing another player's "
        "tile there, as long as that tile's group is not split in two.",
        "Groups connect across sides only, never diagonally.",
        "When no tile fits an empty square you must capture; with no legal move at all you pass.",
        "Each player takes 24 turns. Your score is your groups on the board plus the "
        "tiles you captured of the colour you took most: the fewest points win, then "
        "the fewest captures in all.",
    ]
