"""``manage.py robot``: the robot protocol of seat-view.md, and ``robot match``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.core import lexicons
from games.engine.jumbulaya import PRESETS, GameStarted, GameState, decide, evolve, start
from games.engine.jumbulaya.view import seat_view
from games.engine.tiles import full_set
from tests.conftest import BOARD_LINES, BOARD_RACKS, BOARD_WORDS, CLAIM_THE_BOARD

ROOT = Path(__file__).resolve().parents[1]


def _started(lexicon: str) -> GameStarted:
    """The board deal (conftest's BOARD_LINES), Ann first."""
    left = Counter(full_set())
    left.subtract(t for group in [*BOARD_LINES, *BOARD_RACKS] for t in group)
    return GameStarted(
        rules=PRESETS["official"], lexicon=lexicon, lexicon_sha256="0" * 64,
        players=("ann", "bob"), first=0, lines=tuple(map(tuple, BOARD_LINES)),
        racks=tuple(map(tuple, BOARD_RACKS)), bag=tuple(sorted(left.elements())),
    )  # fmt: skip


def _game(lexicon: str, moves: int = 0) -> tuple[list[Any], GameState]:
    """A game on the board deal, after the first ``moves`` moves that claim it."""
    started = _started(lexicon)
    events: list[Any] = [started]
    state = start(started)
    lex = lexicons.load(lexicon)
    for i, move in enumerate(CLAIM_THE_BOARD[:moves]):
        for event in decide(state, i % 2, move, lex):
            events.append(event)
            state = evolve(state, event)
    return events, state


def _view(events: list[Any], state: GameState, seat: int | None, lexicon: object) -> str:
    return json.dumps(seat_view(events, state, seat, lexicon=lexicon))  # type: ignore[arg-type]


def _run(*lines: str, level: str | None = None) -> list[str]:
    out = io.StringIO()
    args = ["robot", "--seed", "7"] + (["--level", level] if level else [])
    call_command(*args, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return out.getvalue().splitlines()


def test_it_answers_a_seat_view_with_a_legal_move(board_words: str) -> None:
    events, state = _game(board_words, moves=2)
    (answer,) = _run(_view(events, state, 0, board_words))
    assert not answer.startswith(("error", "wait")), answer
    decide(state, 0, answer, lexicons.load(board_words))  # legal: no refusal


def test_it_calls_an_open_jumbulaya_even_off_turn(board_words: str) -> None:
    events, state = _game(board_words, moves=9)  # the board is claimed: SPRINTS is open
    assert state.turn == 1
    (answer,) = _run(_view(events, state, 0, board_words))
    assert answer.startswith("jumbulaya ")
    decide(state, 0, answer, lexicons.load(board_words))


def test_it_waits_off_turn_and_once_the_game_is_over(board_words: str) -> None:
    events, state = _game(board_words, moves=2)
    over = events + [e for e in decide(state, 0, "resign", lexicons.load(board_words))]
    done = evolve(state, over[-1])
    assert _run(_view(events, state, 1, board_words), _view(over, done, 1, board_words)) == [
        "wait",
        "wait",
    ]


def test_every_bad_line_gets_an_error_and_it_goes_on(board_words: str) -> None:
    events, state = _game(board_words, moves=2)
    good = json.loads(_view(events, state, 0, board_words))
    answers = _run(
        "this is not json",
        json.dumps({**good, "format": "jumbulaya-view/9"}),
        json.dumps({**good, "seat": None, "rack": None}),
        json.dumps({**good, "lexicon": "nosuch"}),
        "",
        json.dumps({**good, "lexicon": {"words": ["CAT", "ACT"]}}),
    )
    assert len(answers) == 6
    assert answers[0].startswith("error: this line is not JSON")
    assert answers[1].startswith("error: not a jumbulaya-view/1")
    assert answers[2].startswith("error: ") and "spectator" in answers[2]
    assert answers[3] == "error: unknown lexicon nosuch"
    assert answers[4].startswith("error: ")
    assert not answers[5].startswith("error")  # an inline list is built and used


def test_an_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match=r"unknown robot level 'champion'.*boardspace"):
        _run(level="champion")


def test_the_baseline_answers_too(board_words: str) -> None:
    events, state = _game(board_words, moves=2)
    (answer,) = _run(_view(events, state, 0, board_words), level="boardspace")
    decide(state, 0, answer, lexicons.load(board_words))


def test_a_real_process_answers_each_line_at_once_and_exits_0(tmp_path: Path) -> None:
    words = {"words": sorted(BOARD_WORDS)}
    started = _started("inline")
    events, state = [started], start(started)
    env = {"PATH": "/usr/bin:/bin", "JUMBULAYA_WORDLIST_DIR": str(tmp_path / "wl")}
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "robot", "--seed", "1"], cwd=ROOT, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(_view(events, state, 0, words) + "\n")
    proc.stdin.flush()
    first = proc.stdout.readline()  # answered before the input ends: flushed at once
    assert first.strip() and not first.startswith("error"), first
    proc.stdin.write("{}\n")
    proc.stdin.close()
    rest = proc.stdout.read()
    assert proc.wait(timeout=60) == 0
    assert rest.startswith("error: not a jumbulaya-view/1")
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read()


def test_match_prints_a_results_table(board_words: str) -> None:
    out = io.StringIO()
    call_command(
        "robot", "match", "--levels", "greedy,boardspace", "--games", "2", "--seed", "3",
        "--lexicon", board_words, stdout=out,
    )  # fmt: skip
    table = out.getvalue()
    assert "win rate" in table and "95% interval" in table
    rows = [line.split() for line in table.splitlines()[1:3]]
    assert [r[0] for r in rows] == ["greedy", "boardspace"]
    assert all(r[1] == "2" for r in rows)


def test_match_refuses_bad_levels() -> None:
    with pytest.raises(CommandError, match="two levels"):
        call_command("robot", "match", "--levels", "greedy")
    with pytest.raises(CommandError, match="unknown robot level"):
        call_command("robot", "match", "--levels", "greedy,nobody")
