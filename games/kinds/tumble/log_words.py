"""Tumble-Words in words: each event for the log, from what every viewer may
know (a sealed crossword is never described, only that one was handed in),
the log itself, and the rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.engine import tumble as engine
from games.engine.tumble.cubes import COLOUR_NAMES
from games.kinds.base import Logged
from games.kinds.tumble.seat_view import END_WORDS, shown


def _signed(n: int) -> str:
    return f"{n:+d}" if n < 0 else str(n)


def _list(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _scored(state: engine.TumbleState, seat: int, crossword: str | None, points: int) -> str:
    name = state.players[seat]
    if crossword is None:
        return f"{name} handed in nothing ({_signed(points)}: every cube unused)"
    words = [w.text for w in shown(crossword).words]
    if not words:
        return f"{name} laid no word ({_signed(points)})"
    return f"{name} scored {_signed(points)} with {_list(words)}"


def describe(before: engine.TumbleState, event: engine.Event) -> str:
    """One event in words; ``before`` is the state it was made on."""
    match event:
        case engine.GameStarted(players=players, first=first, rolloff=rolloff):
            if len(players) == 2:
                return "Both players rolled their cubes for round 1."
            tries = len(rolloff)
            how = "the roll-off" if tries <= 1 else f"the roll-off ({tries} rolls, for ties)"
            return (
                f"{players[first]} won {how}, the cube nearest A, and rolled the cubes for round 1."
            )
        case engine.Submitted(seat=seat):
            name = before.players[seat]
            if not before.sealed_rounds:
                return f"{name} laid a crossword."
            if before.submission_of(seat) is not None:
                return f"{name} replaced the crossword handed in for round {before.round} (sealed)."
            return f"{name} handed in a crossword for round {before.round} (sealed)."
        case engine.TimedOut(seat=seat):
            return (
                f"{before.players[seat]} ran out of time for round {before.round}: "
                "nothing handed in."
            )
        case engine.RoundClosed(round=number, seats=seats, crosswords=crosswords, points=points):
            said = "; ".join(
                _scored(before, s, c, p) for s, c, p in zip(seats, crosswords, points, strict=True)
            )
            verb = "revealed" if before.sealed_rounds else "scored"
            return f"Round {number} {verb}: {said}."
        case engine.Rolled(round=number, seats=seats):
            if len(seats) > 1:
                return f"Round {number}: both players rolled their cubes."
            return f"Round {number}: {before.players[seats[0]]} rolled the cubes."
        case engine.Resigned(seat=seat):
            return f"{before.players[seat]} resigned."
    return ""


def _headline(event: engine.Event, said: str) -> str:
    if isinstance(event, engine.Rolled):
        return f"round {event.round} is rolled"
    return said.rstrip(".")


def history(events: Sequence[engine.Event]) -> list[Logged]:
    """The log in words, one entry an event, the end told with the event that made it."""
    started = events[0]
    assert isinstance(started, engine.GameStarted)
    state = engine.start(started)
    out = [Logged(state.seq, describe(state, started), "the cubes were rolled", "")]
    for event in events[1:]:
        after = engine.evolve(state, event)
        said = describe(state, event)
        words = said
        if after.over and not state.over:
            winners = _list([after.players[s] for s in after.winners()]) or "nobody"
            totals = ", ".join(f"{n} {t}" for n, t in zip(after.players, after.totals, strict=True))
            words = (
                f"{said} The game is over: {END_WORDS.get(after.end or '', 'it ended')}; "
                f"won by {winners} ({totals})."
            )
        out.append(Logged(after.seq, words, _headline(event, said), said))
        state = after
    return out


def _number(n: int) -> str:
    return ("no", "one", "two", "three")[n] if n < 4 else str(n)


def _cube_colours() -> str:
    """How many cubes of each colour a set holds, counted from the set itself
    (``7 red, 3 black, 3 green``)."""
    counts = Counter(COLOUR_NAMES[c.colour] for c in engine.CUBES)
    return ", ".join(f"{n} {colour}" for colour, n in counts.items())


def rules_in_words(preset_label: str, options: engine.Options) -> list[str]:
    rules = [
        f"Rules: {preset_label}.",
        f"Each round a player rolls {len(engine.CUBES)} letter cubes ({_cube_colours()}; "
        f"{_number(sum(engine.BLANK in c.faces for c in engine.CUBES))} cubes have a blank "
        "face) and builds a crossword from the faces showing.",
        "Every run of two or more letters across or down must be a word, and every cube laid "
        "must be in a word."
        + ("" if options.younger else " All the words must be connected in one crossword."),
        "A letter scores 2 in a one-colour word and 1 in a mixed word, in every word it is "
        "in; a blank stands for any letter, scores nothing and has no colour.",
        "Each cube left unused costs a point; using all 13 earns 10 more.",
        "With two players both roll at once and hand in their crosswords sealed: a crossword "
        "can be replaced until the round closes, when both have handed in or the deadline "
        "passes (nothing handed in scores -13). Then both are revealed and scored.",
        f"The first to {options.target} points alone after a round wins; a tie at the top "
        "plays another round.",
    ]
    if options.play_out:
        rules.append(
            "Three or more players: the round of turns is played out once someone reaches "
            "the target, so everyone has had as many turns."
        )
    return rules
