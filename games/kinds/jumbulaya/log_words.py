"""JUMBULAYA in words: each event for the log, the log itself, a move as a
sentence says it, and the rules.

The log speaks words, not the notation: ``Ann played CRUNCHER on line 3
(+8).``, never ``3 CRUN[CH][ER]`` (the notation stays in the record, the
replay's step list and ``manage.py replay``).  Names are the players' names
now (:mod:`games.core.seat_names`), so a renamed player is renamed in old logs too.
What became of sealed JUMBULAYA calls is told here as well: to their caller
(:func:`judged_claims`, :func:`outcome_words`) and in the log (:func:`outcome_line`).

Everything here is built for one viewer: a seat (who sees their own rack) or a
spectator (``seat=None``).  Nothing private to another seat (its rack, its
draws, the tiles it exchanged) or the bag's order ever goes into what these
functions return; tests scan every page for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core import seat_names
from games.core.projection import engine_event
from games.engine.jumbulaya import (
    Event,
    Exchanged,
    GameStarted,
    GameState,
    JumbulayaFailed,
    JumbulayaVerified,
    Passed,
    Refusal,
    Resigned,
    Rules,
    TimedOut,
    WordBuilt,
    evolve,
    line_points,
    parse_move,
    start,
)
from games.engine.jumbulaya.notation import CallJumbulaya, Exchange, Pass, PlayWord, Resign
from games.engine.tiles import letters
from games.kinds.base import Logged
from games.kinds.jumbulaya.kind import JUMBULAYA
from games.kinds.jumbulaya.models import JumbulayaClaim
from games.kinds.jumbulaya.seat_view import END_WORDS, player_names
from games.models import Game

Outcome = JumbulayaClaim.Outcome

#: ``Event.source`` of a seat the deadline sweep removed (its resignation).
REMOVED = "deadline"


def _word(text: str) -> str:
    """A word as people read it: its letters, without the notation's brackets
    and hyphens (``CRUN[CH][ER]`` is CRUNCHER)."""
    return "".join(ch for ch in text if ch.isalpha()).upper()


def _lines_in_words(lines: Sequence[int]) -> str:
    numbers = [i + 1 for i in lines]
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        return f"lines {numbers[0]} to {numbers[-1]}"
    return "lines " + ", ".join(map(str, numbers))


@dataclass(frozen=True)
class Told:
    """One event in words: ``headline`` is the short form subjects use
    (``bob played FACTS``), ``words`` the whole sentence for the log."""

    headline: str
    words: str


def tell(
    before: GameState,
    event: Event,
    after: GameState,
    source: str = "",
) -> Told:
    """One event in words, from what every viewer may know: never the tiles
    exchanged or drawn.  ``source``: where the event came from (an
    ``Event.Source`` value), which tells a seat removed by the deadline sweep
    (``deadline``) from one that resigned."""
    name = player_names(before.players)
    match event:
        case WordBuilt(seat, line, tiles):
            previous = before.lines[line].owner
            took = (
                f", taking it from {name[previous]}"
                if previous is not None and previous != seat
                else ""
            )
            head = f"{name[seat]} played {_word(letters(tiles))}"
            return Told(head, f"{head} on line {line + 1} (+{line_points(tiles)}){took}.")
        case Exchanged(seat, tiles):
            head = f"{name[seat]} exchanged {_count(len(tiles), 'tile')}"
            return Told(head, f"{head}.")
        case Passed(seat):
            return Told(f"{name[seat]} passed", f"{name[seat]} passed.")
        case TimedOut(seat):
            head = f"{name[seat]} ran out of time"
            return Told(head, f"{head}: the deadline passed and the turn was passed for them.")
        case JumbulayaVerified(seat, tiles, lines, points):
            word = _word(letters(tiles))
            down = f"{word} down {_lines_in_words(lines)} (+{points})"
            head = f"{name[seat]} called JUMBULAYA: {word}"
            return Told(head, f"{name[seat]} called JUMBULAYA: {down}.")
        case JumbulayaFailed(seat, word, reason):
            return Told(
                f"{name[seat]}'s JUMBULAYA call failed",
                f"{name[seat]} called JUMBULAYA with {_word(word)}, which could not be "
                f"verified ({reason}), and loses a turn.",
            )
        case Resigned(seat):
            if source == REMOVED:
                head = f"{name[seat]} was removed"
                return Told(
                    head, f"{head} from the game after missing too many deadlines in a row."
                )
            return Told(f"{name[seat]} resigned", f"{name[seat]} resigned.")
        case GameStarted():
            return Told("the game began", f"The game began; {name[after.turn or 0]} moves first.")
    raise TypeError(f"not an event: {event!r}")


def describe(before: GameState, event: Event, after: GameState) -> str:
    """One move in words, from what every viewer may know."""
    return tell(before, event, after).words


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'s' if n != 1 else ''}"


def _joined(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def ending(state: GameState) -> str:
    """How a finished game ended, its final scores and who won, in words."""
    name = player_names(state.players)
    scores = ", ".join(f"{n} {s}" for n, s in zip(name, state.scores(), strict=True))
    winners = [name[s] for s in state.winners()]
    won = (
        f"{winners[0]} won"
        if len(winners) == 1
        else f"{_joined(winners)} share the win"
        if winners
        else "nobody won"
    )
    return f"The game is over: {END_WORDS[state.end or '']}. Final scores: {scores}. {won}."


def history(events: Sequence[Event], sources: Sequence[str] | None = None) -> list[Logged]:
    """Every event of a log in words, oldest first.  Needs the whole log (the
    fold needs the draws) but returns only public words.  ``sources``: each
    event's source (see :func:`tell`)."""
    out: list[Logged] = []
    state: GameState | None = None
    for n, event in enumerate(events):
        source = sources[n] if sources is not None else ""
        if isinstance(event, GameStarted):
            state = start(event)
            told = tell(state, event, state, source)
            out.append(Logged(state.seq, told.words, told.headline, told.words))
            continue
        assert state is not None, "a log starts with game_started"
        after = evolve(state, event)
        told = tell(state, event, after, source)
        words = told.words
        if after.over and not state.over:
            words += " " + ending(after)
        elif after.jumbulaya_open() and not state.jumbulaya_open():
            words += (
                " All nine lines are claimed and one holds 7 or more tiles: "
                "a JUMBULAYA can now be called."
            )
        out.append(Logged(after.seq, words, told.headline, told.words))
        state = after
    return out


def judged_claims(game: Game, seat: int | None) -> list[JumbulayaClaim]:
    """``seat``'s claims that have been judged (none for a spectator), each with
    its ``outcome``: never anyone else's."""
    if seat is None:
        return []
    return list(game.claims.filter(seat=seat, resolved_at__isnull=False).order_by("created_at"))


def outcome_words(claim: JumbulayaClaim) -> str:
    """What became of ``claim``, for its caller: ``SPRINTS: verified: it ended the game``."""
    return f"{claim.word}: {claim.get_outcome_display() if claim.outcome else 'not made'}"


#: The log's words for each outcome (a withdrawn call is not in the log: its
#: word may still be valid while the game goes on).
_LOGGED = {
    Outcome.MADE: "{name}'s {word} was verified and ended the game",
    Outcome.FAILED: "{name}'s {word} could not be verified and cost a turn",
    Outcome.FREE: "{name}'s {word} could not be verified (the game ended before it cost a turn)",
    Outcome.OVERTAKEN: "{name}'s {word} was valid, but a longer or earlier call was made",
}


def outcome_line(game: Game, players: Sequence[str]) -> tuple[int, str] | None:
    """The log's line (``(seq, words)``) saying what became of the sealed calls
    judged when the claim window closed, or ``None`` when there were none."""
    judged = list(game.claims.filter(resolved_seq__isnull=False).order_by("created_at", "pk"))
    said = [
        _LOGGED[Outcome(c.outcome)].format(name=players[c.seat], word=c.word)
        for c in judged
        if c.outcome in _LOGGED and c.seat < len(players)
    ]
    if not said:
        return None
    seq = max(c.resolved_seq or 0 for c in judged)
    words = "The claim window closed and its sealed JUMBULAYA calls were judged: "
    return seq, words + "; ".join(said) + "."


def game_log(game: Game, names: dict[int, str] | None = None) -> list[Logged]:
    """A game's log in words, naming the players as they are now (``names``:
    :func:`games.core.seat_names.names_now`, when the caller has it), with the line
    saying what became of the sealed JUMBULAYA calls where their window closed."""
    rows = list(game.events.order_by("seq"))
    if names is None:
        names = seat_names.names_now(game)
    played = [engine_event(row) for row in rows]
    sources = [row.source for row in rows]
    entries = seat_names.as_played(
        game,
        names,
        lambda then: history(seat_names.renamed_events(JUMBULAYA, played, then), sources),
    )
    if not played or not isinstance(played[0], GameStarted):
        return entries
    judged = list(game.claims.filter(resolved_seq__isnull=False))
    if judged:  # named as the seats were when the window closed
        seq = max(c.resolved_seq or 0 for c in judged)
        then = seat_names.names_then(names, list(game.seat_changes.select_related("left")), seq)
        started = seat_names.renamed_events(JUMBULAYA, played[:1], then)[0]
        assert isinstance(started, GameStarted)
        line = outcome_line(game, player_names(started.players))
        if line is not None:
            at = next((i for i, entry in enumerate(entries) if entry.seq > line[0]), len(entries))
            entries.insert(at, Logged(line[0], line[1], line[1], line[1]))
    return entries


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


def preset_label(name: str) -> str:
    return JUMBULAYA.preset_labels.get(name, name.title())


def rules_in_words(rules: Rules) -> list[str]:
    """One sentence per rule, for the pages and the invitation email."""
    tiles = "tile" if rules.rack_limit == 1 else "tiles"
    lines = [
        f"Rules: {preset_label(rules.preset)}" + (" with changes." if rules.overrides() else "."),
        f"A move uses at most {rules.rack_limit} {tiles} from your rack.",
        "A new word must differ from "
        + (
            "every word the line has held."
            if rules.new_word == "history"
            else "the line's current word."
        ),
    ]
    if rules.stall_rounds:
        rounds = "round" if rules.stall_rounds == 1 else "rounds"
        lines.append(f"The game ends after {rules.stall_rounds} {rounds} without a word.")
    else:
        lines.append("The game never ends for lack of new words.")
    lines.append(
        "A JUMBULAYA scores a bonus point per two-letter tile in it."
        if rules.jumbulaya_bonus
        else "A JUMBULAYA scores no bonus for two-letter tiles."
    )
    lines.append(
        "After a failed JUMBULAYA call, a player waits for another player's turn "
        "before calling again."
        if rules.jumbulaya_cooldown
        else "A player may call JUMBULAYA again straight after a failed call."
    )
    return lines
