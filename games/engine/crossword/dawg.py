"""The crossword game's word list as a minimized DAWG, built once per list and cached.

Why a DAWG and not a GADDAG: a GADDAG stores every word once per letter (each
word split at every point, the left part reversed), several times the DAWG's
size even minimized, and a cold process would spend much of its 300 ms reading
it (this DAWG of ENABLE is about 53,000 nodes and 121,000 edges).  The move
generator (:mod:`.movegen`) uses the DAWG the way Appel and Jacobson describe:
the letters left of an anchor are a word prefix, so every prefix the rack can
spell is enumerated once per rack and shared by every anchor with room for it,
and only the right part is searched per anchor.  The GADDAG's advantage, never
exploring a left part that has no continuation through the anchor, matters
less here than the memory and load time it costs.

The graph is stored as three flat arrays, nodes numbered from 0 (the root):

* ``mask[n]``: bit ``L`` set when node ``n`` has an edge for letter ``L``
  (``A`` is 0), bit :data:`TERMINAL` set when the path to ``n`` spells a word;
* ``first[n]``: where ``n``'s children start in ``kids``; they are stored in
  letter order, so the child for letter ``L`` is
  ``kids[first[n] + (mask[n] & ((1 << L) - 1)).bit_count()]``;
* ``kids``: the children's node numbers.

On disk they are the arrays' bytes in one :mod:`marshal` tuple with the format
version, the list's SHA-256 and the extra words' digest, written atomically into
the :class:`~games.engine.lexicon.LexiconStore`'s cache directory beside the
JUMBULAYA index of the same list.
"""

from __future__ import annotations

import gzip
import hashlib
import marshal
from array import array
from collections.abc import Iterable
from pathlib import Path

from ..lexicon import (
    DEFAULT_NAME,
    DEFAULT_PATH,
    DEFAULT_SHA256,
    LexiconStore,
    UnknownWordList,
    WordListText,
    _atomic_write,
)

#: Bumped whenever the cached form changes shape.
DAWG_FORMAT = 1
#: The bit of ``mask[n]`` that marks a node ending a word.
TERMINAL = 1 << 26
#: All 26 letter bits.
ALL_LETTERS = TERMINAL - 1
#: How many cross-checks a graph remembers before it starts afresh.
CROSS_SETS_KEPT = 1 << 16
MIN_LETTERS = 2
MAX_LETTERS = 15

_A = ord("A")


def playable(word: str) -> bool:
    """Whether ``word`` can be stored: 2–15 letters A–Z."""
    return MIN_LETTERS <= len(word) <= MAX_LETTERS and word.isascii() and word.isalpha()


class Dawg:
    """A minimized DAWG of upper-case words (see the module docstring for its arrays).

    The arrays are Python lists in memory: indexing a list is faster than
    indexing an ``array``, and the move generator indexes them millions of times.
    """

    __slots__ = ("_cross_sets", "extras_digest", "first", "kids", "mask", "sha256", "word_count")

    def __init__(
        self,
        mask: list[int],
        first: list[int],
        kids: list[int],
        word_count: int,
        sha256: str = "",
        extras_digest: str = "",
    ) -> None:
        self.mask = mask
        self.first = first
        self.kids = kids
        self.word_count = word_count
        self.sha256 = sha256
        self.extras_digest = extras_digest
        self._cross_sets: dict[tuple[str, str], int] = {}

    @classmethod
    def build(cls, words: Iterable[str], sha256: str = "", extras_digest: str = "") -> Dawg:
        """The minimized DAWG of ``words`` (upper-case; words that are not 2–15
        letters A–Z are left out)."""
        return _build(sorted({w for w in words if playable(w)}), sha256, extras_digest)

    def walk(self, letters: str, node: int = 0) -> int:
        """The node reached from ``node`` by the upper-case ``letters``, or -1."""
        mask = self.mask
        for ch in letters:
            if not "A" <= ch <= "Z":
                return -1
            m = mask[node]
            bit = 1 << (ord(ch) - _A)
            if not m & bit:
                return -1
            node = self.kids[self.first[node] + (m & (bit - 1)).bit_count()]
        return node

    def cross_set(self, before: str, after: str) -> int:
        """The letters ``L`` (as a mask) for which ``before + L + after`` is a
        word: a square's cross-check.  Remembered, since the same short runs of
        tiles come back position after position (at most :data:`CROSS_SETS_KEPT`)."""
        key = (before, after)
        found = self._cross_sets.get(key)
        if found is not None:
            return found
        allowed = 0
        node = self.walk(before)
        if node >= 0:
            mask, kids = self.mask, self.kids
            mk = mask[node] & ALL_LETTERS
            base = self.first[node]
            m = mk
            while m:
                low = m & -m
                m ^= low
                end = self.walk(after, kids[base + (mk & (low - 1)).bit_count()])
                if end >= 0 and mask[end] & TERMINAL:
                    allowed |= low
        if len(self._cross_sets) >= CROSS_SETS_KEPT:
            self._cross_sets.clear()
        self._cross_sets[key] = allowed
        return allowed

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` (any case) is a listed word."""
        if not isinstance(word, str) or not playable(word):
            return False
        node = self.walk(word.upper())
        return node >= 0 and bool(self.mask[node] & TERMINAL)

    def __len__(self) -> int:
        return self.word_count

    @property
    def node_count(self) -> int:
        return len(self.mask)

    def words(self) -> list[str]:
        """Every word, in alphabetical order (for tests and small lists)."""
        out: list[str] = []
        stack: list[tuple[int, str]] = [(0, "")]
        while stack:
            node, prefix = stack.pop()
            m = self.mask[node]
            if m & TERMINAL:
                out.append(prefix)
            letters = m & ALL_LETTERS
            base = self.first[node]
            for i, L in enumerate(L for L in range(26) if letters >> L & 1):
                stack.append((self.kids[base + i], prefix + chr(_A + L)))
        return sorted(out)

    def to_bytes(self) -> bytes:
        return marshal.dumps(
            (
                DAWG_FORMAT,
                self.sha256,
                self.extras_digest,
                self.word_count,
                array("I", self.mask).tobytes(),
                array("I", self.first).tobytes(),
                array("I", self.kids).tobytes(),
            )
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> Dawg:
        head = marshal.loads(data)
        if not isinstance(head, tuple) or len(head) != 7 or head[0] != DAWG_FORMAT:
            raise ValueError(f"not a cached DAWG of format {DAWG_FORMAT}")
        _, sha, extras, count, *raw = head
        lists = []
        for chunk in raw:
            arr = array("I")
            arr.frombytes(chunk)
            lists.append(arr.tolist())
        mask, first, kids = lists
        if len(first) != len(mask) or (mask and max(first) > len(kids)):
            raise ValueError("a damaged cached DAWG")
        return cls(mask, first, kids, count, sha, extras)

    def __repr__(self) -> str:
        return f"<Dawg {self.sha256[:12]} {self.word_count} words, {self.node_count} nodes>"


class _Node:
    __slots__ = ("edges", "final", "number")

    def __init__(self) -> None:
        self.edges: dict[int, _Node] = {}
        self.final = False
        self.number = -1

    def signature(self) -> tuple[bool, tuple[tuple[int, int], ...]]:
        # Children are already registered (unique), so their ids name them.
        return self.final, tuple((L, id(c)) for L, c in self.edges.items())


def _build(words: list[str], sha256: str, extras_digest: str) -> Dawg:
    """Incremental construction from sorted words (Daciuk, Mihov, Watson and
    Watson): after each word, the part of the previous word's path that the
    next word does not share is minimized against a register of unique nodes,
    so the full trie never exists."""
    root = _Node()
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], _Node] = {}
    path: list[tuple[_Node, int, _Node]] = []  # (parent, letter, child), unminimized
    previous = ""

    def minimize(down_to: int) -> None:
        while len(path) > down_to:
            parent, letter, child = path.pop()
            sig = child.signature()
            same = register.get(sig)
            if same is None:
                register[sig] = child
            else:
                parent.edges[letter] = same

    for word in words:
        common = 0
        for a, b in zip(word, previous, strict=False):
            if a != b:
                break
            common += 1
        minimize(common)
        node = path[-1][2] if path else root
        for ch in word[common:]:
            nxt = _Node()
            letter = ord(ch) - _A
            node.edges[letter] = nxt
            path.append((node, letter, nxt))
            node = nxt
        node.final = True
        previous = word
    minimize(0)

    # Number the nodes breadth-first and lay each one's children out in letter order.
    order = [root]
    root.number = 0
    mask: list[int] = []
    first: list[int] = []
    kids: list[int] = []
    i = 0
    while i < len(order):
        node = order[i]
        m = TERMINAL if node.final else 0
        first.append(len(kids))
        for letter in sorted(node.edges):
            child = node.edges[letter]
            m |= 1 << letter
            if child.number < 0:
                child.number = len(order)
                order.append(child)
            kids.append(child.number)
        mask.append(m)
        i += 1
    return Dawg(mask, first, kids, len(words), sha256, extras_digest)


def extras_digest(extra_words: Iterable[str]) -> str:
    """A short digest of the extra words (upper-cased, unique, sorted), part of
    the cache key: the same list with other extras is another graph."""
    words = sorted({w.upper() for w in extra_words})
    return hashlib.sha256("".join(w + "\n" for w in words).encode()).hexdigest()[:16]


def cache_path(store: LexiconStore, sha256: str, digest: str) -> Path:
    return store.cache_dir / f"{sha256}-{digest}.dawg.v{DAWG_FORMAT}"


#: Graphs already loaded in this process, by cache file.
_LOADED: dict[Path, Dawg] = {}


def load_dawg(store: LexiconStore, name: str, extra_words: Iterable[str] = ()) -> Dawg:
    """The DAWG of the list installed in ``store`` under ``name`` plus
    ``extra_words`` (the bonus words, playable even where the list lacks them):
    from memory, from the disk cache, or (once per list and extras) built from
    the list's text and cached.

    The cache is found without reading the list's words: the shipped ENABLE
    list's SHA-256 is known, and an installed list is stored in canonical form,
    so the SHA-256 of its file is its identity.  A file that is not canonical
    misses that cache and is read, hashed canonically and cached under that."""
    extras = sorted({w.upper() for w in extra_words})
    bad = [w for w in extras if not playable(w)]
    if bad:
        raise ValueError(f"extra words must be 2–15 letters A–Z: {', '.join(bad)}")
    digest = extras_digest(extras)
    try:
        path = store.path_of(name)
    except ValueError:  # a name no list can have
        raise UnknownWordList(name) from None
    if not path.exists():
        raise UnknownWordList(name)
    hint = DEFAULT_SHA256 if name == DEFAULT_NAME and path == DEFAULT_PATH else _file_sha(path)
    dawg = _cached(store, hint, digest)
    if dawg is None:
        text = WordListText.from_path(path)
        dawg = _cached(store, text.sha256, digest)
        if dawg is None:
            dawg = Dawg.build([*text.words, *extras], text.sha256, digest)
            target = cache_path(store, text.sha256, digest)
            store.cache_dir.mkdir(parents=True, exist_ok=True)
            _atomic_write(target, dawg.to_bytes())
            for stale in store.cache_dir.glob(f"{text.sha256}-{digest}.dawg.v*"):
                if stale != target:
                    stale.unlink(missing_ok=True)
            _LOADED[target] = dawg
    return dawg


def _cached(store: LexiconStore, sha256: str, digest: str) -> Dawg | None:
    path = cache_path(store, sha256, digest)
    dawg = _LOADED.get(path)
    if dawg is not None:
        return dawg
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        dawg = Dawg.from_bytes(data)
    except (ValueError, EOFError, TypeError):
        return None  # stale or damaged: rebuild
    if dawg.sha256 != sha256 or dawg.extras_digest != digest:
        return None
    _LOADED[path] = dawg
    return dawg


def _file_sha(path: Path) -> str:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()
