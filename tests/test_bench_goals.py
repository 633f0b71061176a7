"""The full bench's goal table says ``all_met`` of every goal in it, not of
the last section merged in."""

from __future__ import annotations

from bench.__main__ import merged_goals


def test_one_unmet_goal_in_any_section_makes_the_whole_unmet() -> None:
    engine = {"a": {"goal": "fast", "met": False}, "all_met": False}
    kind = {"b": {"goal": "faster", "met": True}, "all_met": True}
    merged = merged_goals(engine, kind)
    assert merged["all_met"] is False
    assert merged["a"] == engine["a"] and merged["b"] == kind["b"]
    assert merged_goals(kind)["all_met"] is True
    assert merged_goals({"all_met": None})["all_met"] is None
