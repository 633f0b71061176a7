"""``manage.py`` commands on the crossword game: ``replay`` on every
conformance case, ``rebuild_games``, ``robot --kind crossword`` (answers and a
match) and ``analyse``."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.core import door
from games.engine.crossword import view
from games.engine.crossword.deal import deal
from games.engine.crossword.fold import start
from games.engine.crossword.options import PRESETS
from games.models import Event, Game, GameAnalysis
from tests.contract.play import seat_user, signed_in

CASES = sorted((Path(__file__).parents[2] / "conformance" / "crossword").glob("*.json"))


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_replay_prints_each_conformance_case_s_outcome(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(case.read_text())
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data["record"]))
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path))
    expect = data["expect"]
    assert exited.value.code == expect["exit"]
    out = json.loads(capsys.readouterr().out)
    for key, value in expect.items():
        if key == "exit":
            continue
        if key == "error":
            assert out["error"]["code"] == value["code"]
        else:
            assert out[key] == value, key


def test_rebuild_games_replays_a_crossword_game(xw_game: Callable[..., Game]) -> None:
    game = xw_game(["JESUSAT", "DOGCATE"])
    door.submit(game.pk, 0, "8H JESUS", game.last_seq, Event.Source.WEB)
    Game.objects.filter(pk=game.pk).update(state=None, last_seq=0)
    out = StringIO()
    call_command("rebuild_games", stdout=out)
    assert f"game {game.pk}: the cached projection differed" in out.getvalue()
    game.refresh_from_db()
    assert game.last_seq == 2 and game.state is not None and game.turn_seat == 1
    assert game.state["points"] == [41, 0]


def _view_line(seat: int) -> str:
    started = deal(("Ann", "Bob"), PRESETS["standard"], "default", random.Random(7))
    state = start(started)
    doc = view.seat_view([started], state, seat, lexicon="default")
    return json.dumps(doc)


def test_robot_answers_crossword_views_by_level() -> None:
    started = deal(("Ann", "Bob"), PRESETS["standard"], "default", random.Random(7))
    mover = started.first
    lines = [_view_line(mover), _view_line(1 - mover), "{}", '{"format": "crossword-view/1"}']
    out = StringIO()
    call_command(
        "robot", "--kind", "crossword", "--level", "greedy", "--seed", "3",
        stdin=StringIO("\n".join(lines) + "\n"), stdout=out,
    )  # fmt: skip
    answers = out.getvalue().splitlines()
    assert len(answers) == 4
    square, word = answers[0].split()
    assert square in ("8H", "H8") or square[:-1].isdigit() or square[1:].isdigit()
    assert word.isalpha()
    assert answers[1] == "wait"  # not its turn
    assert answers[2] == "error: 'format' must be 'crossword-view/1', not None"
    assert answers[3] == "error: the view has no 'players'"


def test_robot_match_between_crossword_levels_prints_win_rates() -> None:
    out = StringIO()
    call_command(
        "robot", "--kind", "crossword", "match", "--levels", "beginner,greedy", "--games", "2",
        stdout=out, stderr=StringIO(),
    )  # fmt: skip
    table = out.getvalue()
    assert table.splitlines()[0].split()[:3] == ["level", "games", "won"]
    assert "beginner" in table and "greedy" in table and "95% interval" in table


def test_analyse_stores_the_analysis_of_a_finished_game_and_its_page_shows_it(
    xw_game: Callable[..., Game],
) -> None:
    game = xw_game(["JESUSAT", "DOGCATE"])
    door.submit(game.pk, 0, "8H JETS", game.last_seq, Event.Source.WEB)
    game.refresh_from_db()
    door.submit(game.pk, 1, "resign", game.last_seq, Event.Source.WEB)
    call_command("analyse", "--game", str(game.pk), stdout=StringIO(), stderr=StringIO())
    stored = GameAnalysis.objects.get(game=game)
    assert stored.format == "crossword-analysis/1"
    first = stored.data["turns"][0]
    # JETS at 8H scores (8 + 1 + 1 + 1) × 2 = 22.  The best is JESUS with its J on
    # the double letter at 8D (or D8) and its last S on the star: (16 + 1 + 1 + 1 + 1)
    # × 2 + 15 = 55, so 33 were left on the table.
    assert first["move"] == "8H JETS" and first["points"] == 22
    assert first["best_points"] == 55 and first["best"] in ("8D JESUS", "D8 JESUS")
    assert stored.data["totals"][0]["left"] == 33
    assert stored.data["robot"] == "strong" and first["robot"]
    # The analysis page shows each turn against the best.
    client = signed_in(seat_user(game, 0))
    page = client.get(f"/games/{game.pk}/analysis/").content.decode()
    assert "Turn by turn" in page and "8H JETS" in page
    assert "<td>22</td>" in page and "<td>55</td>" in page and "<td>33</td>" in page
    assert "Analysis</a>" in client.get(f"/games/{game.pk}/").content.decode()
