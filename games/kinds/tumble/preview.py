"""What a Tumble-Words move would do, shown to its player before it is sent:
the points the crossword would score, word by word, the cubes it leaves
unused, or the one reason it would be refused.  Only the mover's own roll is
read, and nothing of another seat's sealed crossword."""

from __future__ import annotations

from collections import Counter
from collections.abc import Container
from dataclasses import dataclass

from games.engine import tumble as engine
from games.engine.errors import Refusal
from games.engine.tumble.score import ALL_CUBES_BONUS, face_of
from games.kinds.base import Question, page_refusal
from games.kinds.tumble.seat_view import Shown, cubes_of, shown

from .kind import as_move


@dataclass(frozen=True)
class MovePreview:
    kind: str  # "submit", "resign" or "refused"
    summary: str
    details: tuple[str, ...] = ()
    ends_game: bool = False
    message: str | None = None
    accepted: tuple[str, ...] = ()
    crossword: Shown | None = None
    points: int | None = None

    @property
    def refused(self) -> bool:
        return self.kind == "refused"


def _points(n: int) -> str:
    return f"{n} point{'' if abs(n) == 1 else 's'}"


def unused_cubes(roll: str, crossword: Shown) -> list[str]:
    """The cubes of ``roll`` the crossword leaves unused, in words (which of
    two cubes showing one face is unused does not matter)."""
    laid = Counter(face_of(ch) for line in crossword.lines for ch in line if ch != ".")
    left = []
    for cube in cubes_of(roll):
        face = cube.face or engine.BLANK
        if laid[face]:
            laid[face] -= 1
            continue
        left.append(f"{cube.colour} {cube.face or 'blank'}")
    return left


def _details(scored: engine.Scored, roll: str, sealed: bool) -> tuple[str, ...]:
    drawn = shown(scored.crossword.text())
    out = [
        f"{w.text} ({w.direction}, {'one colour' if w.one_colour else 'mixed colours'}): "
        f"{_points(w.points)}"
        for w in drawn.words
    ]
    left = unused_cubes(roll, drawn)
    if left:
        out.append(f"Unused: {', '.join(left)} (-{len(left)}).")
    else:
        out.append(f"All 13 cubes used: {ALL_CUBES_BONUS} more.")
    if sealed:
        out.append(
            "It stays sealed until the round closes; you can replace it until then by "
            "sending another."
        )
    else:
        out.append("Everyone sees it as soon as it is laid.")
    return tuple(out)


def preview(state: engine.TumbleState, seat: int, move: str, words: Container[str]) -> MovePreview:
    """``move`` by ``seat`` on ``state`` (its players named as they are now)."""
    try:
        refused = page_refusal(move)
        if refused is not None:
            raise refused
        typed = as_move(move)
        events = engine.decide(state, seat, typed, words, roll=lambda n: ("",) * n)
    except Refusal as r:
        return MovePreview("refused", "This crossword cannot be handed in:", message=r.message)
    first = events[0]
    if isinstance(first, engine.Resigned):
        after = engine.evolve(state, first)
        return MovePreview(
            "resign",
            "Resign from the game.",
            ("You score nothing more, and cannot win.",),
            after.over,
        )
    assert isinstance(first, engine.Submitted)
    roll = state.roll_of(seat)
    assert roll is not None
    command = engine.parse_move(typed)
    assert isinstance(command, engine.Submit)
    scored = engine.check(command.crossword, roll, words, state.options.younger)
    total = scored.total
    # A sealed round's end hangs on the other crossword, which is not the mover's to see.
    ends = (
        not state.sealed_rounds
        and not state.options.play_out
        and state.totals[seat] + total >= state.options.target
    )
    summary = f"This crossword scores {_points(total)}."
    before = state.submission_of(seat)
    if before is not None:
        summary += f" It would replace the one you handed in ({_points(before.points)})."
    return MovePreview(
        "submit",
        summary,
        _details(scored, roll, state.sealed_rounds),
        ends,
        crossword=shown(scored.crossword.text()),
        points=total,
    )


def question_for(state: engine.TumbleState, seat: int, move: str) -> Question | None:
    if engine.verb_of(move) == "resign":
        return Question(
            move,
            "Resign from this game? You score nothing more and cannot win.",
            "Yes, resign",
            "No, stay in the game",
            danger=True,
        )
    return None
