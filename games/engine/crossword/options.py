"""A game's options and the presets they start from.

``standard`` is the rule sheet's game; ``sharing`` is its "Sharing the Word"
variant (racks of 9, the 50 points for 7, 8 or 9 tiles) and ``translating``
its "Translating the Word" variant (the game ends when a player reaches their
level's target).  Options are stored as ``{"preset": ..., <overrides>}``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Final, Literal

from ..errors import BadRecord
from .layout import RACK_SIZE

ChallengeMode = Literal["void", "async"]
Level = Literal["psalms_proverbs", "new_testament", "old_testament"]

#: The rack sizes the sheet knows: the standard 7 and Sharing the Word's 9.
RACK_SIZES: Final = (RACK_SIZE, 9)
CHALLENGE_MODES: Final[tuple[ChallengeMode, ...]] = ("void", "async")
#: Translating the Word's target by level and player count (2, 3, 4).
TARGETS: Final[dict[Level, dict[int, int]]] = {
    "psalms_proverbs": {2: 70, 3: 60, 4: 50},
    "new_testament": {2: 120, 3: 100, 4: 90},
    "old_testament": {2: 200, 3: 180, 4: 160},
}
LEVEL_NAMES: Final[dict[Level, str]] = {
    "psalms_proverbs": "Psalms & Proverbs",
    "new_testament": "New Testament",
    "old_testament": "Old Testament",
}


@dataclass(frozen=True, slots=True)
class Options:
    """One game's options.

    ``levels`` is empty for a game without a target; one level puts every
    player at it; one level per seat gives each player their own (Translating
    the Word).  The 50-point bonus is paid for 7 tiles or more in one move:
    with racks of 7 that is exactly 7, with racks of 9 it is 7, 8 or 9.
    """

    preset: str = "standard"
    rack_size: int = RACK_SIZE
    challenge: ChallengeMode = "void"
    levels: tuple[Level, ...] = ()
    noahs_ark: bool = False
    david_goliath: bool = False

    def values(self) -> dict[str, Any]:
        """The option values, without the preset's name."""
        out = asdict(self)
        del out["preset"]
        out["levels"] = list(self.levels)
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this game's preset."""
        base = PRESETS[self.preset].values()
        return {k: v for k, v in self.values().items() if base[k] != v}

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.overrides()}

    def targets(self, seats: int) -> tuple[int, ...] | None:
        """Each seat's target score (Translating the Word), or ``None``."""
        if not self.levels:
            return None
        levels = self.levels * seats if len(self.levels) == 1 else self.levels
        return tuple(TARGETS[level][seats] for level in levels)

    def check_seats(self, seats: int) -> None:
        """Refuse per-seat levels that do not match the number of players."""
        if len(self.levels) > 1 and len(self.levels) != seats:
            raise BadRecord(
                f"'levels' names {len(self.levels)} levels for {seats} players: give one "
                "level for everybody or one per seat"
            )


PRESETS: Final[dict[str, Options]] = {
    "standard": Options(),
    "sharing": Options(preset="sharing", rack_size=9),
    "translating": Options(preset="translating", levels=("new_testament",)),
}
PRESET_LABELS: Final[dict[str, str]] = {
    "standard": "The standard game",
    "sharing": "Sharing the Word (racks of 9)",
    "translating": "Translating the Word (first to a target score)",
}


def _check(name: str, value: object) -> None:
    if name == "rack_size":
        if type(value) is not int or value not in RACK_SIZES:
            raise BadRecord(f"option 'rack_size' must be 7 or 9, not {value!r}")
    elif name == "challenge":
        if value not in CHALLENGE_MODES:
            raise BadRecord(f'option \'challenge\' must be "void" or "async", not {value!r}')
    elif name == "levels":
        if not isinstance(value, list) or len(value) > 4:
            raise BadRecord("option 'levels' must be a list of at most 4 levels")
        for level in value:
            if level not in TARGETS:
                raise BadRecord(
                    f"unknown level {level!r} in 'levels' (known: {', '.join(TARGETS)})"
                )
    elif name in ("noahs_ark", "david_goliath"):
        if type(value) is not bool:
            raise BadRecord(f"option {name!r} must be true or false, not {value!r}")
    else:
        known = ", ".join(k for k in Options.__dataclass_fields__ if k != "preset")
        raise BadRecord(f"unknown option {name!r} (known options: {known})")


def options_from_json(data: object) -> Options:
    """Read ``{"preset": ..., <overrides>}``; :class:`BadRecord` names what is wrong.

    >>> options_from_json({"preset": "sharing", "challenge": "async"}).rack_size
    9
    """
    if not isinstance(data, dict):
        raise BadRecord('options must be an object such as {"preset": "standard"}')
    preset = data.get("preset", "standard")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise BadRecord(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    changed = {k: v for k, v in data.items() if k != "preset"}
    for name, value in changed.items():
        _check(name, value)
    if "levels" in changed:
        changed["levels"] = tuple(changed["levels"])
    return replace(PRESETS[preset], **changed)
