"""Post-game analysis of a hand-built game whose best moves and open JUMBULAYAs are known."""

from __future__ import annotations

import json

from engine_helpers import make_started

from games.engine.jumbulaya import (
    Event,
    GameState,
    decide,
    draw_front,
    evolve,
    lexicon_from_words,
    start,
)
from games.engine.jumbulaya.analysis import GameAnalysis, analyse
from games.engine.jumbulaya.view import SeatView

LINES = [
    "S A B", "P O C", "R E D", "X Y Z F J W K", "I M ST", "N O TH", "T U V", "W K G", "S L ER",
]  # fmt: skip
WORDS = [
    "SAB",
    "POC",
    "RED",
    "XYZFJWK",
    "IMST",
    "NOTH",
    "TUV",
    "WKG",
    "SLER",
    "SPRINTS",
    "SPRINTER",
]
LEX = lexicon_from_words(WORDS)
MOVES = [
    (0, "4 XYZFJWK"),  # 10, the best there is
    (1, "1 SAB"),  # 3 where a two-letter tile's line was worth 4
    (0, "2 POC"),  # 3, same
    (1, "3 R-E-D"),  # 3, same
    (0, "5 IM[ST]"),  # 4
    (1, "6 NO[TH]"),  # 4
    (0, "7 TUV"),  # 3 while SL[ER] was worth 4
    (1, "8 WKG"),  # 3, same
    (0, "9 SL[ER]"),  # 4: every line is claimed, JUMBULAYA is open (SPRINTS, SPRINT[ER])
    (1, "pass"),
    (0, "pass"),
    (1, "jumbulaya SPRINT[ER]"),  # 10 for 7 tiles, 1 for the ER tile
]


def play() -> tuple[list[Event], GameState]:
    started = make_started(LINES, ["M M U B ED", "M L LY QU H"])
    events: list[Event] = [started]
    state = start(started)
    for seat, move in MOVES:
        for event in decide(state, seat, move, LEX, draw_front):
            events.append(event)
            state = evolve(state, event)
    assert state.end == "jumbulaya"
    return events, state


def test_every_turn_has_its_points_and_the_best_move() -> None:
    events, _ = play()
    result = analyse(events, LEX)
    assert [t.move for t in result.turns] == [m for _, m in MOVES]
    assert [t.points for t in result.turns] == [10, 3, 3, 3, 4, 4, 3, 3, 4, 0, 0, 11]
    assert [t.best_points for t in result.turns] == [10, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0]
    assert [t.missed for t in result.turns] == [0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0]
    assert result.turns[0].best == "4 XYZFJWK"
    assert result.turns[6].best == "9 SL[ER]" and result.turns[9].best is None


def test_the_open_stretch_its_best_word_and_who_missed_it() -> None:
    """SPRINTS and SPRINT[ER] are open together from turn 9: one stretch, told
    by its best word, the other counted; two turns go by before Bob calls."""
    events, _ = play()
    result = analyse(events, LEX)
    (stretch,) = result.jumbulayas
    assert (stretch.word, stretch.points, stretch.from_turn) == ("SPRINT[ER]", 11, 9)
    assert (stretch.turns, stretch.called_by, stretch.others) == (2, 1, 1)
    assert stretch.missed_by == (0, 1)


def test_totals_add_up() -> None:
    events, state = play()
    result = analyse(events, LEX)
    for total in result.totals:
        mine = [t for t in result.turns if t.seat == total.seat]
        assert total.scored == state.scores()[total.seat] == sum(t.points for t in mine)
        assert total.left == sum(t.missed for t in mine)
        assert total.missed_jumbulayas == 1
    assert [t.left for t in result.totals] == [2, 3]
    biggest = result.totals[1].biggest
    assert [(m.turn, m.played, m.missed) for m in biggest] == [
        (1, "1 SAB", 1), (3, "3 R-E-D", 1), (7, "8 WKG", 1),
    ]  # fmt: skip


def test_the_robot_is_asked_from_the_movers_view_only_on_turn() -> None:
    events, _ = play()
    asked: list[SeatView] = []

    def robot(view: SeatView) -> str:
        asked.append(view)
        return "pass"

    result = analyse(events, LEX, robot=robot)
    assert len(asked) == len(MOVES)
    assert all(v.seat == t.seat and v.my_turn for v, t in zip(asked, result.turns, strict=True))
    assert all(t.robot is not None for t in result.turns) and result.robot


def test_json_round_trip() -> None:
    events, _ = play()
    result = analyse(events, LEX, robot=lambda v: "pass")
    data = json.loads(json.dumps(result.to_json()))
    assert GameAnalysis.from_json(data) == result
    assert data["format"] == "jumbulaya-analysis/2"
