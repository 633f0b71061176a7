"""The score chart: each seat's score after every turn, drawn as SVG on the
server (a title, a description, one line per seat, auto-passes marked, the
same numbers as a table) on the game page, the replay and the analysis; and
the game-over email's table."""

from __future__ import annotations

from collections.abc import Callable
from xml.etree import ElementTree

from django.core import mail
from django.test import Client

from games.core.door import submit
from games.mail_out import outbox
from games.models import Event, Game
from tests.conftest import CANARY_LINES, CANARY_RACKS

SVG = "{http://www.w3.org/2000/svg}"


def html_part(message: mail.EmailMessage) -> str:
    assert isinstance(message, mail.EmailMultiAlternatives)
    return next(str(c) for c, mime in message.alternatives if mime == "text/html")


def score_svg(html: str) -> ElementTree.Element:
    """The score chart's SVG of a page, parsed as XML."""
    figure = html.split('data-chart="scores"', 1)[1]
    start = figure.index("<svg")
    return ElementTree.fromstring(figure[start : figure.index("</svg>") + len("</svg>")])


def played(rigged_game: Callable[..., Game]) -> Game:
    """Ann passes, Bob builds CATS, Cy misses the deadline (an auto-pass), then
    Ann and Cy resign: Bob wins."""
    game = rigged_game(CANARY_LINES, CANARY_RACKS, players=3)
    moves = [(0, "pass", "web"), (1, "1 CATS", "web"), (2, "timeout", Event.Source.DEADLINE)]
    moves += [(0, "resign", "web"), (2, "resign", "web")]
    for seat, move, source in moves:
        game.refresh_from_db()
        submit(game.pk, seat, move, game.last_seq, source)
    game.refresh_from_db()
    return game


def check_chart(svg: ElementTree.Element, seats: int) -> None:
    assert svg.get("role") == "img"
    title, desc = svg.find(f"{SVG}title"), svg.find(f"{SVG}desc")
    assert title is not None and title.text == "Scores after every turn"
    assert desc is not None and "Final scores" in (desc.text or "")
    assert svg.get("aria-labelledby") == "scores-title scores-desc"
    assert len(svg.findall(f".//{SVG}polyline")) == seats
    [auto_pass] = svg.findall(".//*[@data-mark='auto-pass']")
    label = auto_pass.find(f"{SVG}title")
    assert label is not None and "Cy: auto-pass" in (label.text or "")


def test_the_chart_on_the_game_replay_and_analysis_pages(
    rigged_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = played(rigged_game)
    assert game.status == Game.Status.OVER
    client = seat_client(game, 1)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/replay/", f"/games/{game.pk}/analysis/"):
        html = client.get(url).content.decode()
        check_chart(score_svg(html), seats=3)
        table = html.split('data-chart="scores"', 1)[1].split("</table>")[0]
        assert '<th scope="col">Bob</th>' in table
        assert "auto-pass (missed deadline)" in table
        # Bob's CATS (line 1) is worth its points from turn 2 on; the deal row is all 0.
        rows = table.split("<tbody>")[1].split("</tr>")
        assert "<td>the deal</td><td>0</td><td>0</td><td>0</td>" in rows[0]
        assert "<td>Bob</td><td>0</td><td>4</td><td>0</td>" in rows[2]
        assert "<td>Cy</td><td>0</td><td>4</td><td>0</td><td>auto-pass" in rows[3]


def test_the_chart_during_play_shows_scores_only(
    rigged_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = rigged_game(CANARY_LINES, CANARY_RACKS, players=3)
    submit(game.pk, 0, "pass", game.last_seq, "web")
    html = seat_client(game, 0).get(f"/games/{game.pk}/").content.decode()
    svg = score_svg(html)
    assert len(svg.findall(f".//{SVG}polyline")) == 3
    assert not svg.findall(".//*[@data-mark]")


def test_the_game_over_email_has_the_scores_as_a_table(rigged_game: Callable[..., Game]) -> None:
    game = played(rigged_game)
    mail.outbox.clear()
    outbox.sweep()
    bob = game.seats.get(index=1).user
    assert bob is not None
    [email] = [m for m in mail.outbox if bob.email in m.to and "is over" in m.subject]
    assert (
        "The scores after every turn:\nTurn Moved Ann Bob Cy Note\n0 the deal 0 0 0\n" in email.body
    )
    assert "\n3 Cy 0 4 0 auto-pass\n" in email.body
    html = html_part(email)
    assert "<caption" in html and "The scores after every turn" in html
    assert "<img" not in html and "<svg" not in html


def test_a_tumble_words_chart_counts_the_moves_not_the_steps_of_its_log(
    started_game: Callable[..., Game],
) -> None:
    """Issue 29, point 8: "17 turns" for 6 crosswords, and "1 turns". A round
    of three players is a roll, a crossword and a reveal: the description
    counts the players' moves, and the table says no one moved at a step no
    player made (only the first step is the deal)."""
    from games.core import score_series
    from games.kinds.tumble.kind import TUMBLE
    from games.web.charts import score_chart

    game = started_game(players=3, kind="tumble", rules=TUMBLE.presets["standard"])
    for n in range(1, 7):
        game.refresh_from_db()
        assert game.turn_seat is not None
        submit(game.pk, game.turn_seat, "submit .", game.last_seq, "web")
        chart = score_chart(score_series.game_series(game))
        assert chart is not None
        assert chart.description.startswith(f"{n} move{'s' if n > 1 else ''} by the players.")
    assert chart.rows[0][1] == "the deal"
    assert {row[1] for row in chart.rows[1:]} == {"Ann", "Bob", "Cy", "no one"}
    assert len(chart.rows) > 7
