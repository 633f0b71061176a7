"""Line charts drawn on the server as SVG, with no script: the score chart of
a game (each seat's score after every turn) and a player's rating history.

A :class:`Chart` holds the coordinates already computed; the template
``charts/_line_chart.html`` draws it inside the page (``role="img"``, a title
and a description) and gives the same numbers as a table for screen readers
and anyone who prefers one.  Lines differ in colour and in dash pattern, so
they are told apart without colour too; marks have their own shapes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.template.defaultfilters import pluralize

from games.core.score_series import AUTO_PASS, CALL, ScoreSeries

WIDTH, HEIGHT = 640, 280
#: The plot's margins: left (the y axis's numbers), right (the legend), top, bottom.
LEFT, RIGHT, TOP, BOTTOM = 48, 140, 16, 36
#: Colours with at least 4.5:1 contrast on white, and dash patterns, by series.
COLOURS = ("#1b5e20", "#0d47a1", "#b71c1c", "#6a1b9a")
DASHES = ("", "6 3", "2 3", "8 3 2 3")
#: How each mark is said in the table and the marks' titles.
MARK_WORDS = {AUTO_PASS: "auto-pass (missed deadline)", CALL: "JUMBULAYA call"}
#: Who moved, in the table, at a step of the log no player made (Tumble-Words'
#: round revealed, or rolled): only the first step is the deal.
NO_ONE = "no one"


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    kind: str
    label: str

    @property
    def left(self) -> float:
        """Where a square mark 8 units wide starts."""
        return round(self.x - 4, 1)

    @property
    def top(self) -> float:
        return round(self.y - 4, 1)


@dataclass(frozen=True)
class Line:
    name: str
    points: str  # the polyline's "x,y x,y …"
    colour: str
    dash: str
    legend_y: float


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Chart:
    """A chart ready to draw: ``ident`` keeps its title's and description's
    ids apart from another chart's on the same page."""

    ident: str
    title: str
    description: str
    width: int
    height: int
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int
    lines: tuple[Line, ...]
    marks: tuple[Mark, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    x_label: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _step(span: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about five ticks."""
    raw = max(span, 1e-9) / 5
    power = 10.0 ** math.floor(math.log10(raw))
    return next(float(m * power) for m in (1, 2, 5, 10) if m * power >= raw)


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def line_chart(
    *,
    ident: str,
    title: str,
    description: str,
    x_label: str,
    xs: Sequence[float],
    series: Sequence[tuple[str, Sequence[float]]],
    marks: Sequence[tuple[int, int, str]] = (),
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
) -> Chart:
    """A chart of ``series`` (each a name and its values at ``xs``), with
    ``marks`` (``(series, index, kind)``) on their points, and its table."""
    values = [v for _, ys in series for v in ys] or [0.0]
    low, high = min(0.0, min(values)), max(values)
    step = _step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    x_low, x_high = (min(xs), max(xs)) if xs else (0.0, 1.0)
    x_span = (x_high - x_low) or 1.0
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM

    def px(x: float) -> float:
        return round(left + (x - x_low) / x_span * (right - left), 1)

    def py(y: float) -> float:
        return round(bottom - (y - low) / (high - low) * (bottom - top), 1)

    lines = tuple(
        Line(
            name,
            " ".join(f"{px(x)},{py(y)}" for x, y in zip(xs, ys, strict=True)),
            COLOURS[i % len(COLOURS)],
            DASHES[i % len(DASHES)],
            top + 14 + 20 * i,
        )
        for i, (name, ys) in enumerate(series)
    )
    placed = tuple(
        Mark(
            px(xs[index]),
            py(series[line][1][index]),
            kind,
            f"{series[line][0]}: {MARK_WORDS.get(kind, kind)} at {x_label.lower()} "
            f"{_number(xs[index])}",
        )
        for line, index, kind in marks
    )
    x_step = _step(x_span)
    x_ticks = tuple(
        Tick(px(x_low + k * x_step), _number(x_low + k * x_step))
        for k in range(int(x_span / x_step) + 1)
    )
    y_ticks = tuple(
        Tick(py(low + k * step), _number(low + k * step))
        for k in range(round((high - low) / step) + 1)
    )
    return Chart(
        ident, title, description, WIDTH, HEIGHT, left, right, top, bottom,
        lines, placed, x_ticks, y_ticks, x_label,
        tuple(head), tuple(tuple(r) for r in rows),
    )  # fmt: skip


def score_chart(series: ScoreSeries, ident: str = "scores") -> Chart | None:
    """Each seat's score after every turn, auto-passes and calls marked;
    ``None`` for a log without turns."""
    if len(series.turns) < 2:
        return None
    turns = series.turns
    names = series.players
    marks = [
        (turn.seat, n, turn.mark)
        for n, turn in enumerate(turns)
        if turn.mark is not None and turn.seat is not None
    ]
    final = ", ".join(f"{name} {score}" for name, score in zip(names, series.final, strict=True))
    counted = {kind: sum(1 for *_, k in marks if k == kind) for kind in (AUTO_PASS, CALL)}
    noted = "; ".join(
        f"{count} {MARK_WORDS[kind]}{'s' if count != 1 and kind == CALL else ''} marked"
        for kind, count in counted.items()
        if count
    )
    moved = sum(1 for turn in turns if turn.seat is not None)
    rows = [
        (
            str(n),
            "the deal" if n == 0 else NO_ONE if turn.seat is None else names[turn.seat],
            *(str(score) for score in turn.scores),
            MARK_WORDS.get(turn.mark or "", ""),
        )
        for n, turn in enumerate(turns)
    ]
    return line_chart(
        ident=ident,
        title="Scores after every turn",
        description=f"{moved} move{pluralize(moved)} by the players. Final scores: {final}."
        + (f" {noted[0].upper() + noted[1:]}." if noted else ""),
        x_label="Turn",
        xs=range(len(turns)),
        series=[(name, [t.scores[i] for t in turns]) for i, name in enumerate(names)],
        marks=marks,
        head=("Turn", "Moved", *names, "Note"),
        rows=rows,
    )
