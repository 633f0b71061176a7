"""Events as JSON: the part of every engine's ``events.py`` that is the same.

An engine's events are frozen dataclasses with a ``type`` (the name in the
log), a ``version`` and ``PRIVATE`` (the fields only the event's seat may see;
the kinds hide them from the others).  Tuples are written as JSON lists and
read back as tuples, nested ones too; a field holding a settings object (the
rules, the options) is written with its ``to_json`` and read back by the
reader the engine names for that field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Protocol, runtime_checkable

from ..errors import BadRecord


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every engine's events."""

    type: ClassVar[str]
    version: ClassVar[int] = 1
    PRIVATE: ClassVar[tuple[str, ...]] = ()


@runtime_checkable
class JsonDocument(Protocol):
    """A value written to JSON by its own method (an engine's rules or options)."""

    def to_json(self) -> dict[str, Any]: ...


def plain(value: Any) -> Any:
    """``value`` as JSON: documents by their ``to_json``, tuples as lists."""
    if isinstance(value, JsonDocument):
        return value.to_json()
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def tupled(value: Any) -> Any:
    """``value`` read back from JSON: lists as tuples, nested ones too."""
    if isinstance(value, list):
        return tuple(tupled(v) for v in value)
    return value


def to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": ..., "v": ..., <fields>}``."""
    out: dict[str, Any] = {"type": event.type, "v": event.version}
    for f in fields(event):
        out[f.name] = plain(getattr(event, f.name))
    return out


#: A field's reader: its JSON value to the field's value (``BadRecord`` if malformed).
FieldReader = Callable[[Any], Any]


def event_of[E: Event](
    cls: type[E], data: Mapping[str, Any], readers: Mapping[str, FieldReader]
) -> E:
    """The ``cls`` event ``data`` holds: each field read by its reader in
    ``readers``, or else as :func:`tupled`; :class:`BadRecord` for a missing field."""
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise BadRecord(f"a {cls.type} event has no {f.name!r}")
        value = data[f.name]
        read = readers.get(f.name)
        kwargs[f.name] = tupled(value) if read is None else read(value)
    return cls(**kwargs)
