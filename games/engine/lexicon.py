"""Word lists and their search indexes.

A :class:`Lexicon` answers three questions fast:

* does this spelling spell a listed word (:meth:`Lexicon.contains`),
* which spellings use exactly this multiset of tiles (:meth:`Lexicon.anagrams`),
  probed with an additive :func:`multiset_key` so move generation can add and
  remove tiles from a key with one integer operation,
* which 7–9 tile words run down a board (:meth:`Lexicon.trie`, walked by
  :mod:`games.engine.jumbulaya`).

Every word is expanded into all of its tile spellings once, when the index is
built; the index is then cached on disk, keyed by the list's SHA-256, and a cold
process loads the cached form instead of building it again.

A list's identity is the SHA-256 of its canonical text: the unique words,
lower-case, sorted, one per line, each line ending in a newline.  For ENABLE that
is exactly the published file.
"""

from __future__ import annotations

import gzip
import hashlib
import marshal
import os
import re
import tempfile
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .tiles import FACES, JUMBULAYA_MAX, JUMBULAYA_MIN, MAX_LINE_TILES, Tiles, spellings

#: Bumped whenever the cached form changes shape.
CACHE_FORMAT = 4

FACE_INDEX: dict[str, int] = {f: i for i, f in enumerate(FACES)}
FACE_BIT: dict[str, int] = {f: 1 << i for i, f in enumerate(FACES)}
KEY_MASK = (1 << 64) - 1


def _weights() -> dict[str, int]:
    # Fixed pseudo-random 64-bit weights, one per face, derived from the face names
    # so every process (and every cached index) agrees on them.
    return {
        f: int.from_bytes(hashlib.sha256(f"jumbulaya-tile:{f}".encode()).digest()[:8], "little") | 1
        for f in FACES
    }


#: Additive multiset key: ``key(a + b) == (key(a) + key(b)) & KEY_MASK``.  Keys of
#: distinct multisets in a built index are checked to differ; a probe that hits
#: is checked against the tiles it was meant to use (see ``movegen``).
WEIGHT: dict[str, int] = _weights()
#: The exact key of a multiset: four bits of count per face (a line never holds
#: 16 tiles), 128 bits in all.  Stored beside each table slot so a probe that
#: lands on a slot can be confirmed exactly.
EXACT: dict[str, int] = {f: 1 << (4 * i) for i, f in enumerate(FACES)}
#: One character per tile in the index's stored spellings.
_CODE: dict[str, str] = {f: (f if len(f) == 1 else str(i - 24)) for i, f in enumerate(FACES)}
_DECODE: dict[str, str] = {c: f for f, c in _CODE.items()}
_EXACT_OF_CODE: dict[str, int] = {c: EXACT[f] for f, c in _CODE.items()}

_WORD_RE = re.compile(r"[a-z]+")

#: The longest word that has a spelling of at most :data:`MAX_LINE_TILES` tiles
#: (every tile two letters).  A longer word can never be played, and expanding it
#: would cost time exponential in its length (``"ST" * 30`` has 2**30 spellings),
#: so :func:`build_lexicon` skips it.
MAX_WORD_LETTERS = 2 * MAX_LINE_TILES

DEFAULT_NAME = "default"
DEFAULT_PATH = Path(__file__).with_name("data") / "enable1.txt.gz"


def multiset_key(tiles: Iterable[str]) -> int:
    """The additive 64-bit key of a multiset of tiles."""
    return sum(map(WEIGHT.__getitem__, tiles)) & KEY_MASK


#: Turns a stored spelling's code into its letters in one C-level call.
CODE_LETTERS = str.maketrans({c: f for f, c in _CODE.items() if len(f) == 2})


def exact_key(tiles: Iterable[str]) -> int:
    """The exact 128-bit key of a multiset of tiles (additive too)."""
    return sum(map(EXACT.__getitem__, tiles))


def exact_key_of_code(code: str) -> int:
    """The exact key of a stored spelling."""
    return sum(map(_EXACT_OF_CODE.__getitem__, code))


def encode(tiles: Tiles) -> str:
    return "".join(map(_CODE.__getitem__, tiles))


def decode(code: str) -> Tiles:
    return tuple(map(_DECODE.__getitem__, code))


@dataclass(frozen=True, slots=True)
class WordListText:
    """A word list in canonical form, with its identity."""

    words: tuple[str, ...]  # upper-case, unique, sorted
    sha256: str
    skipped: int  # input lines that were not plain a-z words

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> WordListText:
        """Normalise any plain-text list: trims, lower-cases, drops blank lines and
        anything that is not a word of letters a-z (counted in ``skipped``)."""
        words: set[str] = set()
        skipped = 0
        for raw in lines:
            w = raw.strip().lower()
            if not w:
                continue
            if _WORD_RE.fullmatch(w):
                words.add(w)
            else:
                skipped += 1
        ordered = sorted(words)
        canonical = "".join(w + "\n" for w in ordered).encode("ascii")
        return cls(
            tuple(w.upper() for w in ordered), hashlib.sha256(canonical).hexdigest(), skipped
        )

    @classmethod
    def from_path(cls, path: Path) -> WordListText:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
            return cls.from_lines(fh)

    def canonical_text(self) -> str:
        return "".join(w.lower() + "\n" for w in self.words)


class Trie:
    """The tile spellings of every 7–9 tile word, as a compact array trie.

    Node ``n`` has a bitmask of child faces ``mask[n]``; its children are stored
    consecutively from ``first[n] >> 1`` in face order, so the child for face
    index ``f`` is ``(first[n] >> 1) + popcount(mask[n] & ((1 << f) - 1))``.
    The low bit of ``first[n]`` marks a node that ends a word.  Node 0 is the root.
    """

    __slots__ = ("first", "mask")

    def __init__(self, mask: array[int], first: array[int]) -> None:
        self.mask = mask
        self.first = first

    @classmethod
    def build(cls, words: Iterable[Tiles]) -> Trie:
        root: dict[int, dict] = {}  # type: ignore[type-arg]
        END = -1
        for w in words:
            node = root
            for t in w:
                node = node.setdefault(FACE_INDEX[t], {})
            node[END] = {}
        mask = array("I")
        first = array("I")
        order = [root]
        i = 0
        while i < len(order):
            node = order[i]
            kids = sorted(k for k in node if k != END)
            m = 0
            for k in kids:
                m |= 1 << k
            mask.append(m)
            first.append((len(order) << 1) | (END in node))
            order.extend(node[k] for k in kids)
            i += 1
        return cls(mask, first)

    def __len__(self) -> int:
        return len(self.mask)


class AnagramTable:
    """Multiset key -> stored spellings, as an open-addressing hash table in flat
    arrays, so a cold process loads it with a few ``frombytes`` calls instead of
    rebuilding a dict of 180,000 entries.

    Slot ``i`` holds a 64-bit key in ``keys[i]`` (0: empty) and its entry, the
    spellings of that multiset as ``" code code "``, at
    ``blob[starts[i] : starts[i] + lens[i]]``.  Every entry holds one multiset:
    the build refuses two multisets that share a key.
    """

    __slots__ = ("blob", "keys", "lens", "mask", "starts")

    def __init__(self, keys: array[int], starts: array[int], lens: array[int], blob: str) -> None:
        self.keys = keys
        self.starts = starts
        self.lens = lens
        self.blob = blob
        self.mask = len(keys) - 1

    @classmethod
    def build(cls, buckets: dict[int, list[str]]) -> AnagramTable:
        size = 1 << max(4, (2 * len(buckets)).bit_length())
        mask = size - 1
        keys = array("Q", bytes(8 * size))
        starts = array("I", bytes(4 * size))
        lens = array("H", bytes(2 * size))
        parts: list[str] = []
        offset = 0
        for key, codes in buckets.items():
            if key == 0:
                raise ValueError("a multiset key of 0 cannot be stored")
            entry = " " + " ".join(codes) + " "
            i = key & mask
            while keys[i]:
                i = (i + 1) & mask
            keys[i] = key
            starts[i] = offset
            lens[i] = len(entry)
            parts.append(entry)
            offset += len(entry)
        return cls(keys, starts, lens, "".join(parts))

    def get(self, key: int) -> str | None:
        keys = self.keys
        mask = self.mask
        i = key & mask
        while True:
            k = keys[i]
            if k == key:
                s = self.starts[i]
                return self.blob[s : s + self.lens[i]]
            if not k:
                return None
            i = (i + 1) & mask

    def __len__(self) -> int:
        return sum(1 for k in self.keys if k)


class Lexicon:
    """One word list, ready for play.  Build it with :func:`build_lexicon` or load
    it with :meth:`LexiconStore.load`."""

    __slots__ = ("name", "sha256", "table", "trie", "word_count")

    def __init__(
        self, name: str, sha256: str, word_count: int, table: AnagramTable, trie: Trie
    ) -> None:
        self.name = name
        self.sha256 = sha256
        self.word_count = word_count
        self.table = table
        self.trie = trie

    def contains(self, tiles: Tiles) -> bool:
        """Whether this spelling's letters are a listed word (any spelling of at
        most 10 tiles of a listed word is in the index)."""
        entry = self.table.get(sum(map(WEIGHT.__getitem__, tiles)) & KEY_MASK)
        return entry is not None and " " + "".join(map(_CODE.__getitem__, tiles)) + " " in entry

    def anagrams(self, tiles: Iterable[str]) -> list[Tiles]:
        """Every listed spelling that uses exactly these tiles, in any order."""
        tiles = tuple(tiles)
        entry = self.table.get(multiset_key(tiles))
        if not entry:
            return []
        want = sorted(tiles)
        return [sp for sp in map(decode, entry.split()) if sorted(sp) == want]

    def __len__(self) -> int:
        return self.word_count

    def __repr__(self) -> str:
        return f"<Lexicon {self.name} {self.sha256[:12]} {self.word_count} words>"

    def to_bytes(self) -> bytes:
        t = self.table
        return marshal.dumps(
            (
                CACHE_FORMAT,
                self.name,
                self.sha256,
                self.word_count,
                t.keys.tobytes(),
                t.starts.tobytes(),
                t.lens.tobytes(),
                t.blob,
                self.trie.mask.tobytes(),
                self.trie.first.tobytes(),
            )
        )

    @classmethod
    def from_bytes(cls, data: bytes, name: str | None = None) -> Lexicon:
        head = marshal.loads(data)
        if not isinstance(head, tuple) or len(head) != 10 or head[0] != CACHE_FORMAT:
            raise ValueError(f"not a cached index of format {CACHE_FORMAT}")
        _, stored_name, sha, count, *raw, blob, mask_b, first_b = head
        arrays = [array(code) for code in "QIH"]
        for arr, chunk in zip(arrays, raw, strict=True):
            arr.frombytes(chunk)
        keys, starts, lens = arrays
        trie_mask = array("I")
        trie_mask.frombytes(mask_b)
        trie_first = array("I")
        trie_first.frombytes(first_b)
        return cls(
            name or stored_name,
            sha,
            count,
            AnagramTable(keys, starts, lens, blob),
            Trie(trie_mask, trie_first),
        )


def build_lexicon(
    text: WordListText,
    name: str,
    progress: Callable[[int], None] | None = None,
) -> Lexicon:
    """Index a word list: every spelling of at most 10 tiles goes into the anagram
    table, every spelling of 7–9 tiles into the JUMBULAYA trie; a word longer than
    :data:`MAX_WORD_LETTERS` has no such spelling and is not expanded.  ``progress``
    is called with the number of words done, now and then."""
    buckets: dict[int, list[str]] = {}
    exact_of: dict[int, int] = {}
    long_spellings: list[Tiles] = []
    for n, word in enumerate(text.words, 1):
        for sp in spellings(word) if len(word) <= MAX_WORD_LETTERS else ():
            if len(sp) > MAX_LINE_TILES:
                continue
            key = multiset_key(sp)
            exact = exact_key(sp)
            if exact_of.setdefault(key, exact) != exact:
                # Two multisets of the list share a 64-bit key (odds about 2**-40 per list).
                raise ValueError(f"multiset key collision at {word}")
            buckets.setdefault(key, []).append(encode(sp))
            if JUMBULAYA_MIN <= len(sp) <= JUMBULAYA_MAX:
                long_spellings.append(sp)
        if progress is not None and n % 5000 == 0:
            progress(n)
    if progress is not None:
        progress(len(text.words))
    spellings.cache_clear()
    return Lexicon(
        name, text.sha256, len(text.words), AnagramTable.build(buckets), Trie.build(long_spellings)
    )


def lexicon_from_words(words: Iterable[str], name: str = "inline") -> Lexicon:
    """A lexicon from a few words (records carry small inline lists)."""
    return build_lexicon(WordListText.from_lines(words), name)


class UnknownWordList(LookupError):
    pass


class LexiconStore:
    """Installed word lists and their cached indexes, on disk.

    ``root/NAME.txt`` holds each list in canonical form; ``cache/SHA.vN.marshal``
    its built index.  The name ``default`` is ENABLE, shipped with the engine.
    """

    def __init__(self, root: Path, cache_dir: Path | None = None) -> None:
        self.root = Path(root)
        self.cache_dir = Path(cache_dir) if cache_dir else self.root / "cache"
        self._loaded: dict[str, Lexicon] = {}

    _NAME_RE = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")

    def check_name(self, name: str) -> str:
        if not self._NAME_RE.fullmatch(name):
            raise ValueError(
                f"{name!r} is not a usable list name: use 1-64 lower-case letters, digits, "
                "'.', '_' or '-', starting with a letter or digit"
            )
        return name

    def path_of(self, name: str) -> Path:
        if name == DEFAULT_NAME:
            return DEFAULT_PATH
        return self.root / f"{self.check_name(name)}.txt"

    def names(self) -> list[str]:
        extra = sorted(p.stem for p in self.root.glob("*.txt")) if self.root.is_dir() else []
        return [DEFAULT_NAME, *(n for n in extra if n != DEFAULT_NAME)]

    def _cache_path(self, sha256: str) -> Path:
        return self.cache_dir / f"{sha256}.v{CACHE_FORMAT}.marshal"

    def install(
        self,
        name: str,
        source: Path,
        progress: Callable[[int], None] | None = None,
        total: Callable[[int], None] | None = None,
    ) -> Lexicon:
        """Install the plain-text list at ``source`` under ``name`` and build its
        index.  Replaces a list already installed under that name."""
        if name == DEFAULT_NAME:
            raise ValueError("the name 'default' is the shipped ENABLE list")
        self.check_name(name)
        text = WordListText.from_path(source)
        if not text.words:
            raise ValueError(f"{source} holds no words of letters a-z")
        if total is not None:
            total(len(text.words))
        lex = build_lexicon(text, name, progress)
        self._write_cache(lex)
        self.root.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.path_of(name), text.canonical_text().encode("ascii"))
        self._loaded[name] = lex
        return lex

    def remove(self, name: str) -> None:
        if name == DEFAULT_NAME:
            raise ValueError("the default list cannot be removed")
        path = self.path_of(name)
        if not path.exists():
            raise UnknownWordList(name)
        path.unlink()
        self._loaded.pop(name, None)

    def _write_cache(self, lex: Lexicon) -> None:
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        path = self._cache_path(lex.sha256)
        _atomic_write(path, lex.to_bytes())
        for stale in self.cache_dir.glob(f"{lex.sha256}.v*.marshal"):
            if stale != path:
                stale.unlink(missing_ok=True)

    def sha256_of(self, name: str) -> str:
        return self.load(name).sha256

    def load(self, name: str) -> Lexicon:
        """The list installed under ``name``, from memory, the disk cache, or (once
        per list) built from its text."""
        lex = self._loaded.get(name)
        if lex is not None:
            return lex
        try:
            path = self.path_of(name)
        except ValueError:  # a name no list can have
            raise UnknownWordList(name) from None
        if not path.exists():
            raise UnknownWordList(name)
        sha = _sha_hint(path) if name == DEFAULT_NAME else None
        if sha is not None:
            lex = self._read_cache(sha, name)
        if lex is None:
            text = WordListText.from_path(path)
            lex = self._read_cache(text.sha256, name)
            if lex is None:
                lex = build_lexicon(text, name)
                self._write_cache(lex)
        self._loaded[name] = lex
        return lex

    def _read_cache(self, sha256: str, name: str) -> Lexicon | None:
        try:
            data = self._cache_path(sha256).read_bytes()
        except FileNotFoundError:
            return None
        try:
            lex = Lexicon.from_bytes(data, name)
        except (ValueError, EOFError, TypeError):
            return None  # stale or damaged: rebuild
        return lex if lex.sha256 == sha256 else None


#: The SHA-256 of the shipped ENABLE list, so a cold start can find its cache
#: without reading and hashing the text first.
DEFAULT_SHA256 = "f32e6fbdc4cf9c8ec1d992193d7ac33e773fc850ba47ebe2c791ab9d61913d49"


def _sha_hint(path: Path) -> str | None:
    return DEFAULT_SHA256 if path == DEFAULT_PATH else None


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
