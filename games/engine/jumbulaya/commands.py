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

from ..common.counting import counted
from ..common.turns import check_in_game, check_turn
from ..errors import WORD_CHECK_ORDER, Refusal, RefusalCode
from ..lexicon import Lexicon
from ..tiles import JUMBULAYA_MAX, JUMBULAYA_MIN, MAX_LINE_TILES, RACK_SIZE, Tiles, letters
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
from .runs import best_call
from .state import GameState

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
    check_in_game(state, seat)
    if not off_turn_allowed:
        check_turn(state, seat, "a JUMBULAYA call or a resignation")


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


def _tile_list(tiles: Sequence[str]) -> str:
    return ", ".join(tiles)


def _counts(tiles: Tiles) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in tiles:
        out[t] = out.get(t, 0) + 1
    return out


def _needs(on_line: dict[str, int], in_rack: dict[str, int], tiles: Tiles) -> tuple[int, list[str]]:
    """How many rack tiles building ``tiles`` takes (line tiles are used first),
    and the tiles that are neither on the line nor in the rack."""
    used: dict[str, int] = {}
    from_rack = 0
    missing: list[str] = []
    for t in tiles:
        u = used[t] = used.get(t, 0) + 1
        extra = u - on_line.get(t, 0)
        if extra > 0:
            from_rack += 1
            if extra > in_rack.get(t, 0):
                missing.append(t)
    return from_rack, missing


def _first_failure(
    state: GameState, index: int, tiles: Tiles, from_rack: int, missing: list[str], lexicon: Lexicon
) -> RefusalCode | None:
    """The first word-move check (in the spec's order) that ``tiles`` fails."""
    line = state.lines[index]
    if missing:
        return "missing_tiles"
    if from_rack > state.rules.rack_limit:
        return "too_many_rack_tiles"
    if len(tiles) < len(line.tiles):
        return "line_shrinks"
    if len(tiles) > MAX_LINE_TILES:
        return "too_long"
    if not lexicon.contains(tiles):
        return "not_a_word"
    word = letters(tiles)
    if word in line.history if state.rules.new_word == "history" else word == line.word:
        return "not_new"
    return None


def _refusal(
    code: RefusalCode,
    state: GameState,
    index: int,
    tiles: Tiles,
    shown: str,
    from_rack: int,
    missing: list[str],
    lexicon: Lexicon,
) -> Refusal:
    """The player-facing refusal for a failed word-move check."""
    n = index + 1
    held = len(state.lines[index].tiles)
    word = letters(tiles)
    messages: dict[str, str] = {
        "missing_tiles": f"{shown} needs {_tile_list(missing)}, which "
        f"{'is' if len(missing) == 1 else 'are'} neither on line {n} nor in your rack.",
        "too_many_rack_tiles": f"{shown} uses {counted(from_rack, 'tile')} from your rack; at most "
        f"{state.rules.rack_limit} may enter the line.",
        "line_shrinks": f"{shown} has {counted(len(tiles), 'tile')} but line {n} holds {held}: "
        "a line never gets shorter.",
        "too_long": f"{shown} has {counted(len(tiles), 'tile')}; a line holds at most "
        f"{MAX_LINE_TILES}.",
        "not_a_word": f"{word} is not in the word list ({lexicon.name}).",
        "not_new": (
            f"Line {n} has already held {word}: each word must be one the line has never held."
            if state.rules.new_word == "history"
            else f"{word} is already the word on line {n}: build a different word "
            "(changing only which tiles spell it does not count)."
        ),
    }
    return Refusal(code, messages[code])


def choose_spelling(state: GameState, seat: int, command: PlayWord, lexicon: Lexicon) -> Tiles:
    """The one spelling that makes a word move legal, or the refusal.

    An explicit word has one spelling.  A plain word is accepted when exactly one
    of its spellings is legal; several legal ones are ``ambiguous``; with none,
    the refusal is that of the spelling that got furthest through the checks
    (and, among those, the one lacking fewest tiles, which says best what the
    player is missing).
    """
    index = command.line
    candidates = command.word.candidates()
    on_line = _counts(state.lines[index].tiles)
    in_rack = _counts(state.racks[seat])
    legal: list[Tiles] = []
    furthest: tuple[tuple[int, int], RefusalCode, Tiles, int, list[str]] | None = None
    for tiles in candidates:
        from_rack, missing = _needs(on_line, in_rack, tiles)
        code = _first_failure(state, index, tiles, from_rack, missing, lexicon)
        if code is None:
            legal.append(tiles)
            continue
        rank = (WORD_CHECK_ORDER.index(code), -len(missing))
        if furthest is None or rank > furthest[0]:
            furthest = (rank, code, tiles, from_rack, missing)
    if len(legal) == 1:
        return legal[0]
    n = index + 1
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
    _, code, tiles, from_rack, missing = furthest
    shown = explicit_word(tiles) if len(candidates) > 1 else command.word.text
    raise _refusal(code, state, index, tiles, shown, from_rack, missing, lexicon)


def _word(
    state: GameState, seat: int, command: PlayWord, lexicon: Lexicon, draw: Drawer
) -> WordBuilt:
    tiles = choose_spelling(state, seat, command, lexicon)
    # The rack gives what enters the line and takes what the line leaves over.
    held = len(state.racks[seat]) + len(state.lines[command.line].tiles) - len(tiles)
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
            f"Only {counted(len(state.bag), 'tile')} {'is' if len(state.bag) == 1 else 'are'} "
            "left in the bag, so you cannot exchange "
            f"{len(chosen)}.",
        )
    return Exchanged(seat, tuple(chosen), _draw(draw, state.bag, len(chosen)))


def check_call(state: GameState, seat: int) -> None:
    """Whether ``seat`` may call a JUMBULAYA now, before its word is looked at
    (a service that seals calls for a while checks this when a call comes in)."""
    _seat_checks(state, seat, off_turn_allowed=True)
    _call_checks(state, seat)


def _call_checks(state: GameState, seat: int) -> None:
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


def _jumbulaya(
    state: GameState, seat: int, command: CallJumbulaya, lexicon: Lexicon
) -> JumbulayaVerified | JumbulayaFailed:
    _call_checks(state, seat)
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
