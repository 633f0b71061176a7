"""A Blockers game's options: the colour each seat plays.

The seed's rules are for 3 to 5 players, one colour each (the published
two-player game, each player playing two colours, is not in the seed and is
not offered).  ``colours`` empty means the default colours in seat order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import BadRecord

#: The five colours of the box, in the order seats take them by default.
COLOURS: tuple[str, ...] = ("yellow", "blue", "green", "red", "purple")
MIN_PLAYERS = 3
MAX_PLAYERS = 5


@dataclass(frozen=True, slots=True)
class Options:
    colours: tuple[str, ...] = ()

    def colours_for(self, seats: int) -> tuple[str, ...]:
        """Each seat's colour in a game of ``seats`` players."""
        return self.colours or COLOURS[:seats]

    def to_json(self) -> dict[str, Any]:
        return {"colours": list(self.colours)}


def check_colours(colours: tuple[str, ...], seats: int) -> None:
    """``BadRecord`` unless ``colours`` is empty or one distinct box colour per seat."""
    if not colours:
        return
    if len(colours) != seats:
        raise BadRecord(f"'colours' names {len(colours)} colours for {seats} players")
    for c in colours:
        if c not in COLOURS:
            raise BadRecord(f"{c!r} is not a colour of the box ({', '.join(COLOURS)})")
    if len(set(colours)) != len(colours):
        raise BadRecord("each player plays a different colour")


def options_from_json(data: object) -> Options:
    """Read what :meth:`Options.to_json` wrote (``BadRecord`` if malformed)."""
    if not isinstance(data, dict):
        raise BadRecord("'options' must be an object such as {\"colours\": []}")
    unknown = set(data) - {"colours"}
    if unknown:
        raise BadRecord(f"unknown option {sorted(unknown)[0]!r}: the only option is 'colours'")
    colours = data.get("colours", [])
    if not isinstance(colours, list) or not all(isinstance(c, str) for c in colours):
        raise BadRecord("'colours' must be a list of colour names")
    if colours and not MIN_PLAYERS <= len(colours) <= MAX_PLAYERS:
        raise BadRecord(f"'colours' names {len(colours)} colours; a game has 3 to 5 players")
    check_colours(tuple(colours), len(colours))
    return Options(tuple(colours))
