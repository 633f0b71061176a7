"""A Tumble-Words game's options (the seed's rules and its variants)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from ..errors import BadRecord

MIN_PLAYERS: Final = 2
#: The sheet says "any number of persons"; one set of cubes passed to the left
#: is played comfortably by up to six.
MAX_PLAYERS: Final = 6
TARGET: Final = 100


@dataclass(frozen=True, slots=True)
class Options:
    """``target``: the total that wins; ``younger``: the younger child's
    variant (words need not be connected); ``play_out``: with three or more
    players, finish the round once someone reaches the target, so that every
    player has had as many turns."""

    target: int = TARGET
    younger: bool = False
    play_out: bool = False

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def options_from_json(data: object) -> Options:
    """Read an ``options`` object (missing keys take the seed's values)."""
    if not isinstance(data, dict):
        raise BadRecord("'options' must be an object such as {\"target\": 100}")
    known = {"target", "younger", "play_out"}
    for key in data:
        if key not in known:
            raise BadRecord(f"unknown option {key!r} (known options: target, younger, play_out)")
    target = data.get("target", TARGET)
    if type(target) is not int or not 1 <= target <= 1000:
        raise BadRecord(f"option 'target' must be a whole number from 1 to 1000, not {target!r}")
    for key in ("younger", "play_out"):
        if key in data and type(data[key]) is not bool:
            raise BadRecord(f"option {key!r} must be true or false, not {data[key]!r}")
    return Options(target, data.get("younger", False), data.get("play_out", False))
