"""Rule presets and options, events as dicts, word lists and their store."""

from __future__ import annotations

import hashlib
import json
import marshal
from pathlib import Path

import pytest

import games.engine.lexicon as lexicon_module
from games.engine.jumbulaya import (
    PRESETS,
    BadRecord,
    Event,
    Exchanged,
    GameStarted,
    JumbulayaFailed,
    JumbulayaVerified,
    Lexicon,
    LexiconStore,
    Passed,
    Resigned,
    Rules,
    TimedOut,
    UnknownWordList,
    WordBuilt,
    WordListText,
    from_dict,
    lexicon_from_words,
    rules_from_json,
    to_dict,
)
from games.engine.jumbulaya.events import EVENT_TYPES
from games.engine.lexicon import DEFAULT_PATH

ENABLE_SHA256 = "f32e6fbdc4cf9c8ec1d992193d7ac33e773fc850ba47ebe2c791ab9d61913d49"

# --- rules ---------------------------------------------------------------------


def test_presets() -> None:
    assert PRESETS["official"].options() == {
        "rack_limit": 2,
        "new_word": "current",
        "stall_rounds": 0,
        "jumbulaya_bonus": True,
        "jumbulaya_cooldown": True,
    }
    assert PRESETS["boardspace"].options() == {
        "rack_limit": 2,
        "new_word": "history",
        "stall_rounds": 2,
        "jumbulaya_bonus": False,
        "jumbulaya_cooldown": False,
    }
    assert rules_from_json({}) == PRESETS["official"]
    assert rules_from_json({"preset": "boardspace"}) == PRESETS["boardspace"]


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("rack_limit", 3),
        ("rack_limit", 0),
        ("rack_limit", 2),
        ("new_word", "history"),
        ("stall_rounds", 5),
        ("jumbulaya_bonus", False),
        ("jumbulaya_cooldown", False),
    ],
)
def test_each_option_overrides_the_preset(option: str, value: object) -> None:
    rules = rules_from_json({"preset": "official", option: value})
    assert getattr(rules, option) == value
    assert rules.preset == "official"
    changed = {option: value} if value != getattr(PRESETS["official"], option) else {}
    assert rules.to_json() == {"preset": "official", **changed}
    assert rules_from_json(rules.to_json()) == rules


@pytest.mark.parametrize(
    "data",
    [
        {"preset": "official", "rack_size": 2},
        {"preset": "nonesuch"},
        {"preset": ["official"]},
        {"preset": None},
        {"rack_limit": True},  # a bool is not a whole number
        {"rack_limit": 2.0},
        {"rack_limit": "2"},
        {"rack_limit": -1},
        {"stall_rounds": False},
        {"stall_rounds": None},
        {"new_word": "never"},
        {"new_word": ["current"]},
        {"jumbulaya_bonus": 1},
        {"jumbulaya_cooldown": "true"},
        ["official"],
        "official",
    ],
)
def test_bad_rules_are_bad_record(data: object) -> None:
    with pytest.raises(BadRecord) as info:
        rules_from_json(data)
    assert info.value.code == "bad_record"
    assert info.value.message


def test_unknown_option_message_names_known_options() -> None:
    with pytest.raises(BadRecord, match="rack_limit"):
        rules_from_json({"rack_size": 2})


# --- events --------------------------------------------------------------------

EVENTS: list[Event] = [
    GameStarted(
        rules=Rules(preset="boardspace", stall_rounds=3),
        lexicon="default",
        lexicon_sha256=ENABLE_SHA256,
        players=("ann", "bob"),
        first=1,
        lines=(("A", "C", "T"),) * 9,
        racks=(("F", "QU"), ("TH",)),
        bag=("E", "L"),
    ),
    WordBuilt(0, 2, ("F", "A", "C", "T", "ST"), ("E", "L")),
    Passed(1),
    TimedOut(0),
    Exchanged(1, ("QU", "X"), ("A", "B")),
    JumbulayaVerified(0, tuple("SPRINTS"), (0, 1, 2, 4, 5, 6, 8), 10),
    JumbulayaFailed(1, "STRAIGHT", "it cannot be spelled down the board"),
    Resigned(1),
]


def test_every_event_type_is_covered() -> None:
    assert {e.type for e in EVENTS} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.type)
def test_event_dict_round_trip(event: Event) -> None:
    data = to_dict(event)
    assert data["type"] == event.type and data["v"] == event.version
    assert from_dict(data) == event
    assert from_dict(json.loads(json.dumps(data))) == event


# --- word lists ----------------------------------------------------------------


def test_word_list_text_is_canonical() -> None:
    text = WordListText.from_lines(["b", " A ", "a", "", "x1", "can't", "Cat\n"])
    assert text.words == ("A", "B", "CAT")
    assert text.skipped == 2
    assert text.canonical_text() == "a\nb\ncat\n"
    assert text.sha256 == hashlib.sha256(b"a\nb\ncat\n").hexdigest()
    assert WordListText.from_lines(["CAT", "b", "a"]).sha256 == text.sha256


def test_enable_sha256(enable: Lexicon) -> None:
    assert WordListText.from_path(DEFAULT_PATH).sha256 == ENABLE_SHA256
    assert enable.sha256 == ENABLE_SHA256
    assert enable.name == "default"
    assert enable.contains(tuple("SPRINTS"))
    assert enable.contains(("O", "TH", "ER"))
    assert not enable.contains(tuple("SPRINTX"))


def test_lexicon_bytes_round_trip() -> None:
    lex = lexicon_from_words(["CAT", "ACT", "OTHER", "EQUALLY", "SPRINTS"], name="tiny")
    again = Lexicon.from_bytes(lex.to_bytes())
    assert (again.name, again.sha256, len(again)) == ("tiny", lex.sha256, 5)
    assert Lexicon.from_bytes(lex.to_bytes(), "renamed").name == "renamed"
    for tiles in [("C", "A", "T"), ("O", "TH", "ER"), ("E", "QU", "A", "L", "LY"), ("T", "A", "C")]:
        assert again.contains(tiles) == lex.contains(tiles)
    assert again.anagrams(("T", "C", "A")) == lex.anagrams(("T", "C", "A"))
    assert sorted(again.anagrams(("T", "C", "A"))) == [("A", "C", "T"), ("C", "A", "T")]
    assert list(again.trie.mask) == list(lex.trie.mask)
    with pytest.raises((ValueError, EOFError)):
        Lexicon.from_bytes(b"\xe9")  # marshal refuses it
    with pytest.raises(ValueError):
        Lexicon.from_bytes(marshal.dumps((999, "x")))


def _write(path: Path, words: list[str]) -> Path:
    path.write_text("\n".join(words) + "\n")
    return path


def test_store_install_load_names_remove(tmp_path: Path) -> None:
    store = LexiconStore(tmp_path / "lists")
    assert store.names() == ["default"]
    src = _write(tmp_path / "src.txt", ["zebra", "Apple", "apple", "bad word"])
    lex = store.install("fruit", src)
    assert lex.name == "fruit" and len(lex) == 2
    assert lex.sha256 == hashlib.sha256(b"apple\nzebra\n").hexdigest()
    assert (tmp_path / "lists" / "fruit.txt").read_text() == "apple\nzebra\n"
    assert store.names() == ["default", "fruit"]
    assert store.load("fruit") is lex
    assert store.sha256_of("fruit") == lex.sha256
    store.remove("fruit")
    assert store.names() == ["default"]
    with pytest.raises(UnknownWordList):
        store.load("fruit")
    with pytest.raises(UnknownWordList):
        store.remove("fruit")


def test_store_refuses_bad_names_and_the_default(tmp_path: Path) -> None:
    store = LexiconStore(tmp_path)
    src = _write(tmp_path / "src.txt", ["cat"])
    for name in ("Bad", "", "../x", "-x", "a" * 65):
        with pytest.raises(ValueError):
            store.install(name, src)
    with pytest.raises(ValueError):
        store.install("default", src)
    with pytest.raises(ValueError):
        store.remove("default")
    with pytest.raises(ValueError, match="no words"):
        store.install("empty", _write(tmp_path / "empty.txt", ["1", "two words"]))


def test_second_store_loads_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = _write(tmp_path / "src.txt", ["cat", "act", "sprints"])
    built = LexiconStore(tmp_path / "lists").install("small", src)

    def no_build(*args: object, **kwargs: object) -> Lexicon:
        raise AssertionError("the index was built again instead of read from the cache")

    monkeypatch.setattr(lexicon_module, "build_lexicon", no_build)
    again = LexiconStore(tmp_path / "lists").load("small")
    assert again.sha256 == built.sha256 and again.name == "small"
    assert again.contains(tuple("SPRINTS"))


def test_default_list_cache_is_reused(
    enable: Lexicon, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path_factory.mktemp("wl2")
    cache = root / "cache"
    cache.mkdir()
    (cache / f"{ENABLE_SHA256}.v{lexicon_module.CACHE_FORMAT}.marshal").write_bytes(
        enable.to_bytes()
    )

    def no_build(*args: object, **kwargs: object) -> Lexicon:
        raise AssertionError("rebuilt")

    monkeypatch.setattr(lexicon_module, "build_lexicon", no_build)
    lex = LexiconStore(root).load("default")
    assert lex.sha256 == ENABLE_SHA256 and len(lex) == len(enable)


def test_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    src = _write(tmp_path / "src.txt", ["cat"])
    built = LexiconStore(tmp_path / "lists").install("one", src)
    (cached,) = (tmp_path / "lists" / "cache").iterdir()
    cached.write_bytes(b"garbage")
    again = LexiconStore(tmp_path / "lists").load("one")
    assert again.sha256 == built.sha256 and again.contains(tuple("CAT"))
