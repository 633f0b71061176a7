"""The HTML of game emails: one column at most 600 px wide, inline styles only,
and saying what the plain-text version says."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from test_notify_emails import GAME_KINDS, html_of, prepare, render

from games.core import door
from games.models import Event, Game

#: Widths written in the HTML (``max-width:600px``, ``width:2em``...).
WIDTH = re.compile(r"(?<![-\w])(?:max-)?width:\s*(\d+)px")


def visible_text(markup: str) -> str:
    """The HTML's text as a reader sees it: tags gone, entities read, spaces folded."""
    text = re.sub(r"<[^>]+>", " ", markup)
    return " ".join(html.unescape(text).split())


def moved_game(started_game: Callable[..., Game]) -> Game:
    """A game where both players have passed once: a log to recall."""
    game = started_game()
    for _ in range(2):
        game.refresh_from_db()
        assert game.turn_seat is not None
        door.submit(game.pk, game.turn_seat, "pass", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_one_column_of_600_px_with_inline_styles(
    started_game: Callable[..., Game], kind: str
) -> None:
    game = moved_game(started_game)
    message = render(game, kind, prepare(game, kind))
    assert message is not None
    markup = html_of(message)
    assert "<style" not in markup and "<link" not in markup and "class=" not in markup
    widths = [int(w) for w in WIDTH.findall(markup)]
    assert 600 in widths and max(widths) == 600
    assert markup.count("max-width:600px;margin:0 auto;background:#ffffff") == 1  # one column


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_the_plain_text_says_what_the_html_says(
    started_game: Callable[..., Game], kind: str
) -> None:
    game = moved_game(started_game)
    message = render(game, kind, prepare(game, kind))
    assert message is not None
    shown = visible_text(html_of(message))
    text = str(message.body)
    # Every sentence of the text (its paragraphs, the moves recalled, the
    # scores and the rack) is in the HTML too.
    said = [
        line.removeprefix("- ").strip().removesuffix(":")  # "Last moves:", a heading
        for line in text.split("\n--\n")[0].splitlines()[1:]
        if line.strip()
        and not line.startswith(
            ("http", "Open the game", "The game:", "Replay:", "Analysis:", "The board")
        )
        and not re.match(r"\d  ", line)  # the board, drawn in a table in the HTML
    ]
    assert said
    for sentence in said:
        if sentence.startswith("Your rack: "):
            assert " ".join(shown.split("Your rack:")[1].split()[:5]) in sentence
            continue
        if sentence.startswith("Scores: "):
            sentence = sentence.replace(",", " ·")
        assert sentence in shown, sentence
