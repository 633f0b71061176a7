"""The robot levels: they decide from the seat view only, always answer legally and
explicitly, call JUMBULAYA when they see one, and read the endgame exactly."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from engine_helpers import claim_all, make_state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.jumbulaya import (
    PRESETS,
    Event,
    GameState,
    Lexicon,
    deal,
    decide,
    evolve,
    lexicon_from_words,
    parse_move,
    start,
)
from games.engine.jumbulaya.notation import CallJumbulaya, PlayWord, explicit_word
from games.engine.jumbulaya.robots import LEVELS, STRONGEST, answer
from games.engine.jumbulaya.robots.match import play_game, seeded_drawer
from games.engine.jumbulaya.robots.simulate import sample_racks
from games.engine.jumbulaya.robots.vocabulary import vocabulary, zipf
from games.engine.jumbulaya.view import read_view, seat_view
from games.engine.tiles import full_set

ALL_LEVELS = list(LEVELS)
#: A budget the expert never reaches in a test, so that it takes all its samples
#: and its answer depends on the seed only.
NO_RUSH = 60_000.0


def test_levels_run_from_weakest_to_strongest() -> None:
    assert ALL_LEVELS == ["beginner", "casual", "greedy", "club", "expert"]
    assert STRONGEST == "expert"
    for level in LEVELS.values():
        assert level.description and "\n" not in level.description


def test_the_levels_table_is_the_one_in_the_docstring() -> None:
    import games.engine.jumbulaya.robots as robots

    assert robots.levels_table() in (robots.__doc__ or "")


def _position(lexicon: Lexicon, seed: int, turns: int) -> tuple[list[Event], GameState]:
    """A position a few greedy turns into a seeded game."""
    rng = random.Random(seed)
    started = deal(("ann", "bob"), PRESETS["official"], lexicon, rng, first=0)
    events: list[Event] = [started]
    state = start(started)
    draw = seeded_drawer(rng)
    for _ in range(turns):
        seat = state.turn
        assert seat is not None
        move = answer(
            read_view(seat_view(events, state, seat, lexicon="default")),
            lexicon,
            "greedy",
            random.Random(1),
        )
        for event in decide(state, seat, move, lexicon, draw):
            events.append(event)
            state = evolve(state, event)
        if state.over:
            break
    return events, state


def _hidden_elsewhere(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position for ``seat`` with the other racks and the bag dealt anew
    from the same hidden tiles."""
    other = 1 - seat
    pool = list(state.racks[other]) + list(state.bag)
    rng.shuffle(pool)
    n = len(state.racks[other])
    racks = list(state.racks)
    racks[other] = tuple(pool[:n])
    return replace(state, racks=tuple(racks), bag=tuple(pool[n:]))


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_LEVELS)
def test_the_answer_depends_on_the_view_only(enable: Lexicon, name: str) -> None:
    for seed in (1, 2):
        events, state = _position(enable, seed, 4)
        seat = state.turn
        assert seat is not None
        other = _hidden_elsewhere(state, seat, random.Random(seed))
        assert other.racks[1 - seat] != state.racks[1 - seat] or other.bag != state.bag
        one = seat_view(events, state, seat, lexicon="default")
        two = seat_view(events, other, seat, lexicon="default")
        assert one == two
        answers = {
            answer(read_view(doc), enable, name, random.Random(9), NO_RUSH) for doc in (one, two)
        }
        assert len(answers) == 1


def _explicit(move: str) -> None:
    command = parse_move(move)
    if isinstance(command, PlayWord | CallJumbulaya):
        tiles = command.word.tiles
        assert tiles is not None, f"{move!r} is not fully explicit"
        assert move.split()[-1] == explicit_word(tiles)


@pytest.mark.slow
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 10_000), pair=st.sampled_from(ALL_LEVELS))
def test_every_answer_is_legal_and_explicit(enable: Lexicon, seed: int, pair: str) -> None:
    """Robot games of every level: play_game raises on any refused answer."""
    other = ALL_LEVELS[(ALL_LEVELS.index(pair) + seed) % len(ALL_LEVELS)]
    game = play_game([LEVELS[pair], LEVELS[other]], enable, seed, max_turns=24, budget_ms=15.0)
    answers = [d.answer for d in game.decisions if d.answer != "wait"]
    assert answers
    for move in answers:
        _explicit(move)


def _open_race(lexicon: Lexicon) -> GameState:
    """All nine lines claimed, line 1 holds 7 tiles (10 points, seat 0's), and
    SPRINTS runs down lines 1-7."""
    state = make_state(
        ["S A B C D E F", "P", "R", "I", "N", "T", "S", "G", "H"],
        racks=["A E I O U", "A E I O U"],
        lexicon=lexicon,
    )
    return claim_all(state, [0, 1, 0, 1, 0, 1, 0, 1, 0])


def _doc(state: GameState, seat: int) -> dict[str, object]:
    return seat_view([], state, seat, lexicon="inline")


@pytest.mark.parametrize("name", ALL_LEVELS)
def test_a_jumbulaya_is_called_on_turn_and_off_turn(small_lex: Lexicon, name: str) -> None:
    state = _open_race(small_lex)
    knows = name != "beginner"  # SPRINTS is rarer than the beginner's words
    assert zipf("SPRINTS") < 4.0  # below the beginner's threshold
    for seat in (0, 1):  # seat 0 has the turn; seat 1 asks off turn (its call ties)
        move = answer(read_view(_doc(state, seat)), small_lex, name, random.Random(1), NO_RUSH)
        if knows:
            assert move == "jumbulaya S-P-R-I-N-T-S"
            decide(state, seat, move, small_lex)  # accepted
        elif seat == 1:
            assert move == "wait"


def test_the_strongest_calls_only_when_the_call_wins(small_lex: Lexicon) -> None:
    state = _open_race(small_lex)
    lines = list(state.lines)
    lines[7] = replace(lines[7], tiles=("G", "O", "D", "S"), owner=0)  # seat 0 leads 14 to 0
    ahead = replace(state, lines=tuple(lines))
    assert answer(read_view(_doc(ahead, 1)), small_lex, "expert", random.Random(1)) == "wait"
    assert answer(read_view(_doc(ahead, 1)), small_lex, "club", random.Random(1)) == "wait"
    assert answer(read_view(_doc(ahead, 1)), small_lex, "greedy", random.Random(1)).startswith(
        "jumbulaya"
    )


@pytest.mark.parametrize("name", ALL_LEVELS)
def test_wait_off_turn_and_when_over(small_lex: Lexicon, name: str) -> None:
    state = make_state(["A C T", "O T H E R"], racks=["F S X Z J", "B K W V M"], lexicon=small_lex)
    assert answer(read_view(_doc(state, 1)), small_lex, name, random.Random(1)) == "wait"
    over = replace(state, end="ten_tiles", turn=None)
    for seat in (0, 1):
        assert answer(read_view(_doc(over, seat)), small_lex, name, random.Random(1)) == "wait"


def test_a_rack_is_guessed_from_the_unseen_tiles() -> None:
    rng = random.Random(1)
    unseen = ("A", "B", "C", "D", "E", "F", "G")
    for rack in sample_racks(unseen, 5, 10, rng):
        assert len(rack) == 5 and not Counter(rack) - Counter(unseen)
    assert sample_racks(("J", "A", "B"), 3, 10, rng) == [("J", "A", "B")]


ENDGAME_WORDS = ["ABCDEFGHI", "ABCDEFGHIJ", "KLMN"]


def _endgame(j_at: str, lexicon: Lexicon) -> GameState:
    """Bag empty.  Seat 0 may build ABCDEFGHI on line 1 (9 tiles, 15 points) or
    KLMN on line 2 (4 points); the ten-tile ABCDEFGHIJ needs the J, which is on
    the opponent's rack, seat 0's or a line (``j_at``)."""
    left = Counter(full_set())
    fixed = ["A B C D E F G H", "K L M"]
    mine = ["I", "N"]
    theirs = ["J", "E", "E", "E", "E"] if j_at == "theirs" else ["E", "E", "E", "E", "E"]
    for t in " ".join(fixed).split() + mine + theirs:
        left[t] -= 1
    rest = sorted(left.elements())
    if j_at == "mine":
        rest.remove("J")
        mine.append("J")
    lines = [*fixed]
    while len(lines) < 9:
        chunk, rest = rest[:10], rest[10:]
        lines.append(" ".join(chunk))
    mine += rest  # what the lines cannot hold stays on seat 0's (big) rack
    state = make_state(lines, racks=[" ".join(mine), " ".join(theirs)], lexicon=lexicon)
    assert not state.bag
    owners = [1, 1, None, None, None, None, None, None, None]
    return replace(
        state, lines=tuple(replace(ln, owner=o) for ln, o in zip(state.lines, owners, strict=True))
    )


def test_the_endgame_reads_the_opponents_rack_exactly() -> None:
    lexicon = lexicon_from_words(ENDGAME_WORDS)
    nine = "1 A-B-C-D-E-F-G-H-I"
    # the opponent holds the J: nine tiles would hand it the ten-tile word
    view = read_view(_doc(_endgame("theirs", lexicon), 0))
    assert Counter(view.unseen) == Counter(("J", "E", "E", "E", "E"))
    assert answer(view, lexicon, "expert", random.Random(1), NO_RUSH) == "2 K-L-M-N"
    assert answer(view, lexicon, "greedy", random.Random(1)) == nine  # looks at nothing
    # the J lies on a line: nobody can make ten tiles; only the expert knows it
    view = read_view(_doc(_endgame("line", lexicon), 0))
    assert "J" not in view.unseen and "J" not in view.rack
    assert answer(view, lexicon, "expert", random.Random(1), NO_RUSH) == nine
    assert answer(view, lexicon, "club", random.Random(1)) == "2 K-L-M-N"  # a rough guess
    # with the J on its own rack, it ends the game with the ten-tile word: it wins
    view = read_view(_doc(_endgame("mine", lexicon), 0))
    assert answer(view, lexicon, "expert", random.Random(1), NO_RUSH) == nine + "-J"


def test_a_vocabulary_keeps_the_common_words(enable: Lexicon) -> None:
    common = vocabulary(enable, 4.0)
    assert common is vocabulary(enable, 4.0)  # built once
    assert common.contains(("C", "A", "T")) and not common.contains(tuple("ZYMURGY"))
    assert 3000 < len(common) < 10_000 < len(vocabulary(enable, 3.0)) < len(enable)
    assert vocabulary(enable, 0) is enable
