"""``manage.py replay`` and ``manage.py wordlist`` as an operator runs them."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.core import lexicons
from games.core.records import MAX_INLINE_LETTERS, MAX_INLINE_WORDS
from games.engine.tiles import full_set

ROOT = Path(__file__).resolve().parents[1]


def _record(lexicon: object, turns: list[dict[str, object]]) -> dict[str, object]:
    lines = [["A", "C", "T"], ["O", "R", "ST"], ["B", "E", "D"], ["S", "I", "T"], ["P", "O", "T"],
             ["M", "A", "N"], ["H", "E", "N"], ["D", "O", "G"], ["R", "U", "N"]]  # fmt: skip
    racks = [["F", "S", "E", "R", "TH"], ["A", "B", "I", "N", "O"]]
    left = Counter(full_set())
    left.subtract(t for group in [*lines, *racks, ["E", "L", "N"]] for t in group)
    bag = ["E", "L", "N", *sorted(left.elements())]
    return {
        "format": "jumbulaya-record/1",
        "rules": {"preset": "official", "stall_rounds": 2},
        "lexicon": lexicon,
        "players": ["ann", "bob"],
        "first": 0,
        "setup": {"lines": lines, "racks": racks, "bag": bag},
        "turns": turns,
    }


def _replay(tmp_path: Path, record: object, *, stdin: bool = False) -> tuple[int, Any]:
    env = {"PATH": "/usr/bin:/bin", "JUMBULAYA_WORDLIST_DIR": str(tmp_path / "wl")}
    text = record if isinstance(record, str) else json.dumps(record)
    if stdin:
        args, data = ["-"], text.encode()
    else:
        path = tmp_path / "game.json"
        path.write_text(text)
        args, data = [str(path)], None
    proc = subprocess.run(
        [sys.executable, "manage.py", "replay", *args],
        cwd=ROOT, input=data, capture_output=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert proc.stderr == b"", proc.stderr.decode()
    return proc.returncode, json.loads(proc.stdout)


def test_replay_prints_the_spec_example(tmp_path: Path) -> None:
    words = {"words": ["ACT", "CAT", "FACT", "FACTS"]}
    code, out = _replay(tmp_path, _record(words, [{"seat": 0, "move": "1 FACTS"}]))
    assert code == 0
    assert out["next"] == 1
    assert out["lines"][0] == {"tiles": ["F", "A", "C", "T", "S"], "word": "FACTS", "owner": 0}
    assert out["racks"] == [["E", "R", "TH", "E", "L"], ["A", "B", "I", "N", "O"]]
    assert (out["bag"], out["scores"], out["winners"], out["error"]) == (61, [5, 0], [], None)


def test_replay_takes_inline_word_lists_larger_than_an_upload_may(tmp_path: Path) -> None:
    """The limits on a record's own list are the web upload's (games.core.records): the
    spec sets none, and this command is run by the operator on their own files."""
    many = ("ZZ" + "".join(w) for w in itertools.product("ABCDEFGHIJ", repeat=3))
    words = ["ACT", "CAT", "FACT", "FACTS", *many]
    assert len(words) > MAX_INLINE_WORDS and sum(map(len, words)) > MAX_INLINE_LETTERS
    code, out = _replay(tmp_path, _record({"words": words}, [{"seat": 0, "move": "1 FACTS"}]))
    assert (code, out["error"], out["scores"]) == (0, None, [5, 0])


def test_replay_reads_standard_input_and_the_default_list(tmp_path: Path) -> None:
    record = _record("default", [{"seat": 0, "move": "1 facts"}, {"seat": 1, "move": "1 FACTS"}])
    code, out = _replay(tmp_path, record, stdin=True)
    assert code == 1
    assert out["error"]["turn"] == 1
    assert out["error"]["code"] == "not_new"
    assert out["scores"] == [5, 0]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        (json.dumps({"format": "jumbulaya-record/2"}), "format"),
    ],
)
def test_replay_malformed_records_exit_2_without_traceback(
    tmp_path: Path, text: str, needle: str
) -> None:
    code, out = _replay(tmp_path, text)
    assert code == 2
    assert out["status"] is None and out["lines"] is None
    assert out["error"]["code"] == "bad_record" and out["error"]["turn"] is None
    assert needle in out["error"]["message"]


def test_replay_unknown_word_list_is_bad_record(tmp_path: Path) -> None:
    code, out = _replay(tmp_path, _record("no-such-list", []))
    assert code == 2
    assert "no-such-list" in out["error"]["message"]


@pytest.fixture
def wordlist_dir(tmp_path: Path, settings: Any) -> Iterator[Path]:
    settings.JUMBULAYA_WORDLIST_DIR = tmp_path / "wordlists"
    lexicons.store.cache_clear()
    yield tmp_path / "wordlists"
    lexicons.store.cache_clear()


def test_wordlist_add_list_remove(
    wordlist_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "mine.txt"
    source.write_text("Cat\nact\nfacts\n\nfact\nit's\nCAT\n")
    call_command("wordlist", "add", "mine", str(source))
    out = capsys.readouterr().out
    assert "Installed mine: 4 words" in out
    assert (wordlist_dir / "mine.txt").read_text() == "act\ncat\nfact\nfacts\n"
    lex = lexicons.store().load("mine")
    assert lex.contains(("F", "A", "C", "T", "S")) and not lex.contains(("T", "A", "C", "T"))

    call_command("wordlist", "list")
    listing = capsys.readouterr().out
    assert "mine\t4 words\tsha256 " + lex.sha256 in listing
    assert listing.startswith("default\t172820 words\tsha256 f32e6fbdc4cf9c8e")

    call_command("wordlist", "remove", "mine")
    assert not (wordlist_dir / "mine.txt").exists()
    with pytest.raises(CommandError, match="no word list named 'mine'"):
        call_command("wordlist", "remove", "mine")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["add", "mine", str(ROOT / "no-such-file.txt")], "not a file"),
        (["add", "default", str(ROOT / "pyproject.toml")], "shipped ENABLE list"),
        (["add", "Bad Name!", str(ROOT / "pyproject.toml")], "not a usable list name"),
        (["remove", "default"], "cannot be removed"),
    ],
)
def test_wordlist_refuses_bad_requests(wordlist_dir: Path, args: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        call_command("wordlist", *args)
