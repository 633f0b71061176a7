"""Rule presets and their options (record spec, "Presets and options")."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from ..errors import BadRecord

NewWordRule = Literal["current", "history"]


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's rules.  ``preset`` names where the defaults came from."""

    preset: str = "official"
    rack_limit: int = 2
    new_word: NewWordRule = "current"
    stall_rounds: int = 0
    jumbulaya_bonus: bool = True
    jumbulaya_cooldown: bool = True

    def options(self) -> dict[str, Any]:
        """The option values, without the preset name."""
        out = asdict(self)
        del out["preset"]
        return out

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = PRESETS[self.preset].options()
        return {k: v for k, v in self.options().items() if base[k] != v}

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, **self.overrides()}


PRESETS: dict[str, Rules] = {
    # seed 000: the official 2009 rule sheet
    "official": Rules(),
    # seed 001: Boardspace's rules page
    "boardspace": Rules(
        preset="boardspace",
        new_word="history",
        stall_rounds=2,
        jumbulaya_bonus=False,
        jumbulaya_cooldown=False,
    ),
}

_OPTION_TYPES: dict[str, type] = {f.name: f.type for f in fields(Rules)}  # type: ignore[misc]


def _check_option(name: str, value: object) -> None:
    if name in ("rack_limit", "stall_rounds"):
        if type(value) is not int or value < 0:
            raise BadRecord(f"rules option {name!r} must be a whole number ≥ 0, not {value!r}")
    elif name == "new_word":
        if value not in ("current", "history"):
            raise BadRecord(
                f'rules option \'new_word\' must be "current" or "history", not {value!r}'
            )
    elif name in ("jumbulaya_bonus", "jumbulaya_cooldown"):
        if type(value) is not bool:
            raise BadRecord(f"rules option {name!r} must be true or false, not {value!r}")
    else:
        known = ", ".join(n for n in _OPTION_TYPES if n != "preset")
        raise BadRecord(f"unknown rules option {name!r} (known options: {known})")


def rules_from_json(data: object) -> Rules:
    """Read a record's ``rules`` object: a preset name plus any overrides.

    >>> rules_from_json({"preset": "boardspace", "stall_rounds": 3}).stall_rounds
    3
    """
    if not isinstance(data, dict):
        raise BadRecord('\'rules\' must be an object such as {"preset": "official"}')
    preset = data.get("preset", "official")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise BadRecord(f"unknown rules preset {preset!r} (known: {', '.join(PRESETS)})")
    options = {k: v for k, v in data.items() if k != "preset"}
    for name, value in options.items():
        _check_option(name, value)
    return replace(PRESETS[preset], **options)
