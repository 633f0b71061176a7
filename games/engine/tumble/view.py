"""What one seat may see: the ``tumble-view/1`` document (docs/tumble-view.md).

Every roll is public (the players roll on the table), so the view holds the
open round's rolls for all its seats.  A sealed submission is the submitter's
alone until its round closes: a seat sees its own (and what it would score),
and of the others only whether they have submitted.  Closed rounds are shown
in full: rolls, crosswords (with the colour each square was laid with) and
points.  Robots read only this view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import BadRecord
from .cubes import roll_problem
from .options import MAX_PLAYERS, MIN_PLAYERS, Options, options_from_json
from .state import TumbleState

FORMAT = "tumble-view/1"


class BadView(ValueError):
    """A document that is not a readable ``tumble-view/1`` seat view."""


def seat_view(
    state: TumbleState, seat: int | None, *, lexicon: str | dict[str, list[str]]
) -> dict[str, Any]:
    """The ``tumble-view/1`` document of ``state`` as ``seat`` sees it
    (``None``: a spectator, who sees no sealed submission)."""
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in a game of {state.seats}")
    own = None if seat is None else state.submission_of(seat)
    return {
        "format": FORMAT,
        "options": state.options.to_json(),
        "lexicon": lexicon,
        "players": list(state.players),
        "seat": seat,
        "mode": "sealed" if state.sealed_rounds else "turns",
        "status": "over" if state.over else "playing",
        "end": state.end,
        "first": state.first,
        "rolloff": list(state.rolloff),
        "round": state.round,
        "round_seats": list(state.seats_in_round),
        "rolls": list(state.rolls),
        "waiting": list(state.waiting()),
        "next": state.turn,
        "own": None if own is None else {"crossword": own.crossword, "points": own.points},
        "rounds": [
            {
                "round": h.round,
                "seats": list(h.seats),
                "rolls": list(h.rolls),
                "crosswords": list(h.crosswords),
                "points": list(h.points),
            }
            for h in state.history
        ],
        "totals": list(state.totals),
        "in_game": [state.in_game(s) for s in range(state.seats)],
        "winners": state.winners(),
    }


@dataclass(frozen=True, slots=True)
class SeatView:
    """A read seat view (what a robot needs of it)."""

    options: Options
    lexicon: str | tuple[str, ...]
    players: tuple[str, ...]
    seat: int
    status: str
    round: int
    round_seats: tuple[int, ...]
    rolls: tuple[str, ...]
    waiting: tuple[int, ...]
    own: dict[str, Any] | None
    totals: tuple[int, ...]

    @property
    def roll(self) -> str | None:
        """This seat's roll in the open round (``None``: it does not play it)."""
        if self.seat in self.round_seats:
            return self.rolls[self.round_seats.index(self.seat)]
        return None

    @property
    def to_play(self) -> bool:
        """Whether the open round waits for this seat."""
        return self.status == "playing" and self.seat in self.waiting


def _seats(value: object, where: str, seats: int) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(v) is int and 0 <= v < seats for v in value):
        raise BadView(f"{where} must list seat numbers from 0 to {seats - 1}")
    return tuple(value)


def read_view(data: object) -> SeatView:
    """Read a seat's ``tumble-view/1`` document (a spectator's is refused)."""
    if not isinstance(data, dict):
        raise BadView("a seat view is a JSON object")
    if data.get("format") != FORMAT:
        raise BadView(f"not a {FORMAT} seat view (format is {data.get('format')!r})")
    try:
        options = options_from_json(data.get("options"))
    except BadRecord as exc:
        raise BadView(exc.message) from None
    lexicon = data.get("lexicon")
    if isinstance(lexicon, dict) and isinstance(lexicon.get("words"), list):
        lexicon = tuple(w for w in lexicon["words"] if isinstance(w, str))
    elif not isinstance(lexicon, str):
        raise BadView("'lexicon' must name a word list or be {\"words\": [...]}")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        or not all(isinstance(p, str) for p in players)
    ):
        raise BadView(f"'players' must list {MIN_PLAYERS} to {MAX_PLAYERS} names")
    n = len(players)
    seat = data.get("seat")
    if seat is None:
        raise BadView("this view has no seat (a spectator's): there is no roll to play")
    if type(seat) is not int or not 0 <= seat < n:
        raise BadView(f"'seat' must be a seat number from 0 to {n - 1}")
    status = data.get("status")
    if status not in ("playing", "over"):
        raise BadView(f'\'status\' must be "playing" or "over", not {status!r}')
    number = data.get("round")
    if type(number) is not int or number < 1:
        raise BadView("'round' must be a round number from 1")
    round_seats = _seats(data.get("round_seats"), "'round_seats'", n)
    rolls = data.get("rolls")
    if not isinstance(rolls, list) or len(rolls) != len(round_seats):
        raise BadView("'rolls' must hold one roll for each seat of 'round_seats'")
    for roll in rolls:
        problem = roll_problem(roll)
        if problem is not None:
            raise BadView(f"'rolls': {problem}")
    own = data.get("own")
    if own is not None and not (
        isinstance(own, dict)
        and isinstance(own.get("crossword"), str)
        and type(own.get("points")) is int
    ):
        raise BadView('\'own\' must be null or {"crossword": ..., "points": ...}')
    totals = data.get("totals")
    if not isinstance(totals, list) or len(totals) != n or not all(type(t) is int for t in totals):
        raise BadView(f"'totals' must list {n} whole numbers, one a seat")
    return SeatView(
        options=options,
        lexicon=lexicon,
        players=tuple(players),
        seat=seat,
        status=status,
        round=number,
        round_seats=round_seats,
        rolls=tuple(rolls),
        waiting=_seats(data.get("waiting"), "'waiting'", n),
        own=own,
        totals=tuple(totals),
    )
