"""What a move would do, said before it is made, without changing anything.

:func:`preview_move` asks the engine (:func:`games.engine.decide`) exactly as
:func:`games.core.door.submit` would, on the current state, and describes the
events it would record.  Nothing is written and nothing is drawn: the draw
function hands the engine placeholder tiles without looking at the bag, so a
preview can say how many tiles a move draws but never which.

A JUMBULAYA call is previewed without asking the engine whether the word would
be verified: a preview that told would let a player test words for free.  Only
the checks that do not depend on the word (the game is over, the call is not
open yet, the caller is barred) and the notation itself are reported.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from games.core import projection, seat_names
from games.engine.jumbulaya import (
    Event,
    Exchanged,
    GameState,
    Lexicon,
    Passed,
    Refusal,
    Resigned,
    WordBuilt,
    decide,
    evolve,
    line_points,
    parse_move,
)
from games.engine.jumbulaya.fold import split_word_tiles
from games.engine.jumbulaya.notation import CallJumbulaya, WordSpec, explicit_word, verb_of
from games.engine.jumbulaya.options import Rules
from games.engine.jumbulaya.state import JUMBULAYA_TIERS, jumbulaya_points
from games.engine.tiles import JUMBULAYA_MAX, JUMBULAYA_MIN, Tiles, letters
from games.kinds.base import page_refusal
from games.kinds.jumbulaya.seat_view import END_WORDS, player_names
from games.models import Game

PreviewKind = Literal["word", "pass", "exchange", "resign", "jumbulaya", "refused"]

#: The face a preview's placeholder draws carry; never shown to anyone.
PLACEHOLDER = "?"


@dataclass(frozen=True)
class MovePreview:
    """What a move would do, for the seat that would make it."""

    kind: PreviewKind
    notation: str  # what the player wrote
    summary: str  # one sentence for people
    details: tuple[str, ...] = ()  # further sentences
    # a word move
    line: int | None = None  # 1..9
    word: str | None = None  # its letters
    spelling: str | None = None  # the explicit form of the chosen spelling
    notation_explicit: str | None = None  # e.g. "3 E[QU]AL[LY]"
    new_line: Tiles = ()
    from_rack: Tiles = ()
    to_rack: Tiles = ()
    points: int | None = None
    # any move
    draws: int = 0  # how many tiles the move draws (never which)
    exchanged: Tiles = ()
    ends_game: bool = False
    end_words: str | None = None
    # a refusal
    code: str | None = None
    message: str | None = None
    accepted: tuple[str, ...] = ()

    @property
    def refused(self) -> bool:
        return self.kind == "refused"


def _placeholder_draw(bag: Tiles, n: int) -> Tiles:
    """Draw ``n`` placeholder tiles: the bag is neither read nor reordered."""
    return (PLACEHOLDER,) * n


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _tiles_text(tiles: Tiles) -> str:
    return ", ".join(tiles) if tiles else "none"


def _after(state: GameState, event: Event) -> GameState:
    """The state after ``event`` with its draws left out (the end conditions do
    not depend on which tiles are drawn, and placeholders are not in the bag)."""
    if isinstance(event, WordBuilt | Exchanged):
        event = replace(event, drawn=())
    return evolve(state, event)


def _ending(state: GameState, event: Event) -> tuple[bool, str | None]:
    after = _after(state, event)
    if after.over and not state.over:
        return True, END_WORDS.get(after.end or "")
    return False, None


def _draw_sentence(n: int, bag: int) -> str:
    if n == 0:
        return "You will draw no tiles." if bag else "You will draw no tiles: the bag is empty."
    return f"You will then draw {_plural(n, 'tile')} from the bag."


def _word_preview(state: GameState, notation: str, event: WordBuilt) -> MovePreview:
    line = state.lines[event.line]
    from_rack, to_rack = split_word_tiles(line.tiles, event.tiles)
    number = event.line + 1
    spelling = explicit_word(event.tiles)
    word = letters(event.tiles)
    points = line_points(event.tiles)
    ends, end_words = _ending(state, event)
    owner = line.owner
    details = [
        f"Line {number} becomes {' '.join(event.tiles)} ({_plural(len(event.tiles), 'tile')}).",
        f"From your rack: {_tiles_text(tuple(from_rack))}.",
        f"To your rack: {_tiles_text(tuple(to_rack))}.",
        f"Line {number} will score {_plural(points, 'point')} for you"
        + (
            f", taking it from {player_names(state.players)[owner]}."
            if owner is not None and owner != event.seat
            else "."
        ),
        _draw_sentence(len(event.drawn), len(state.bag)),
    ]
    if ends:
        details.append(f"This ends the game: {end_words}.")
    return MovePreview(
        kind="word",
        notation=notation,
        summary=f"You build {word} on line {number}, spelled {spelling}.",
        details=tuple(details),
        line=number,
        word=word,
        spelling=spelling,
        notation_explicit=f"{number} {spelling}",
        new_line=event.tiles,
        from_rack=tuple(from_rack),
        to_rack=tuple(to_rack),
        points=points,
        draws=len(event.drawn),
        ends_game=ends,
        end_words=end_words,
    )


def _turn_without_word(state: GameState, event: Event, first: str) -> tuple[str, ...]:
    ends, end_words = _ending(state, event)
    out = [first]
    if ends:
        out.append(f"This ends the game: {end_words}.")
    return tuple(out)


def _call_scores(word: WordSpec, rules: Rules) -> list[tuple[Tiles, int]]:
    """What each spelling of a called word long enough to be a JUMBULAYA would
    score if verified, best first: read from the word alone, never from the
    board or the word list."""
    sized = [t for t in word.candidates() if JUMBULAYA_MIN <= len(t) <= JUMBULAYA_MAX]
    scored = [(tiles, jumbulaya_points(tiles, rules)) for tiles in sized]
    return sorted(scored, key=lambda pair: -pair[1])


def _score_sentences(text: str, scored: list[tuple[Tiles, int]]) -> tuple[str, list[str]]:
    """The call's summary and the sentences about what it would score."""
    if not scored:
        return (
            f"You call JUMBULAYA with {text}, which would fail: a JUMBULAYA is 7, 8 or 9 "
            "tiles long.",
            [],
        )
    if len({points for _, points in scored}) == 1:
        tiles, points = scored[0]
        return (
            f"You call JUMBULAYA with {text}: if it is verified, it scores "
            f"{_plural(points, 'point')} ({_plural(len(tiles), 'tile')}).",
            [],
        )
    best, worst = scored[0][1], scored[-1][1]
    return (
        f"You call JUMBULAYA with {text}: if it is verified, it scores {worst} to {best} "
        "points, by the spelling found down the board.",
        [
            f"Spelled {explicit_word(tiles)} ({_plural(len(tiles), 'tile')}): "
            f"{_plural(points, 'point')}."
            for tiles, points in scored
        ],
    )


def _call_preview(state: GameState, seat: int, notation: str, lexicon: Lexicon) -> MovePreview:
    """A JUMBULAYA call, described without finding out whether it would be
    verified: what it would score comes from the word alone (its length in
    tiles), never from the board or the word list.  The refusals come in the
    engine's order: the seat checks, the notation, then the call's own checks
    (which never depend on the word)."""
    probe: Refusal | None = None
    try:
        # An empty word is never verified, so the engine runs every check that does
        # not depend on the word and looks for nothing.
        decide(state, seat, CallJumbulaya(WordSpec("")), lexicon, _placeholder_draw)
    except Refusal as refusal:
        probe = refusal
    if probe is not None and probe.code in ("game_over", "not_in_game"):
        raise probe
    command = parse_move(notation)
    if probe is not None:
        raise probe
    assert isinstance(command, CallJumbulaya)
    scored = _call_scores(command.word, state.rules)
    summary, scores = _score_sentences(command.word.text, scored)
    tiers = ", ".join(f"{n} tiles score {p}" for n, p in JUMBULAYA_TIERS.items())
    details = [
        *scores,
        "It is verified if it is a listed word that runs down the board, one tile "
        f"from each line from line 1 down ({tiers}"
        + ("; plus 1 per two-letter tile" if state.rules.jumbulaya_bonus else "")
        + ").",
        "A call that cannot be verified costs you a turn"
        + (
            ", and you may not call again until another player has completed a turn."
            if state.rules.jumbulaya_cooldown
            else "."
        ),
        "This preview does not check the word: only the call itself does.",
    ]
    return MovePreview(
        kind="jumbulaya",
        notation=notation,
        summary=summary,
        details=tuple(details),
        points=scored[0][1] if scored else None,
    )


#: A refusal for moves a person may not send from a page (``timeout``).
web_refusal = page_refusal


def preview_move(state: GameState, seat: int, notation: str, lexicon: Lexicon) -> MovePreview:
    """What ``seat`` writing ``notation`` would do now (or why the rules refuse it)."""
    notation = notation.strip()
    try:
        own = web_refusal(notation)
        if own is not None:
            raise own
        if verb_of(notation) == "jumbulaya":
            return _call_preview(state, seat, notation, lexicon)
        events = decide(state, seat, notation, lexicon, _placeholder_draw)
    except Refusal as refusal:
        return MovePreview(
            kind="refused",
            notation=notation,
            summary="The rules would refuse this move.",
            code=refusal.code,
            message=refusal.message,
            accepted=tuple(refusal.accepted),
        )
    event = events[0]
    match event:
        case WordBuilt():
            return _word_preview(state, notation, event)
        case Passed():
            ends, end_words = _ending(state, event)
            return MovePreview(
                kind="pass",
                notation=notation,
                summary="You pass: your turn ends without a word.",
                details=_turn_without_word(
                    state, event, "Nothing on the board or in your rack changes."
                ),
                ends_game=ends,
                end_words=end_words,
            )
        case Exchanged(_, tiles, drawn):
            ends, end_words = _ending(state, event)
            return MovePreview(
                kind="exchange",
                notation=notation,
                summary=f"You exchange {_plural(len(tiles), 'tile')}: {_tiles_text(tiles)}.",
                details=_turn_without_word(
                    state,
                    event,
                    f"They go back into the bag and you draw {_plural(len(drawn), 'tile')} "
                    "in their place; your turn ends without a word.",
                ),
                draws=len(drawn),
                exchanged=tiles,
                ends_game=ends,
                end_words=end_words,
            )
        case Resigned():
            ends, end_words = _ending(state, event)
            return MovePreview(
                kind="resign",
                notation=notation,
                summary="You resign: you leave the game for good.",
                details=_turn_without_word(
                    state,
                    event,
                    "Your lines go on scoring for you until someone builds on them, "
                    "but a player who resigned cannot win.",
                ),
                ends_game=ends,
                end_words=end_words,
            )
    # A timeout is written by the service, never typed; anything else is new.
    return MovePreview(
        kind="refused",
        notation=notation,
        summary="The rules would refuse this move.",
        code="bad_move",
        message="This move cannot be made from the game page.",
    )


def preview_game_move(game: Game, seat: int, notation: str) -> MovePreview:
    """:func:`preview_move` for a stored game: its current state and word list."""
    if game.status == Game.Status.OPEN:
        return _service_refusal(
            notation, "The game has not started yet: it is waiting for players."
        )
    try:
        lexicon = projection.game_lexicon(game)
    except projection.ServiceError as e:
        return _service_refusal(notation, e.message)
    state = seat_names.shown_state(game)
    shown = preview_move(state, seat, notation, lexicon)
    if game.window_closes_at is None:
        return shown
    return replace(shown, details=(*shown.details, *_window_sentences(game, state, seat, shown)))


def _window_sentences(
    game: Game, state: GameState, seat: int, shown: MovePreview
) -> tuple[str, ...]:
    """What an open claim window changes for the move ``shown``: a call off
    the turn is sealed, one on it judged at once; a resignation withdraws the
    seat's sealed calls (its own, never another's)."""
    if shown.kind == "jumbulaya":
        if state.turn == seat:
            return (
                "It is your turn, so the call is judged at once: if it is verified, the claim "
                "window closes now and the longest valid call wins (ties: the earliest made); "
                "if not, it costs you this turn.",
            )
        return (
            "The claim window is open and it is not your turn: your call is sealed until the "
            "window closes, then judged with the others (the longest valid call wins).",
        )
    if shown.kind == "resign":
        sealed = [c.word for c in game.claims.filter(seat=seat, resolved_at__isnull=True)]
        if len(sealed) == 1:
            return (f"Your sealed JUMBULAYA call {sealed[0]} is withdrawn: it is never judged.",)
        if sealed:
            words = ", ".join(sealed[:-1]) + f" and {sealed[-1]}"
            return (f"Your sealed JUMBULAYA calls {words} are withdrawn: they are never judged.",)
    return ()


def _service_refusal(notation: str, message: str) -> MovePreview:
    return MovePreview(
        kind="refused",
        notation=notation.strip(),
        summary="This move cannot be made now.",
        code="service",
        message=message,
    )
