"""Commands: ``decide(state, seat, move, lexicon, draw) -> events``.

A pure function of its arguments (the draw function is the only source of
chance): it checks the move against the rules and either returns the events
that record it or raises a :class:`Refusal`.  Checks run in the spec's order:
``game_over`` → ``not_in_game`` → ``not_your_turn`` → ``bad_move`` →
``bad_line`` → ``unknown_tile`` → the move's own checks.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from .errors import WORD_CHECK_ORDER, Refusal
from .events import (
    Event,
    Exchanged,
    JumbulayaFailed,
    JumbulayaVerified,
    Passed,
    Resigned,
    TimedOut,
    WordBuilt,
)
from .fold import split_word_tiles
from .jumbulaya import best_call
from .lexicon import Lexicon
from .notation import (
    OFF_TURN_VERBS,
    CallJumbulaya,
    Command,
    Exchange,
    Pass,
    PlayWord,
    Resign,
    Timeout,
    explicit_word,
    parse_move,
    verb_of,
)
from .state import GameState
from .tiles import JUMBULAYA_MAX, JUMBULAYA_MIN, MAX_LINE_TILES, RACK_SIZE, Tiles, letters

#: ``draw(bag, n)`` returns the ``n`` tiles a turn draws from ``bag``.
Drawer = Callable[[Tiles, int], Tiles]


def draw_front(bag: Tiles, n: int) -> Tiles:
    """Draw from the front of the bag (how a record's turns draw)."""
    return bag[:n]


_RANDOM = secrets.SystemRandom()


def draw_random(bag: Tiles, n: int) -> Tiles:
    """Draw ``n`` tiles at random, at the moment of drawing, from the operating
    system's generator: no seed exists that could replay or predict a draw."""
    return tuple(bag[i] for i in _RANDOM.sample(range(len(bag)), n))


def _is_off_turn(command: Command) -> bool:
    return isinstance(command, CallJumbulaya | Resign)


def _seat_checks(state: GameState, seat: int, off_turn_allowed: bool) -> None:
    if state.over:
        raise Refusal("game_over", "The game is over: no more moves can be made.")
    if not 0 <= seat < state.seats or seat in state.resigned:
        raise Refusal("not_in_game", "You are no longer in this game, so you cannot move.")
    if not off_turn_allowed and state.turn != seat:
        assert state.turn is not None
        raise Refusal(
            "not_your_turn",
            f"It is {state.players[state.turn]}'s turn, not yours. Only a JUMBULAYA call "
            "or a resignation can be made out of turn.",
        )


def decide(
    state: GameState,
    seat: int,
    move: str | Command,
    lexicon: Lexicon,
    draw: Drawer = draw_random,
) -> list[Event]:
    """The events that record ``seat`` making ``move`` (notation or a parsed
    command), or a :class:`Refusal` saying why the rules do not allow it."""
    if isinstance(move, str):
        _seat_checks(state, seat, verb_of(move) in OFF_TURN_VERBS)
        command = parse_move(move)
    else:
        command = move
        _seat_checks(state, seat, _is_off_turn(command))
    match command:
        case PlayWord():
            return [_word(state, seat, command, lexicon, draw)]
        case Pass():
            return [Passed(seat)]
        case Timeout():
            return [TimedOut(seat)]
        case Exchange(tiles):
            return [_exchange(state, seat, tiles, draw)]
        case CallJumbulaya():
            return [_jumbulaya(state, seat, command, lexicon)]
        case Resign():
            return [Resigned(seat)]
    raise TypeError(f"not a command: {command!r}")


def _draw(draw: Drawer, bag: Tiles, n: int) -> Tiles:
    drawn = tuple(draw(bag, n))
    if len(drawn) != n:
        raise ValueError(f"the draw returned {len(drawn)} tiles, not {n}")
    return drawn


# --- word moves -------------------------------------------------------------


def _stage(refusal: Refusal) -> int:
    return WORD_CHECK_ORDER.index(refusal.code)


def _tile_list(tiles: Sequence[str]) -> str:
    return ", ".join(tiles)


def rack_needs(line: Tiles, rack: Tiles, tiles: Tiles) -> tuple[int, list[str]]:
    """How many rack tiles building ``tiles`` on ``line`` takes (line tiles are
    used first), and the tiles that are neither on the line nor in the rack."""
    have: dict[str, int] = {}
    for t in line:
        have[t] = have.get(t, 0) + 1
    in_rack: dict[str, int] = {}
    for t in rack:
        in_rack[t] = in_rack.get(t, 0) + 1
    need: dict[str, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    from_rack = 0
    missing: list[str] = []
    for t, k in need.items():
        extra = k - have.get(t, 0)
        if extra > 0:
            from_rack += extra
            short = extra - in_rack.get(t, 0)
            if short > 0:
                missing.extend([t] * short)
    return from_rack, missing


def check_spelling(
    state: GameState, seat: int, index: int, tiles: Tiles, lexicon: Lexicon, shown: str
) -> Refusal | None:
    """The first rule that building ``tiles`` on line ``index`` breaks, if any."""
    line = state.lines[index]
    n = index + 1
    from_rack, missing = rack_needs(line.tiles, state.racks[seat], tiles)
    if missing:
        return Refusal(
            "missing_tiles",
            f"{shown} needs {_tile_list(missing)}, which {'is' if len(missing) == 1 else 'are'}"
            f" neither on line {n} nor in your rack.",
        )
    limit = state.rules.rack_limit
    if from_rack > limit:
        return Refusal(
            "too_many_rack_tiles",
            f"{shown} uses {from_rack} tiles from your rack; at most {limit} may enter the line.",
        )
    if len(tiles) < len(line.tiles):
        return Refusal(
            "line_shrinks",
            f"{shown} has {len(tiles)} tiles but line {n} holds {len(line.tiles)}: "
            "a line never gets shorter.",
        )
    if len(tiles) > MAX_LINE_TILES:
        return Refusal(
            "too_long",
            f"{shown} has {len(tiles)} tiles; a line holds at most {MAX_LINE_TILES}.",
        )
    if not lexicon.contains(tiles):
        return Refusal("not_a_word", f"{letters(tiles)} is not in the word list ({lexicon.name}).")
    word = letters(tiles)
    if state.rules.new_word == "history":
        if word in line.history:
            return Refusal(
                "not_new",
                f"Line {n} has already held {word}: each word must be one the line has never held.",
            )
    elif word == line.word:
        return Refusal(
            "not_new",
            f"{word} is already the word on line {n}: build a different word "
            "(changing only which tiles spell it does not count).",
        )
    return None


def choose_spelling(state: GameState, seat: int, command: PlayWord, lexicon: Lexicon) -> Tiles:
    """The one spelling that makes a word move legal, or the refusal.

    An explicit word has one spelling.  A plain word is accepted when exactly one
    of its spellings is legal; several legal ones are ``ambiguous``; with none,
    the refusal is that of the spelling that got furthest through the checks.
    """
    candidates = command.word.candidates()
    legal: list[Tiles] = []
    furthest: tuple[int, int, Refusal] | None = None  # (stage, -tiles missing, refusal)
    for tiles in candidates:
        shown = explicit_word(tiles) if len(candidates) > 1 else command.word.text
        failure = check_spelling(state, seat, command.line, tiles, lexicon, shown)
        if failure is None:
            legal.append(tiles)
            continue
        # Among spellings stopped by the same check, the one lacking fewest tiles
        # says best what the player is missing.
        rank = (
            _stage(failure),
            -len(rack_needs(state.lines[command.line].tiles, state.racks[seat], tiles)[1]),
        )
        if furthest is None or rank > furthest[:2]:
            furthest = (*rank, failure)
    if len(legal) == 1:
        return legal[0]
    n = command.line + 1
    if legal:
        forms = tuple(f"{n} {explicit_word(t)}" for t in legal)
        raise Refusal(
            "ambiguous",
            f"{n} {command.word.text} can be built with different tiles: write "
            + " or ".join(forms)
            + " to say which.",
            accepted=forms,
        )
    assert furthest is not None, "a parsed word has at least one spelling"
    raise furthest[2]


def rack_after(rack: Tiles, line: Tiles, tiles: Tiles) -> int:
    """How many tiles the mover holds after building ``tiles`` on ``line``, before
    drawing."""
    from_rack, traded = split_word_tiles(line, tiles)
    return len(rack) - len(from_rack) + len(traded)


def _word(
    state: GameState, seat: int, command: PlayWord, lexicon: Lexicon, draw: Drawer
) -> WordBuilt:
    tiles = choose_spelling(state, seat, command, lexicon)
    held = rack_after(state.racks[seat], state.lines[command.line].tiles, tiles)
    n = min(max(0, RACK_SIZE - held), len(state.bag))
    return WordBuilt(seat, command.line, tiles, _draw(draw, state.bag, n))


# --- exchanges and calls ----------------------------------------------------


def _exchange(state: GameState, seat: int, tiles: Tiles | None, draw: Drawer) -> Exchanged:
    rack = state.racks[seat]
    chosen = rack if tiles is None else tiles
    left = list(rack)
    missing = []
    for t in chosen:
        if t in left:
            left.remove(t)
        else:
            missing.append(t)
    if missing:
        raise Refusal(
            "missing_tiles",
            f"You cannot exchange {_tile_list(missing)}: your rack holds "
            f"{_tile_list(rack) or 'nothing'}.",
        )
    if len(state.bag) < len(chosen):
        raise Refusal(
            "bag_too_small",
            f"Only {len(state.bag)} tiles are left in the bag, so you cannot exchange "
            f"{len(chosen)}.",
        )
    return Exchanged(seat, tuple(chosen), _draw(draw, state.bag, len(chosen)))


def _jumbulaya(
    state: GameState, seat: int, command: CallJumbulaya, lexicon: Lexicon
) -> JumbulayaVerified | JumbulayaFailed:
    if not state.jumbulaya_open():
        raise Refusal(
            "jumbulaya_closed",
            "A JUMBULAYA can be called only once all nine lines are claimed and one of them "
            "holds 7 or more tiles.",
        )
    if seat in state.barred:
        raise Refusal(
            "jumbulaya_barred",
            "After a call that failed you may not call JUMBULAYA again until another player "
            "has completed a turn.",
        )
    board = [ln.tiles for ln in state.lines]
    word = command.word
    found = best_call(board, word.candidates(), lexicon, state.rules)
    if found is not None:
        return JumbulayaVerified(seat, found.tiles, found.lines, found.points)
    return JumbulayaFailed(seat, word.text, _failure_reason(board, word.candidates(), lexicon))


def _failure_reason(board: Sequence[Tiles], candidates: Sequence[Tiles], lexicon: Lexicon) -> str:
    sized = [t for t in candidates if JUMBULAYA_MIN <= len(t) <= JUMBULAYA_MAX]
    if not sized:
        return "a JUMBULAYA is 7, 8 or 9 tiles long"
    if not any(lexicon.contains(t) for t in sized):
        return f"{letters(sized[0])} is not in the word list ({lexicon.name})"
    return "it cannot be spelled down the board, one tile per line from the top"
