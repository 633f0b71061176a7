"""``manage.py robot``: a robot speaking the protocol of seat-view.md, and
``manage.py robot match``: robots playing each other (issue 12).

manage.py robot [--kind KIND] [--level NAME] [--seed S] [--budget-ms MS]
    reads ``jumbulaya-view/1`` seat views from standard input, one JSON document
    a line, and answers each with one line (a move, ``jumbulaya WORD``, ``wait``
    or ``error: ...``), flushed at once; exit 0 at the end of its input.
manage.py robot [--kind KIND] match --levels A,B [--games N] [--seed S] [--lexicon NAME]
    plays A against B, each deal twice with the seats swapped, with a progress
    bar, and prints a results table with win rates and their 95% intervals.

Levels are the kind's robots' (:attr:`games.kinds.base.GameKind.robots`:
JUMBULAYA's are those of :data:`games.engine.jumbulaya.robots.LEVELS`, and ``boardspace``,
the benchmark's baseline).  The glue is here; the robots, the views and the
match runner are the kind's.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from tqdm import tqdm

from games import kinds
from games.core import lexicons
from games.engine.lexicon import UnknownWordList
from games.kinds.base import GameKind, Robots, WordIndex


def kind_with_robots(kind_name: str = kinds.DEFAULT) -> GameKind:
    """The kind called ``kind_name`` if it has robots, or a :class:`CommandError`."""
    try:
        kind = kinds.get(kind_name)
    except kinds.UnknownKind as e:
        raise CommandError(e.message) from None
    if kind.robots is None:
        raise CommandError(f"the game kind {kind.name!r} has no robots")
    return kind


def robots_of(kind_name: str = kinds.DEFAULT) -> Robots:
    """The robots of the kind called ``kind_name``, or a :class:`CommandError`."""
    robots = kind_with_robots(kind_name).robots
    assert robots is not None
    return robots


def known_levels(robots: Robots | None = None) -> list[str]:
    """The levels the command knows: the robots' levels, weakest first, then
    the baselines."""
    robots = robots or robots_of()
    return [*robots.levels, *robots.baselines]


def level_named(name: str, robots: Robots | None = None) -> str:
    """``name``, a level the command knows, or a :class:`CommandError` listing them all."""
    robots = robots or robots_of()
    if name not in known_levels(robots):
        listed = ", ".join(robots.levels)
        raise CommandError(
            f"unknown robot level {name!r}: the levels are {listed} (weakest to strongest), "
            f"and {', '.join(robots.baselines)} (the baseline)"
        )
    return name


@lru_cache(maxsize=8)
def inline_lexicon(kind_name: str, words: tuple[str, ...]) -> WordIndex:
    """The index of the kind called ``kind_name`` of an inline ``{"words": [...]}``
    list, built once per run."""
    return kinds.get(kind_name).word_index_of(words)


class Unanswerable(Exception):
    """A line the robot cannot answer: its message follows ``error: ``."""


def view_lexicon(kind: GameKind, view: Any) -> WordIndex:
    assert kind.robots is not None
    named = kind.robots.view_word_list(view)
    if isinstance(named, tuple):
        try:
            return inline_lexicon(kind.name, named)
        except ValueError as exc:
            raise Unanswerable(f"the inline word list cannot be used: {exc}") from None
    try:
        return lexicons.index(kind, named)
    except UnknownWordList:
        raise Unanswerable(f"unknown lexicon {named}") from None


class Robot:
    """One robot answering line after line; its word lists stay loaded."""

    def __init__(
        self, kind: GameKind, level: str, seed: int | None, budget_ms: float | None
    ) -> None:
        assert kind.robots is not None
        self.kind = kind
        self.robots = kind.robots
        self.level = level
        self.seed = seed
        self.budget_ms = budget_ms
        self.rng = random.Random()

    def _rng(self, line: str) -> random.Random:
        # With a seed, an answer depends only on the seed and the line itself.
        if self.seed is None:
            return self.rng
        digest = hashlib.sha256(line.encode()).hexdigest()
        return random.Random(f"{self.seed}:{digest}")

    def answer(self, line: str) -> str:
        try:
            data = json.loads(line)
        except ValueError as exc:
            return f"error: this line is not JSON ({exc})"
        try:
            view = self.robots.read_view(data)
            lexicon = view_lexicon(self.kind, view) if self.kind.uses_word_list else None
        except (ValueError, Unanswerable) as exc:
            return f"error: {exc}"
        try:
            rng = self._rng(line)
            return self.robots.answer(self.level, view, lexicon, rng, self.budget_ms)
        except Exception as exc:  # a robot's bug must not end the conversation
            return f"error: the robot could not answer this view ({type(exc).__name__}: {exc})"

    def serve(self, lines: Iterable[str], out: OutputWrapper) -> None:
        """Answer every line of ``lines`` with one line on ``out``, flushed at once."""
        for raw in lines:
            line = raw.strip()
            answer = self.answer(line) if line else "error: an empty line is not a seat view"
            out.write(answer.replace("\n", " "))
            out.flush()


def results_table(result: Any) -> str:
    """The match's results (:meth:`games.kinds.base.Robots.match`), one row per
    level, for people."""
    lo, hi = result.interval
    sa, sb = result.average_scores
    rows = [
        ("level", "games", "won", "drawn", "lost", "win rate", "95% interval", "avg score",
         "median ms", "p95 ms"),
    ]  # fmt: skip
    sides = (
        (result.a, result.wins, result.losses, result.win_rate, (lo, hi), sa),
        (result.b, result.losses, result.wins, 1 - result.win_rate, (1 - hi, 1 - lo), sb),
    )
    for name, won, lost, rate, (a, b), score in sides:
        t = result.times.get(name)
        rows.append(
            (
                name, str(result.played), str(won), str(result.draws), str(lost), f"{rate:.1%}",
                f"{a:.1%}-{b:.1%}", f"{score:.1f}", f"{t.median:.1f}" if t else "-",
                f"{t.p95:.1f}" if t else "-",
            )
        )  # fmt: skip
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    if result.capped:
        lines.append(f"({result.capped} games reached the turn cap and count as draws)")
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Answer jumbulaya-view/1 seat views from standard input, one per line, as a robot "
        "(seat-view.md); 'robot match' plays two robots against each other."
    )
    requires_system_checks: tuple[str, ...] = ()
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        strongest = robots_of().strongest
        kinds_with = [kind.name for kind in kinds.all() if kind.robots is not None]
        parser.add_argument(
            "--kind",
            default=kinds.DEFAULT,
            help=f"the game kind whose robots answer ({', '.join(kinds_with)}; "
            f"default: {kinds.DEFAULT})",
        )
        parser.add_argument(
            "--level",
            default=None,
            help=f"the robot's level (default: the kind's strongest; {kinds.DEFAULT}'s is "
            f"{strongest})",
        )
        parser.add_argument("--seed", type=int, default=None, help="answer reproducibly")
        parser.add_argument(
            "--budget-ms", type=float, default=None, help="thinking time per answer"
        )
        sub = parser.add_subparsers(dest="action")
        m = sub.add_parser("match", help="play two robot levels against each other")
        m.add_argument("--levels", required=True, help="two levels, A,B")
        m.add_argument("--games", type=int, default=20, help="games (each deal twice)")
        m.add_argument("--seed", type=int, default=1, dest="match_seed")
        m.add_argument("--lexicon", default="default", help="an installed word list")
        m.add_argument("--budget-ms", type=float, default=None, dest="match_budget_ms")

    def handle(self, *args: Any, **options: Any) -> None:
        if options.get("action") == "match":
            self._match(options)
            return
        kind = kind_with_robots(options["kind"])
        robots = robots_of(kind.name)
        level = level_named(options["level"] or robots.strongest, robots)
        robot = Robot(kind, level, options["seed"], options["budget_ms"])
        robot.serve(options.get("stdin") or sys.stdin, self.stdout)

    def _match(self, options: dict[str, Any]) -> None:
        names = [n.strip() for n in options["levels"].split(",")]
        if len(names) != 2 or not all(names):
            raise CommandError("--levels names two levels, as in --levels greedy,boardspace")
        kind = kind_with_robots(options["kind"])
        robots = robots_of(kind.name)
        a, b = (level_named(n, robots) for n in names)
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        lexicon = None
        if kind.uses_word_list:
            try:
                lexicon = lexicons.index(kind, options["lexicon"])
            except UnknownWordList:
                raise CommandError(f"unknown lexicon {options['lexicon']}") from None
        games = options["games"] + options["games"] % 2
        with tqdm(total=games, desc=f"{a} vs {b}", unit=" games", disable=None) as bar:

            def progress(done: int, total: int) -> None:
                bar.update(done - bar.n)

            result = robots.match(
                a, b, games, options["match_seed"], lexicon, progress,
                lexicon_name=options["lexicon"], budget_ms=options["match_budget_ms"],
            )  # fmt: skip
        self.stdout.write(results_table(result))
