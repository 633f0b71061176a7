"""Counts in words for the rules' messages: ``1 tile``, ``3 tiles`` (the engine
imports no Django, whose ``pluralize`` the pages use)."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, in the singular for one only: ``counted(1, "tile")``
    is ``"1 tile"``, ``counted(0, "tile")`` is ``"0 tiles"``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
