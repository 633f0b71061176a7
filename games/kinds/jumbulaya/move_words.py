"""A JUMBULAYA move in words, from its notation, for sentences that say what
was or could have been played (the game-over email's missed chances):
``9 [ST]AKED`` is "STAKED on line 9", never the notation itself."""

from __future__ import annotations

from games.engine.jumbulaya import Refusal, parse_move
from games.engine.jumbulaya.notation import CallJumbulaya, Exchange, Pass, PlayWord, Resign


def _word(letters: str) -> str:
    """The word as people read it, without the notation's brackets and hyphens."""
    return "".join(ch for ch in letters if ch.isalpha()).upper()


def move_in_words(notation: str) -> str:
    """``notation`` said as a sentence says a move: "STAKED on line 9", "a
    pass", "an exchange of 2 tiles", "a JUMBULAYA call of SPRINTS"; a move that
    cannot be read is left as it is."""
    try:
        command = parse_move(notation)
    except Refusal:
        return notation
    match command:
        case PlayWord(line=line, word=word):
            return f"{_word(word.letters)} on line {line + 1}"
        case Pass():
            return "a pass"
        case Exchange(tiles=tiles):
            if tiles is None:
                return "an exchange of the whole rack"
            return f"an exchange of {len(tiles)} tile{'' if len(tiles) == 1 else 's'}"
        case CallJumbulaya(word=word):
            return f"a JUMBULAYA call of {_word(word.letters)}"
        case Resign():
            return "a resignation"
    return notation
