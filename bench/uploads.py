"""``python -m bench.uploads``: what a record upload can cost a web worker.

Refusing a 1 MB record whose own word list is over the limits, refusing one whose
list is within them but whose ``lexicon_sha256`` is wrong, and building the most
expensive list the limits allow (words chosen for the most tile spellings) next
to a list of ENABLE words of the same size.  One JSON object on stdout; no
database is touched (a refused upload stores nothing).
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from games.engine.jumbulaya import PRESETS, WordListText, deal, lexicon_from_words, write_record
from games.engine.lexicon import DEFAULT_PATH, build_lexicon
from games.engine.tiles import MAX_LINE_TILES, spellings

RUNS = 5
#: Runs of letters with more than one tile spelling (S-T-H is ST-H, S-TH or S-T-H).
BLOCKS = ("STH", "ER", "ED", "CH", "LY", "A", "STHER", "STHED")


def _best_ms(fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(RUNS):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return round(best * 1e3, 2)


def _record(words: list[str], sha256: str) -> bytes:
    started = deal(
        ("ann", "bob"), PRESETS["official"], lexicon_from_words(["CAT"]), random.Random(1)
    )
    record: dict[str, Any] = write_record([started], lexicon={"words": words})
    record["lexicon_sha256"] = sha256
    record["turns"] = [{"seat": 0, "move": "pass"}]
    return json.dumps(record, separators=(",", ":")).encode()


def _fill(words: list[str], max_words: int, max_letters: int) -> list[str]:
    """The first of ``words`` that fit in the limits."""
    out: list[str] = []
    letters = 0
    for w in words:
        if len(out) == max_words or letters + len(w) > max_letters:
            break
        out.append(w)
        letters += len(w)
    return out


def _many_spellings(seed: int) -> list[str]:
    """Distinct words of at most 20 letters, most tile spellings per letter first."""
    rng = random.Random(seed)
    found: set[str] = set()
    while len(found) < 5_000:
        w = "".join(rng.choice(BLOCKS) for _ in range(rng.randint(2, 8)))
        if len(w) <= 2 * MAX_LINE_TILES:
            found.add(w)

    def per_letter(w: str) -> float:
        return sum(len(sp) <= MAX_LINE_TILES for sp in spellings(w)) / len(w)

    ordered = sorted(found, key=lambda w: (-per_letter(w), w))
    spellings.cache_clear()
    return ordered


def _refuse_ms(body: bytes) -> tuple[float, str]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from accounts.models import User
    from games.core import records

    message = ""

    def refuse() -> None:
        nonlocal message
        try:
            # A staff account: its uploads are not counted against limits, which
            # would ask the database (games/core/upload_limits.py).
            records.store_upload(User(is_staff=True), SimpleUploadedFile("r.json", body))
        except records.RecordError as e:
            message = e.message
        else:
            raise AssertionError("the upload was stored")

    return _best_ms(refuse), message


def run() -> dict[str, Any]:
    from games.core import records

    limits = (records.MAX_INLINE_WORDS, records.MAX_INLINE_LETTERS)
    with gzip.open(DEFAULT_PATH, "rt") as fh:
        enable = [w.strip().upper() for w in fh]
    random.Random(7).shuffle(enable)

    big = ["".join(w) for w in itertools.islice(itertools.product("ABCDEFGH", repeat=6), 115_000)]
    big_body = _record(big, WordListText.from_lines(big).sha256)
    big_ms, big_message = _refuse_ms(big_body)

    small = _fill(enable, *limits)
    wrong_ms, wrong_message = _refuse_ms(_record(small, "0" * 64))

    hard = _fill(_many_spellings(1), *limits)
    builds = {}
    for name, words in (("enable_words", small), ("many_spellings", hard)):
        text = WordListText.from_lines(words)
        kept = sum(len(sp) <= MAX_LINE_TILES for w in text.words for sp in spellings(w))
        builds[name] = {
            "words": len(words),
            "letters": sum(map(len, words)),
            "spellings": kept,
            "build_ms": _best_ms(lambda text=text: build_lexicon(text, "inline")),  # type: ignore[misc]
        }
    return {
        "limits": {
            "words": limits[0],
            "letters": limits[1],
            "file_bytes": records.MAX_UPLOAD_BYTES,
        },
        "refuse_1mb_over_limits": {
            "bytes": len(big_body),
            "words": len(big),
            "ms": big_ms,
            "message": big_message,
        },
        "refuse_wrong_sha256_at_limits": {
            "words": len(small),
            "ms": wrong_ms,
            "message": wrong_message,
        },
        "build_at_limits": builds,
    }


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jumbulaya_site.settings")
    import django

    django.setup()
    json.dump(run(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
