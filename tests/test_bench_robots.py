"""The bench's robots section on a small word list: its figures' shape and its goals."""

from __future__ import annotations

from bench import robots
from bench.positions import long_log, play_games
from games.engine import lexicon_from_words
from tests.conftest import BOARD_WORDS

WORDS = [*BOARD_WORDS, "CAT", "ACT", "TACT", "RATE", "TEAR", "STARE", "ASTER", "TREAT", "EAT"]


def test_the_robots_section_reports_times_the_analysis_and_a_ladder() -> None:
    lexicon = lexicon_from_words(WORDS)
    games = play_games(2, 5, lexicon)
    log = long_log(41, 5, lexicon)
    figures = robots.run(lexicon, games, log, seed=5, ladder_games=2)
    assert set(figures["decision_ms"]) == {*figures["levels"], "boardspace"}
    assert figures["decision_ms"][figures["strongest"]]["count"] > 0
    assert figures["analysis_s"]["turns"] == 40
    (baseline,) = [row for row in figures["ladder"] if row["b"] == "boardspace"]
    assert baseline["a"] == figures["strongest"] and baseline["games"] == 2
    lo, hi = baseline["interval95"]
    assert 0 <= lo <= baseline["win_rate"] <= hi <= 1
    met = robots.goals(figures)
    assert set(met) == {"robots_strongest_ms", "robots_weakest_ms", "robots_analysis_s"}
