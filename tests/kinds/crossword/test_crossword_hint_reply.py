"""The answer to a ``hint`` reply in the crossword game: worded by its
presentation ("the best plays for your rack"), not in JUMBULAYA's words."""

from __future__ import annotations

from collections.abc import Callable

from games.coach.hints import HINTS_OFF, find
from games.mail_in.hint_answers import hints_text
from games.models import Game


def test_the_answer_names_the_best_plays_by_points(xw_game: Callable[..., Game]) -> None:
    game = xw_game(["JESUSAT", "DOGCATE"], hints=True)
    found = find(game, 0)
    assert found
    text = hints_text(game, 0)
    first, *lines = text.splitlines()
    assert first == f"The best plays for your rack now (at move #{game.last_seq}):"
    assert "word moves" not in text and "JUMBULAYA" not in text and "line" not in text
    # JESUS through the star, its J on a double letter: (16 + 1 + 1 + 1 + 1) × 2 + 15 = 55.
    assert lines[0] in ("- 8D JESUS: 55 points", "- D8 JESUS: 55 points")
    assert lines == [f"- {h.notation}: {h.points} points" for h in found]


def test_without_hints_the_answer_says_they_are_off(xw_game: Callable[..., Game]) -> None:
    game = xw_game(["JESUSAT", "DOGCATE"])
    assert hints_text(game, 0) == HINTS_OFF


def test_a_rack_without_a_play_is_told_so(xw_game: Callable[..., Game]) -> None:
    game = xw_game(["QZXJVVW", "DOGCATE"], hints=True)  # no vowel: no word
    assert hints_text(game, 0) == (
        "Your rack makes no word on the board now: a pass or an exchange may be best."
    )
