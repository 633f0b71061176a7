"""The crossword game's events in words, from what every viewer may know:
never an exchange's tiles nor a draw.  Also the rules of a game in words."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.crossword import events
from games.engine.crossword.board import written_play
from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.fold import evolve, start
from games.engine.crossword.layout import ALL_TILES_BONUS
from games.engine.crossword.notation import format_move
from games.engine.crossword.options import LEVEL_NAMES, PRESET_LABELS, Options
from games.engine.crossword.state import GameState
from games.kinds.crossword.seat_view import END_WORDS, pending_end

from ..base import Logged


def _tiles(n: int) -> str:
    return f"{n} tile{'s' if n != 1 else ''}"


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def bonus_note(words: Sequence[str]) -> str:
    """The bonus words among ``words``, named with their bonus ("" if none)."""
    found = [f"{w} (+{BONUS_WORDS[w]})" for w in words if w in BONUS_WORDS]
    if not found:
        return ""
    return f" Bonus word{'s' if len(found) > 1 else ''}: {', '.join(found)}."


def extras_note(event: events.Played) -> str:
    """The 50 for seven tiles or more, and the bonus words, in words ("" if none)."""
    n = len(event.squares)
    said = f" All {n} tiles: +{ALL_TILES_BONUS}." if n >= 7 else ""
    return said + bonus_note(event.words)


def play_words(after: GameState, event: events.Played) -> str:
    """A play in words: the move as the notation writes it, the words formed,
    the points, the bonus words and the 50 for seven tiles or more."""
    move = format_move(written_play(after.board, event.squares, event.across))
    formed = ", ".join(event.words)
    return f"played {move} for {_points(event.points)}, forming {formed}." + extras_note(event)


def _answer(before: GameState, event: events.Event) -> str:
    """How a move answers a play that would end the game ("" for none)."""
    made = before.open_play
    if made is None or before.pending_end is None:
        return ""
    name = before.players
    match event:
        case events.Passed(seat=seat):
            return f"{name[seat]} accepted the end that {name[made.seat]}'s play made."
        case events.TimedOut(seat=seat):
            return (
                f"{name[seat]} ran out of time, which accepts the end that {name[made.seat]}'s "
                "play made."
            )
        case events.ChallengeFailed(seat=seat, mover=mover):
            return (
                f"{name[seat]} challenged {name[mover]}'s play, but every word is in the list, "
                "so the play stands."
            )
    return ""


def describe(before: GameState, event: events.Event, after: GameState) -> str:
    name = before.players
    answer = _answer(before, event)
    if answer:
        return answer
    match event:
        case events.GameStarted(players=players, first=first):
            return f"The tiles were drawn: {players[first]} plays first."
        case events.Played(seat=seat):
            said = f"{name[seat]} {play_words(after, event)}"
            ending = pending_end(after)
            return said if ending is None else f"{said} {ending.words}."
        case events.Passed(seat=seat):
            return f"{name[seat]} passed."
        case events.TimedOut(seat=seat):
            return f"{name[seat]} ran out of time, and the turn passed."
        case events.Exchanged(seat=seat, tiles=tiles):
            return f"{name[seat]} exchanged {_tiles(len(tiles))}."
        case events.PlayWithdrawn(seat=seat, mover=mover, unacceptable=bad):
            listed = ", ".join(bad)
            verb = "is" if len(bad) == 1 else "are"
            return (
                f"{name[seat]} challenged {name[mover]}'s play: {listed} {verb} not in the word "
                f"list, so the play was taken back and {name[mover]} lost the turn."
            )
        case events.ChallengeFailed(seat=seat, mover=mover):
            return (
                f"{name[seat]} challenged {name[mover]}'s play, but every word is in the list: "
                f"{name[seat]} loses a turn."
            )
        case events.Resigned(seat=seat):
            return f"{name[seat]} resigned."
    return ""


def _headline(before: GameState, event: events.Event, said: str) -> str:
    match event:
        case events.Played(seat=seat, words=words):
            return f"{before.players[seat]} played {words[0]}"
    return said.rstrip(".")


def history(log: Sequence[events.Event]) -> list[Logged]:
    """The log in words, oldest first, with how the game ended."""
    started = log[0]
    assert isinstance(started, events.GameStarted)
    state = start(started)
    said = describe(state, started, state)
    out = [Logged(state.seq, said, "the tiles were drawn", said)]
    for event in log[1:]:
        after = evolve(state, event)
        said = describe(state, event, after)
        words = said
        if after.over and not state.over:
            words += f" The game is over: {END_WORDS.get(after.end or '', 'it ended')}."
        elif state.ending and not after.ending and not after.over:
            words += " The game goes on."
        out.append(Logged(after.seq, words, _headline(state, event, said), said))
        state = after
    return out


def rules_in_words(options: Options) -> list[str]:
    """One sentence per rule, the variant first."""
    said = [
        f"Rules: {PRESET_LABELS.get(options.preset, options.preset)}.",
        f"Racks of {options.rack_size} tiles on the 15×15 board; the first word covers the "
        "centre star with two tiles or more.",
        "Playing 7 tiles in one move earns 50 points"
        + (" (7, 8 or 9 tiles: 50, once)." if options.rack_size > 7 else "."),
        "A word formed that is exactly one of the rule sheet's 45 Bible words earns 5, 10 or "
        "15 points more (as RUTH, EGYPT or JESUS); those words are always accepted.",
    ]
    if options.challenge == "void":
        said.append("A play with a word not in the word list is refused, and nothing changes.")
    else:
        said.append(
            "Every play is accepted, and any other player may challenge it until the next move: "
            "if a word is not in the list the play is taken back and its turn lost; if every "
            "word is, the challenger loses their next turn. The play that would end the game "
            "is open to a challenge too: the next player challenges it or accepts the end, and "
            "a wrong challenge then ends the game as the play made it."
        )
    if options.levels:
        names = ", ".join(dict.fromkeys(LEVEL_NAMES[level] for level in options.levels))
        said.append(
            f"Translating the Word ({names}): the first player to reach their target score "
            "wins at once."
        )
    if options.noahs_ark:
        said.append("Noah's Ark: +10 for a word formed with two equal letters side by side.")
    if options.david_goliath:
        said.append(
            "David and Goliath: +15 for a word shorter than the word it crosses, crossing it "
            "at that word's middle letter."
        )
    said.append(
        "The game ends when a player uses every tile with the bag empty, or after six "
        "scoreless turns in a row; each player then loses their unplayed letters, and a "
        "player who went out gains the others'."
    )
    return said
