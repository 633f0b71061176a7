"""Reading a ``crossword-view/1`` seat view (docs/crossword-view.md) into
what the robots decide from: :func:`read_view` checks the document and says
what is wrong with it in a ``ValueError``; :meth:`CrosswordView.position` is
the robots' plain :class:`~games.engine.crossword.robots.Position`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.engine.crossword import robots, view
from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.layout import SIZE
from games.engine.crossword.movegen import SHARING_BINGO, STANDARD_BINGO
from games.engine.crossword.options import RACK_SIZES

_ROW = re.compile(r"[.A-Za-z]{15}")
_RACK = re.compile(r"[A-Z?]*")


@dataclass(frozen=True, slots=True)
class CrosswordView:
    """A checked ``crossword-view/1`` document: what the robots read of it."""

    lexicon: str | tuple[str, ...]
    seat: int | None
    over: bool
    next: int | None
    board: tuple[str, ...]
    rack: str | None
    bag: int
    unseen: str
    scores: tuple[int, ...]
    rack_size: int
    may_challenge: bool
    open_words: tuple[str, ...]
    #: The open play would end the game once accepted, and this seat answers it.
    may_accept: bool = False

    def position(self) -> robots.Position:
        """The robots' plain position of the seat whose view this is."""
        if self.seat is None or self.rack is None:
            raise ValueError("a spectator's view has no rack to play")
        return robots.Position(
            self.board,
            self.rack,
            self.bag,
            self.unseen,
            self.scores,
            self.seat,
            self.rack_size,
            SHARING_BINGO if self.rack_size > 7 else STANDARD_BINGO,
            tuple(sorted(BONUS_WORDS.items())),
        )


def _get(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise ValueError(f"the view has no {key!r}")
    return data[key]


def _int(value: object, what: str, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise ValueError(f"{what} must be a whole number of at least {low}, not {value!r}")
    return value


def read_view(data: object) -> CrosswordView:
    """A ``crossword-view/1`` document, checked; a ``ValueError`` names what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a seat view is a JSON object")
    if data.get("format") != view.FORMAT:
        raise ValueError(f"'format' must be {view.FORMAT!r}, not {data.get('format')!r}")
    players = _get(data, "players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        raise ValueError("'players' must list 2 to 4 names")
    seat = _get(data, "seat")
    if seat is not None and (type(seat) is not int or not 0 <= seat < len(players)):
        raise ValueError(f"'seat' must be a seat from 0 to {len(players) - 1} or null")
    lexicon = _get(data, "lexicon")
    if isinstance(lexicon, dict) and isinstance(lexicon.get("words"), list):
        words = tuple(lexicon["words"])
        if not all(isinstance(w, str) for w in words):
            raise ValueError("'lexicon.words' must be a list of words")
        lexicon = words
    elif not isinstance(lexicon, str) or not lexicon:
        raise ValueError("'lexicon' must be a word list's name or {\"words\": [...]}")
    status = _get(data, "status")
    if status not in ("playing", "over"):
        raise ValueError(f'\'status\' must be "playing" or "over", not {status!r}')
    nxt = _get(data, "next")
    if nxt is not None and (type(nxt) is not int or not 0 <= nxt < len(players)):
        raise ValueError(f"'next' must be a seat from 0 to {len(players) - 1} or null")
    board = _get(data, "board")
    if not isinstance(board, list) or len(board) != SIZE:
        raise ValueError(f"'board' must list the {SIZE} rows, row 1 first")
    for i, row in enumerate(board, 1):
        if not isinstance(row, str) or not _ROW.fullmatch(row):
            raise ValueError(
                f"board row {i} must be {SIZE} characters: '.' empty, a letter a tile "
                "(lower case: a blank)"
            )
    rack = _get(data, "rack")
    if rack is not None and (not isinstance(rack, str) or not _RACK.fullmatch(rack)):
        raise ValueError("'rack' must be a string of tiles: A-Z, ? for a blank")
    unseen = _get(data, "unseen")
    if not isinstance(unseen, str) or not _RACK.fullmatch(unseen):
        raise ValueError("'unseen' must be a string of tiles: A-Z, ? for a blank")
    bag = _int(_get(data, "bag"), "'bag'")
    if bag > len(unseen):
        raise ValueError("'bag' holds more tiles than are unseen")
    scores = _get(data, "scores")
    if not isinstance(scores, list) or len(scores) != len(players):
        raise ValueError("'scores' must hold one score per player")
    if not all(type(s) is int for s in scores):
        raise ValueError("every score must be a whole number")
    options = _get(data, "options")
    rack_size = options.get("rack_size", 7) if isinstance(options, dict) else None
    if rack_size not in RACK_SIZES:
        raise ValueError("'options.rack_size' must be 7 or 9")
    if rack is not None and len(rack) > rack_size:
        raise ValueError(f"'rack' holds more than {rack_size} tiles")
    made = data.get("open_play")
    open_words: tuple[str, ...] = ()
    if made is not None:
        if not isinstance(made, dict) or not isinstance(made.get("words"), list):
            raise ValueError("'open_play' must be null or hold the play's 'words'")
        open_words = tuple(str(w) for w in made["words"])
    return CrosswordView(
        lexicon=lexicon,
        seat=seat,
        over=status == "over",
        next=nxt,
        board=tuple(board),
        rack=rack,
        bag=bag,
        unseen=unseen,
        scores=tuple(scores),
        rack_size=rack_size,
        may_challenge=data.get("may_challenge") is True,
        open_words=open_words,
        may_accept=data.get("may_accept") is True,
    )
