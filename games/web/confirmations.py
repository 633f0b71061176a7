"""Moves a page asks about once before sending: passing, exchanging the whole
rack and resigning give a turn (or the game) away for nothing, and a stray click
or a typed ``pass`` should not do that.

The question is asked by the server (a page of its own, or the live part of
the game page with htmx), so it works without JavaScript; the answer is the
same form sent again with ``confirmed=yes``.  Email replies are not asked: a
reply is written on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.engine import Refusal, parse_move
from games.engine.notation import Exchange, Pass, Resign, verb_of
from games.engine.tiles import Tiles

#: The form field (and its value) that says the player has answered yes.
FIELD = "confirmed"
YES = "yes"


@dataclass(frozen=True)
class Question:
    """What a page asks before a move that gives something away."""

    notation: str  # the move, sent again when the player says yes
    question: str  # "Pass your turn?"
    yes: str  # the button that sends it
    no: str  # the way back
    danger: bool = False  # the move cannot be taken back at all (resigning)


#: The verbs of the moves asked about (an exchange only when it is of the whole rack).
VERBS = frozenset({"pass", "exchange", "resign"})


def may_ask(notation: str) -> bool:
    """Whether ``notation`` may be a move to ask about (read from its verb alone)."""
    return verb_of(notation) in VERBS


def question_for(notation: str, rack: Tiles | None) -> Question | None:
    """The question to ask before sending ``notation`` from a page, or ``None``
    for a move sent at once (a move the notation cannot read is left for the
    engine to refuse, with its own message)."""
    try:
        command = parse_move(notation)
    except Refusal:
        return None
    match command:
        case Pass():
            return Question(notation, "Pass your turn?", "Yes, pass", "No, keep my turn")
        case Exchange(tiles) if tiles is None or (rack and sorted(tiles) == sorted(rack)):
            n = len(rack) if rack else 0
            whole = f"all {n} tiles of your rack" if n > 1 else "your whole rack"
            return Question(
                notation, f"Exchange {whole}?", "Yes, exchange them", "No, keep my tiles"
            )
        case Resign():
            return Question(
                notation,
                "Resign from this game?",
                "Yes, resign",
                "No, stay in the game",
                danger=True,
            )
    return None


def confirmed(post: Mapping[str, object]) -> bool:
    """Whether a form says the player answered yes."""
    return post.get(FIELD) == YES
