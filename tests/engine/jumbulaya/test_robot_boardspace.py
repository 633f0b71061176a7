"""The Boardspace baseline robot: one hand-built position per rule it follows."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from engine_helpers import make_state as make_full

from games.engine.jumbulaya import GameState, Line, lexicon_from_words
from games.engine.jumbulaya.robots import LEVELS
from games.engine.jumbulaya.robots.boardspace import BOARDSPACE
from games.engine.jumbulaya.view import read_view, seat_view

WORDS = [
    "FACT", "FACTS", "BETS", "BEST", "BAT", "BATS", "OTHER", "OTHERS", "DOGS", "GODS",
    "CHARACTER", "CHARACTERS", "BATCHES", "SPRINTS", "SPRINTER", "STABS", "LEERS", "HE",
]  # fmt: skip
LEX = lexicon_from_words(WORDS)


#: Tiles no word of WORDS uses: the lines a test leaves out are filled with them.
FILLER_TEXT = "M M M M U U U Y Y W W LY QU K K X Z J V ED G G"
FILLER = tuple(FILLER_TEXT.split())


def make_state(lines: Sequence[str], racks: Sequence[str | tuple[()]]) -> GameState:
    """A position with ``lines`` on top and filler lines below (movegen wants no
    empty line), racks as given."""
    used = [t for group in (*lines, *racks) for t in (group.split() if group else ())]
    pool = list(FILLER)
    for t in used:
        if t in pool:
            pool.remove(t)
    full = list(lines)
    while len(full) < 9:
        full.append(" ".join(pool[:3]))
        del pool[:3]
        assert len(full[-1].split()) == 3, "not enough filler tiles"
    return make_full(full, racks)


def owned(state: GameState, owners: Sequence[int | None]) -> GameState:
    """``state`` with line ``i`` claimed by ``owners[i]`` (its tiles as its word)."""
    lines = []
    for ln, owner in zip(state.lines, [*owners, *[None] * (9 - len(owners))], strict=True):
        word = "".join(ln.tiles) if owner is not None else None
        lines.append(Line(ln.tiles, word, owner, frozenset({word} if word else ())))
    return replace(state, lines=tuple(lines))


def answer(state: GameState, seat: int = 0) -> str:
    view = read_view(seat_view([], state, seat, lexicon={"words": WORDS}))
    return BOARDSPACE.answer(view, LEX, random.Random(1))


def test_it_is_a_baseline_not_a_level() -> None:
    assert BOARDSPACE.name == "boardspace" and "boardspace" not in LEVELS


def test_a_line_it_owns_is_worth_only_what_the_word_adds() -> None:
    # FACTS scores 5 but FACT already scores 4 for it; BETS takes 4 from the other seat.
    state = owned(make_state(["F A C T", "B E S T"], ["S", "A"]), [0, 1])
    assert answer(state) == "2 B-E-T-S"


def test_an_unclaimed_line_is_worth_ten_more_when_it_is_ahead() -> None:
    lines = ["F A C T", "B A T", "O T H E R", "D O G S"]
    ahead = owned(make_state(lines, ["S", "A"]), [0, None, 1, 0])
    assert answer(ahead) == "2 B-A-T-S"  # 4 + 10 beats OTHERS' 6
    behind = owned(make_state(lines, ["S", "A"]), [0, None, 1, 1])
    assert answer(behind) == "3 O-T-H-E-R-S"


def test_a_ten_tile_word_is_played_when_it_wins_and_never_when_it_loses() -> None:
    lines = ["C H A R A C T E", "B A T C H E S", "S P R I N T S", "O T H E R S"]
    wins = owned(make_state(lines, ["R S", "A"]), [0, 1, None, None])
    assert answer(wins) == "1 C-H-A-R-A-C-T-E-R-S"
    loses = owned(make_state(lines, ["R S", "A"]), [0, 1, 1, 1])
    # CHARACTER (9 tiles) is skipped too: it would not lead by 20.
    assert answer(loses) == "exchange all"


def test_words_of_eight_tiles_need_a_lead_of_twenty() -> None:
    lines = ["S P R I N T", "B E S", "B A T C H E S"]
    short_lead = owned(make_state(lines, ["E R T", "A"]), [None, None, 1])
    assert answer(short_lead) in ("2 B-E-S-T", "2 B-E-T-S")
    long_lead = owned(make_state(lines, ["E R T", "A"]), [None, None, 0])
    assert answer(long_lead) == "1 S-P-R-I-N-T-E-R"


JUMBO_LINES = [
    "S A B", "P O C", "R E D", "X Y Z F J W K", "I M ST", "N O TH", "T U V", "W K G", "S L ER",
]  # fmt: skip


def test_it_calls_a_jumbulaya_on_its_turn_only_when_it_wins() -> None:
    base = make_state(JUMBO_LINES, [(), ()])
    wins = owned(base, [0, 0, 0, 1, 0, 0, 0, 1, 1])
    assert answer(wins) == "jumbulaya SPRINT[ER]"
    off_turn = replace(wins, turn=1)
    assert answer(off_turn) == "wait"
    loses = owned(base, [1, 1, 1, 1, 1, 1, 1, 0, 1])
    assert answer(loses) == "pass"  # no word, no rack, and a call would not win


def test_it_claims_the_last_line_when_that_opens_the_race_for_it() -> None:
    racks = ["E T S", "A"]
    race = owned(make_state(JUMBO_LINES, racks), [1, 1, 0, 1, 0, 0, 1, 0, None])
    # STABS is worth more (5 against 4), but LEERS opens the race: SPRINTS and
    # SPRINTER are on the board, and either makes it win.
    assert answer(race) == "9 LE[ER]S"
    hopeless = owned(make_state(JUMBO_LINES, racks), [1, 1, 0, 1, 1, 1, 1, 1, None])
    assert answer(hopeless) == "1 S-T-A-B-S"


def test_a_word_needs_a_line_tile_and_no_word_means_a_discard() -> None:
    # HE on line 1 would be all rack tiles
    state = make_state(["Y", "F A C", "M U G", "O T H"], ["H E", "A"])
    assert answer(state) == "exchange all"
    assert answer(replace(state, bag=("A",))) == "pass"
