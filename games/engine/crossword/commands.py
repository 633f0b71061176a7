"""Commands: ``decide(state, seat, move, words, draw) -> events``.

A pure function of its arguments (the draw function is the only source of
chance): it checks the move against the rules and returns the events that
record it, or raises a :class:`Refusal`.  A draw is picked at the moment of
drawing from the whole bag (:func:`draw_random`), and its event records the
tiles drawn, so a log replays without chance and the bag's order, which it
does not keep (:func:`~games.engine.crossword.state.as_bag`), tells nothing.

Checks run in this order: ``game_over`` → ``not_in_game`` → ``not_your_turn``
→ reading the move (``bad_move``, ``bad_square``) → ``end_pending`` (a play or
an exchange while a play that would end the game awaits its answer) → the
move's own checks.  A
play's own checks, in order: ``off_board``; square by square ``not_on_board``
and ``letter_differs``; ``word_extends``; ``no_new_tile``; on the first play
``not_through_centre`` then ``too_few_tiles``, on later ones
``not_connected``; ``wrong_direction``; ``missing_tiles``; ``not_a_word``
(``void`` challenges only).  ``accept`` is ``pass`` while an end is pending,
and refused (``nothing_to_accept``) otherwise.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Protocol

from ..common.counting import counted
from ..common.turns import check_in_game, check_turn
from ..errors import Refusal
from .board import EMPTY, name_of
from .bonus import BONUS_WORDS
from .events import (
    ChallengeFailed,
    Event,
    Exchanged,
    Passed,
    Played,
    PlayWithdrawn,
    Resigned,
    TimedOut,
)
from .layout import BLANK, CENTRE, SIZE
from .notation import (
    OFF_TURN_VERBS,
    Accept,
    Challenge,
    Command,
    Exchange,
    Pass,
    Play,
    Resign,
    Timeout,
    format_word,
    parse_move,
    verb_of,
)
from .scoring import Word, bonus_points, word_through
from .state import GameState

#: The fewest tiles the bag must hold for an exchange.
EXCHANGE_MIN_BAG = 7

#: ``draw(bag, n)`` returns the ``n`` tiles a turn draws from ``bag``.
Drawer = Callable[[str, int], str]


def _pick(rng: random.Random, bag: str, n: int) -> str:
    return "".join(bag[i] for i in rng.sample(range(len(bag)), n))


def drawer(rng: random.Random) -> Drawer:
    """Draws picked by ``rng``: a seeded one for playouts, tests and benchmarks."""
    return lambda bag, n: _pick(rng, bag, n)


_RANDOM = secrets.SystemRandom()


def draw_random(bag: str, n: int) -> str:
    """Draw ``n`` tiles at random from the whole bag, at the moment of drawing,
    with the operating system's generator: no seed exists that could replay or
    predict a draw, and no tile given back sits where anyone knows."""
    return _pick(_RANDOM, bag, n)


def _draw(draw: Drawer, bag: str, n: int) -> str:
    drawn = draw(bag, n)
    if len(drawn) != n:
        raise ValueError(f"the draw returned {len(drawn)} tiles, not {n}")
    return drawn


class Words(Protocol):
    """The word list a game is played with: upper-case words."""

    def __contains__(self, word: str, /) -> bool: ...


def acceptable(word: str, words: Words) -> bool:
    """Listed, or one of the bonus words (always acceptable)."""
    upper = word.upper()
    return upper in BONUS_WORDS or upper in words


def _seat_checks(state: GameState, seat: int, verb: str) -> None:
    check_in_game(state, seat)
    if verb not in OFF_TURN_VERBS:
        check_turn(state, seat, "a challenge or a resignation")


def _verb(command: Command) -> str:
    match command:
        case Challenge():
            return "challenge"
        case Resign():
            return "resign"
    return "play"


def decide(
    state: GameState,
    seat: int,
    move: str | Command,
    words: Words,
    draw: Drawer = draw_random,
) -> list[Event]:
    """The events that record ``seat`` making ``move`` (notation or a parsed
    command), or a :class:`Refusal` saying why the rules do not allow it;
    ``draw`` picks the tiles a play or an exchange draws."""
    if isinstance(move, str):
        _seat_checks(state, seat, verb_of(move))
        command = parse_move(move)
    else:
        command = move
        _seat_checks(state, seat, _verb(command))
    if state.ending and isinstance(command, Play | Exchange):
        _end_pending(state)
    match command:
        case Play():
            return [play(state, seat, command, words, draw)]
        case Pass():
            return [Passed(seat)]
        case Accept():
            if not state.ending:
                raise Refusal(
                    "nothing_to_accept",
                    "No play is waiting to end the game, so there is no end to accept: send "
                    "'pass' to pass your turn.",
                )
            return [Passed(seat)]
        case Timeout():
            return [TimedOut(seat)]
        case Exchange(tiles):
            return [_exchange(state, seat, tiles, draw)]
        case Challenge():
            return [_challenge(state, seat, words)]
        case Resign():
            return [Resigned(seat)]
    raise TypeError(f"not a command: {command!r}")


def _end_pending(state: GameState) -> None:
    made = state.open_play
    assert made is not None and state.turn is not None
    mover = state.players[made.seat]
    did = "reached their target" if state.pending_end == "target" else "went out"
    raise Refusal(
        "end_pending",
        f"{mover} {did}: the game ends with that play unless it is challenged. "
        f"{state.players[state.turn]} may only 'challenge' the play or accept the end "
        "('accept', or 'pass').",
    )


def missing(rack: str, tiles: str) -> str:
    """The tiles of ``tiles`` that ``rack`` does not hold (with repeats)."""
    out = []
    for t in set(tiles):
        short = tiles.count(t) - rack.count(t)
        if short > 0:
            out.append(t * short)
    return "".join(sorted(out))


def take(rack: str, tiles: str) -> str:
    """``rack`` without one front-most copy of each tile of ``tiles``."""
    for t in tiles:
        i = rack.index(t)
        rack = rack[:i] + rack[i + 1 :]
    return rack


def rack_tiles(letters: str) -> str:
    """The rack tiles that lay ``letters`` (a lower-case letter is a blank)."""
    return "".join(c if c.isupper() else BLANK for c in letters)


def _written(command: Play) -> str:
    return f"{command.coordinate} {format_word(command.word, command.marked)}"


def play(
    state: GameState, seat: int, command: Play, words: Words, draw: Drawer = draw_random
) -> Played:
    """Check a play, score it and draw for it (the order of the checks: module
    docstring)."""
    board = state.board
    word = command.word
    n = len(word)
    across = command.across
    step = 1 if across else SIZE
    along = command.col if across else command.row
    if along + n > SIZE:
        raise Refusal(
            "off_board",
            f"{_written(command)} runs off the board: from {command.coordinate} there is room "
            f"for {counted(SIZE - along, 'letter')} {'across' if across else 'down'}.",
        )
    start = command.row * SIZE + command.col
    new: dict[int, str] = {}
    square = start
    for i, c in enumerate(word):
        b = board[square]
        if b == EMPTY:
            if command.marked >> i & 1:
                raise Refusal(
                    "not_on_board",
                    f"In {_written(command)}, {c.upper()} is in parentheses but square "
                    f"{name_of(square)} is empty: parentheses mark letters already on the board.",
                )
            new[square] = c
        elif b != c and b.upper() != c.upper():
            raise Refusal(
                "letter_differs",
                f"In {_written(command)}, square {name_of(square)} holds {b.upper()}, not "
                f"{c.upper()}.",
            )
        square += step
    before = along > 0 and board[start - step] != EMPTY
    if before or (along + n < SIZE and board[square] != EMPTY):
        raise Refusal(
            "word_extends",
            f"{_written(command)} is not the whole word: a tile lies just "
            f"{'before' if before else 'after'} it. "
            "Write the whole word along the line, with the board's letters.",
        )
    if not new:
        raise Refusal("no_new_tile", f"{_written(command)} lays no tile: every square is taken.")
    main = word_through(board, new, start, step)
    crosses: list[Word] = []
    other = SIZE if across else 1
    for q in new:
        crossed = word_through(board, new, q, other)
        if crossed is not None:
            crosses.append(crossed)
    if state.first_play:
        row, col = CENTRE
        if not (
            command.row == row and command.col <= col < command.col + n
            if across
            else command.col == col and command.row <= row < command.row + n
        ):
            raise Refusal("not_through_centre", "The first play must cover the centre square, 8H.")
        if len(new) < 2:
            raise Refusal("too_few_tiles", "The first play must lay two tiles or more.")
    elif len(new) == n and not crosses:
        raise Refusal(
            "not_connected",
            f"{_written(command)} touches no tile on the board: a play must join the words "
            "already there.",
        )
    if len(new) == 1 and crosses and (main is None or len(crosses[0].text) > len(main.text)):
        raise Refusal(
            "wrong_direction",
            f"{_written(command)} lays one tile: write it along its longer word, "
            f"{crosses[0].text.upper()}, {'down' if across else 'across'}.",
        )
    assert main is not None
    needed = rack_tiles("".join(new.values()))
    rack = state.racks[seat]
    short = missing(rack, needed)
    if short:
        raise Refusal(
            "missing_tiles",
            f"{_written(command)} needs {', '.join(short)} from your rack, which holds "
            f"{rack or 'nothing'}.",
        )
    formed = [main, *crosses]
    if state.options.challenge == "void":
        bad = [w.text.upper() for w in formed if not acceptable(w.text, words)]
        if bad:
            listed = ", ".join(bad)
            raise Refusal(
                "not_a_word",
                f"{listed} {'is' if len(bad) == 1 else 'are'} not in the word list: "
                f"{_written(command)} is refused.",
            )
    points = sum(w.score for w in formed) + bonus_points(
        formed, len(new), board, step, state.options
    )
    left = len(rack) - len(needed)
    drawn = _draw(draw, state.bag, min(len(state.bag), max(0, state.options.rack_size - left)))
    return Played(
        seat,
        across,
        tuple(new),
        "".join(new.values()),
        tuple(w.text.upper() for w in formed),
        points,
        drawn,
    )


def _exchange(state: GameState, seat: int, tiles: str, draw: Drawer) -> Exchanged:
    rack = state.racks[seat]
    short = missing(rack, tiles)
    if short:
        raise Refusal(
            "missing_tiles",
            f"You cannot exchange {', '.join(short)}: your rack holds {rack or 'nothing'}.",
        )
    bag = len(state.bag)
    if bag < EXCHANGE_MIN_BAG or bag < len(tiles):
        raise Refusal(
            "bag_too_small",
            f"The bag holds {counted(bag, 'tile')}: an exchange needs at least {EXCHANGE_MIN_BAG}, "
            "and at least as many as are exchanged.",
        )
    return Exchanged(seat, tiles, _draw(draw, state.bag, len(tiles)))


def _challenge(state: GameState, seat: int, words: Words) -> PlayWithdrawn | ChallengeFailed:
    if state.options.challenge == "void":
        raise Refusal(
            "no_challenges",
            "This game has no challenges: a play with a word not in the list is refused "
            "when it is made.",
        )
    made = state.open_play
    if made is None:
        raise Refusal("nothing_to_challenge", "No play is open to a challenge now.")
    if made.seat == seat:
        raise Refusal("own_play", "You cannot challenge your own play.")
    bad = tuple(w for w in made.words if not acceptable(w, words))
    if bad:
        return PlayWithdrawn(seat, made.seat, bad)
    return ChallengeFailed(seat, made.seat)
