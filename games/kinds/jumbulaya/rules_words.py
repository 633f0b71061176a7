"""JUMBULAYA's rules in words, one sentence per rule, for the pages and the
invitation email (through the kind's presentation)."""

from __future__ import annotations

from games.engine.jumbulaya import Rules

from .kind import JUMBULAYA


def preset_label(name: str) -> str:
    return JUMBULAYA.preset_labels.get(name, name.title())


def rules_in_words(rules: Rules) -> list[str]:
    """One sentence per rule, for the pages and the invitation email."""
    tiles = "tile" if rules.rack_limit == 1 else "tiles"
    lines = [
        f"Rules: {preset_label(rules.preset)}" + (" with changes." if rules.overrides() else "."),
        f"A move uses at most {rules.rack_limit} {tiles} from your rack.",
        "A new word must differ from "
        + (
            "every word the line has held."
            if rules.new_word == "history"
            else "the line's current word."
        ),
    ]
    if rules.stall_rounds:
        rounds = "round" if rules.stall_rounds == 1 else "rounds"
        lines.append(f"The game ends after {rules.stall_rounds} {rounds} without a word.")
    else:
        lines.append("The game never ends for lack of new words.")
    lines.append(
        "A JUMBULAYA scores a bonus point per two-letter tile in it."
        if rules.jumbulaya_bonus
        else "A JUMBULAYA scores no bonus for two-letter tiles."
    )
    lines.append(
        "After a failed JUMBULAYA call, a player waits for another player's turn "
        "before calling again."
        if rules.jumbulaya_cooldown
        else "A player may call JUMBULAYA again straight after a failed call."
    )
    return lines
