"""Hand-built crossword positions for the engine tests."""

from __future__ import annotations

from dataclasses import replace

from games.engine.crossword.board import EMPTY_BOARD, place
from games.engine.crossword.commands import decide
from games.engine.crossword.events import Event, GameStarted
from games.engine.crossword.fold import evolve, start
from games.engine.crossword.layout import SIZE
from games.engine.crossword.notation import Play, parse_move
from games.engine.crossword.options import PRESETS, Options
from games.engine.crossword.state import GameState


def board_with(*words: str) -> str:
    """A board holding each ``"8G CAT"`` as written (lower case: a blank)."""
    board = EMPTY_BOARD
    for text in words:
        play = parse_move(text)
        assert isinstance(play, Play)
        step = 1 if play.across else SIZE
        first = play.row * SIZE + play.col
        board = place(board, [first + i * step for i in range(len(play.word))], play.word)
    return board


def started(
    racks: tuple[str, ...],
    *words: str,
    bag: str = "",
    options: Options = PRESETS["standard"],
    first: int = 0,
) -> GameStarted:
    return GameStarted(
        options=options,
        lexicon="test",
        players=tuple(f"p{i}" for i in range(len(racks))),
        draws=(),
        first=first,
        racks=racks,
        bag=bag,
        board=board_with(*words),
    )


def game(
    racks: tuple[str, ...],
    *words: str,
    bag: str = "",
    options: Options = PRESETS["standard"],
    first: int = 0,
) -> GameState:
    """A position: ``words`` on the board, these racks and bag, ``first`` to play."""
    return start(started(racks, *words, bag=bag, options=options, first=first))


def with_points(state: GameState, *points: int) -> GameState:
    return replace(state, points=points)


def move(state: GameState, seat: int, text: str, words: frozenset[str]) -> GameState:
    """``state`` after ``seat`` plays ``text`` (which must be accepted)."""
    return apply(state, decide(state, seat, text, words))


def apply(state: GameState, events: list[Event]) -> GameState:
    for event in events:
        state = evolve(state, event)
    return state
