"""Moves a page asks about once before sending: passing, exchanging the whole
rack and resigning give a turn (or the game) away for nothing, a challenge
(the crossword game's) costs a turn when every word is valid, and a stray
click or a typed ``pass`` should not do that.

The question is asked by the server (a page of its own, or the live part of
the game page with htmx), so it works without JavaScript; the answer is the
same form sent again with ``confirmed=yes``.  Email replies are not asked: a
reply is written on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from games.core import projection, takeover
from games.kinds import presentation
from games.kinds.base import GameKind, Question, State
from games.models import Game

__all__ = ["FIELD", "YES", "Question", "confirmed", "may_ask", "question_for", "with_takeover"]

#: The form field (and its value) that says the player has answered yes.
FIELD = "confirmed"
YES = "yes"

#: The verbs of the moves asked about (an exchange only when it is of the whole rack).
VERBS = frozenset({"pass", "exchange", "resign", "challenge"})


def may_ask(notation: str) -> bool:
    """Whether ``notation`` may be a move to ask about, read from its first word
    alone (before the game is loaded); :func:`question_for` decides."""
    words = notation.split()
    return bool(words) and words[0].lower() in VERBS


def question_for(kind: GameKind, state: State, seat: int, notation: str) -> Question | None:
    """The question to ask before ``seat`` sends ``notation`` from a page, or
    ``None`` for a move sent at once: the kind's presentation says which."""
    return presentation.of(kind).question_for(state, seat, notation)


def with_takeover(question: Question, game: Game, seat: int) -> Question:
    """``question`` (a resignation's), saying which robot will take the seat
    when the game has one take it (:func:`games.core.takeover.takeover_robot`)."""
    seats = list(game.seats.all())
    holder = next((s.user for s in seats if s.index == seat), None)
    if holder is None or holder.is_robot:
        return question
    robot = takeover.takeover_robot(game, seats)
    if robot is None:
        return question
    note = (
        f"{projection.display_name(robot)} will take your seat and play on with your score. "
        "The game stays in your list, over for you: you can still follow it, but no longer "
        "play in it."
    )
    return replace(question, note=note)


def confirmed(post: Mapping[str, object]) -> bool:
    """Whether a form says the player answered yes."""
    return post.get(FIELD) == YES
