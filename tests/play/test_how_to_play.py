"""A way in (issue 29, point 10): a How to play page for each game, its rules
in the kind's own words with a small drawn example (HTML and CSS only, within
the Content-Security-Policy), the notation and the options; linked from the
home page (which presents every game), the create page, the game page and
every email. The examples' numbers are the engines' own."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from games import kinds
from games.engine.jumbulaya import PRESETS as JUMBULAYA_PRESETS
from games.engine.jumbulaya import runs_down
from games.engine.jumbulaya.state import jumbulaya_points, line_points
from games.kinds import presentation
from games.models import Game
from tests.conftest import BOARD_LINES
from tests.test_csp import inline_code
from tests.wording import main_of, other_kinds_named, plural_slips, text_of

pytestmark = pytest.mark.django_db

KINDS = [kind.name for kind in kinds.all()]


def page_of(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


@pytest.mark.parametrize("name", KINDS)
def test_each_game_has_a_page_of_its_rules_notation_and_options(client: Client, name: str) -> None:
    kind = kinds.get(name)
    shown = presentation.of(kind)
    html = page_of(client, f"/how-to-play/{name}/")
    words = text_of(html)
    assert f"<h1>How to play {kind.label}</h1>" in html
    assert all(rule in words for rule in shown.rules_in_words(next(iter(kind.presets.values()))))
    assert all(" ".join(form.split()) in words for form in shown.accepted_forms[:-1])
    assert all(label in words for label in kind.preset_labels.values())
    assert all(option.label in words for option in kind.option_fields)
    assert '<figure class="htp-figure">' in html  # the drawn example
    assert inline_code(html) == []  # no style attribute, no inline script
    own = text_of(main_of(html).split('<nav class="htp-games"', 1)[0])
    own += text_of(main_of(html).split("</nav>", 1)[1])  # the links to the others aside
    assert plural_slips(own) == [] and other_kinds_named(own, name) == []
    for other in kinds.all():  # and the way to every other game's page
        assert f'href="/how-to-play/{other.name}/"' in html or other.name == name


def test_an_unknown_game_is_a_404(client: Client) -> None:
    assert client.get("/how-to-play/chess/").status_code == 404


def test_the_home_page_presents_every_game_with_its_page(client: Client) -> None:
    html = page_of(client, "/")
    words = text_of(html)
    for kind in kinds.all():
        assert kind.label in words and kind.description[0].upper() + kind.description[1:] in words
        assert f'<a href="/how-to-play/{kind.name}/">How to play {kind.label}</a>' in html
    assert "the rearranging word game, played over days" not in words  # JUMBULAYA's alone
    index = page_of(client, "/how-to-play/")
    assert all(f'href="/how-to-play/{kind.name}/"' in index for kind in kinds.all())
    assert 'href="/how-to-play/"' in html  # the footer of every page


@pytest.mark.parametrize("name", KINDS)
def test_the_create_and_game_pages_link_the_games_page(
    client: Client,
    started_game: Callable[..., Game],
    make_user: Callable[[str], User],
    name: str,
) -> None:
    kind = kinds.get(name)
    rules = next(iter(kind.presets.values()))
    game = started_game(players=max(2, kind.min_players), kind=name, rules=rules, is_public=True)
    user = game.seats.get(index=0).user
    assert user is not None
    client.force_login(user)
    link = f'href="/how-to-play/{name}/"'
    assert link in page_of(client, "/games/new/")
    assert link in page_of(client, f"/games/{game.pk}/")
    client.force_login(make_user("zoe"))
    assert link in page_of(client, f"/games/{game.pk}/")  # a spectator too


def test_jumbulayas_example_scores_as_the_engine_says(client: Client) -> None:
    words = text_of(page_of(client, "/how-to-play/jumbulaya/"))
    assert line_points(("F", "A", "C", "T", "S")) == 5
    assert "worth 5 points" in words
    sprints = ("S", "P", "R", "I", "N", "T", "S")
    assert runs_down([tuple(line) for line in BOARD_LINES], sprints) == (0, 1, 2, 3, 4, 5, 6)
    assert jumbulaya_points(sprints, JUMBULAYA_PRESETS["official"]) == 10
    assert "scores 10 points" in words


def test_the_crosswords_example_scores_as_the_engine_says(client: Client) -> None:
    from games.engine.crossword.board import EMPTY_BOARD
    from games.engine.crossword.commands import decide
    from games.engine.crossword.events import GameStarted, Played
    from games.engine.crossword.fold import evolve, start
    from games.engine.crossword.options import PRESETS

    state = start(
        GameStarted(
            PRESETS["standard"], "test", ("a", "b"), (), 0, ("FACTSQZ", "IEQZXJK"), "", EMPTY_BOARD
        )
    )
    points = []
    for seat, move in ((0, "8H FACTS"), (1, "J7 I(C)E")):
        for event in decide(state, seat, move, frozenset({"FACTS", "ICE"})):
            if isinstance(event, Played):
                points.append(event.points)
            state = evolve(state, event)
    assert points == [22, 5]
    words = text_of(page_of(client, "/how-to-play/crossword/"))
    assert "(4 + 1 + 3 + 1 + 2) × 2 = 22 points" in words and "1 + 3 + 1 = 5 points" in words


def test_tumble_words_example_scores_as_the_engine_says(client: Client) -> None:
    from games.engine import tumble as engine

    html = page_of(client, "/how-to-play/tumble/")
    roll = html.split('data-roll="', 1)[1][:13]
    rows = html.split('<pre class="htp-rows">', 1)[1].split("</pre>", 1)[0]
    scored = engine.check(engine.parse_grid(rows), roll, {"CAPED", "CAT"})
    assert scored.total == 10
    words = text_of(html)
    assert "all red cubes" in words and "\u22126: 10 points" in words


def test_blockers_example_is_three_legal_moves(client: Client) -> None:
    from games.engine.blockers.commands import decide
    from games.engine.blockers.events import GameStarted
    from games.engine.blockers.fold import evolve, start
    from games.engine.blockers.options import Options

    racks = (("7", "1"), ("C", "1"), ("S5", "1"))
    state = start(GameStarted(Options(), ("Ann", "Bob", "Cy"), 0, racks, ((), (), ())))
    moves = ("7 at C7", "C at C2", "S5 at E4")
    for seat, move in enumerate(moves):
        for event in decide(state, seat, move):
            state = evolve(state, event)
    assert state.colours == ("yellow", "blue", "green")
    assert state.scores() == [1, 1, 1]  # one group each
    words = text_of(page_of(client, "/how-to-play/blockers/"))
    assert all(move in words for move in ("7 at C7", "C at C2", "S5 at E4"))
