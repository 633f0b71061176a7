"""What a Blockers move would do, shown before it is sent: the tile and the
square, whether it captures, and the groups and scores after it, from what
the mover may know (the tile it would draw is never shown)."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import blockers as engine
from games.engine.errors import Refusal
from games.kinds.base import Question, page_refusal
from games.kinds.blockers.log_words import describe
from games.kinds.blockers.seat_view import tile_words, where_words


@dataclass(frozen=True)
class MovePreview:
    kind: str  # "place", "capture", "pass", "resign" or "refused"
    summary: str
    details: tuple[str, ...] = ()
    ends_game: bool = False
    message: str | None = None
    accepted: tuple[str, ...] = ()
    tile: str | None = None
    square: str | None = None

    @property
    def refused(self) -> bool:
        return self.kind == "refused"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def preview(state: engine.BlockersState, seat: int, move: str) -> MovePreview:
    """``move`` by ``seat`` on ``state`` (its players named as they are now)."""
    try:
        refused = page_refusal(move)
        if refused is not None:
            raise refused
        events = engine.decide(state, seat, move)
    except Refusal as r:
        return MovePreview("refused", "This move cannot be made:", message=r.message)
    after = state
    for event in events:
        after = engine.evolve(after, event)
    first = events[0]
    ends = after.over and not state.over
    if isinstance(first, engine.Resigned):
        return MovePreview("resign", "Resign from the game.", (describe(state, first),), ends)
    if isinstance(first, engine.Passed):
        return MovePreview(
            "pass", "Pass this turn: no tile of your rack can go anywhere.", (), ends
        )
    assert isinstance(first, engine.TilePlaced)
    before_groups, after_groups = state.groups()[seat], after.groups()[seat]
    before_score, after_score = state.scores()[seat], after.scores()[seat]
    tile = tile_words(first.tile)
    details = [f"{tile[0].upper()}{tile[1:]} goes in {where_words(first.tile)}."]
    if first.captured is None:
        kind = "place"
        summary = f"Place {tile_words(first.tile)} on the empty square {first.square}."
    else:
        kind = "capture"
        victim = first.captured
        taken = state.faces[engine.SQUARE_NAMES.index(first.square)]
        summary = (
            f"Place {tile_words(first.tile)} at {first.square}, capturing "
            f"{state.players[victim]}'s {state.colours[victim]} {taken}."
        )
        count = after.captures[seat][victim]
        details.append(
            f"You will have taken {_count(count, 'tile')} of {state.colours[victim]}; "
            f"your most-taken colour counts {max(after.captures[seat])} against you."
        )
        details.append(
            f"{state.players[victim]} goes from {_count(state.groups()[victim], 'group')} "
            f"to {after.groups()[victim]}."
        )
    details.append(
        f"Your groups: {before_groups} → {after_groups}; your score: {before_score} → "
        f"{after_score} (the fewest points win)."
    )
    scores = ", ".join(f"{n} {s}" for n, s in zip(after.players, after.scores(), strict=True))
    details.append(f"Scores after this move: {scores}.")
    return MovePreview(kind, summary, tuple(details), ends, tile=first.tile, square=first.square)


def question_for(state: engine.BlockersState, seat: int, move: str) -> Question | None:
    verb = engine.verb_of(move)
    if verb == "pass":
        return Question(move, "Pass your turn?", "Yes, pass", "No, keep my turn")
    if verb == "resign":
        return Question(
            move,
            "Resign from this game? Your tiles stay on the board and you cannot win.",
            "Yes, resign",
            "No, stay in the game",
            danger=True,
        )
    return None
