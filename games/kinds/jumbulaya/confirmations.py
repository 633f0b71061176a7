"""JUMBULAYA's questions before a move that gives something away: a pass, an
exchange of the whole rack, a resignation (:mod:`games.web.confirmations` asks
them through the kind's presentation)."""

from __future__ import annotations

from games.engine.jumbulaya import Refusal, parse_move
from games.engine.jumbulaya.notation import Exchange, Pass, Resign
from games.engine.tiles import Tiles
from games.kinds.base import Question


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
