"""Typed refusals.  Every code is one of the record spec's refusal codes."""

from __future__ import annotations

from typing import Literal

RefusalCode = Literal[
    "bad_record",
    "game_over",
    "not_in_game",
    "not_your_turn",
    "bad_move",
    "bad_line",
    "unknown_tile",
    "missing_tiles",
    "too_many_rack_tiles",
    "line_shrinks",
    "too_long",
    "not_a_word",
    "not_new",
    "ambiguous",
    "bag_too_small",
    "jumbulaya_closed",
    "jumbulaya_barred",
    # Blockers (spec: blockers.md)
    "pass_not_allowed",
    "not_in_rack",
    "wrong_square",
    "own_tile",
    "splits_group",
    # the crossword game's own (docs/crossword-record.md)
    "bad_square",
    "off_board",
    "not_on_board",
    "letter_differs",
    "word_extends",
    "no_new_tile",
    "not_through_centre",
    "too_few_tiles",
    "not_connected",
    "too_short",
    "wrong_direction",
    "no_challenges",
    "nothing_to_challenge",
    "own_play",
    "end_pending",
    "nothing_to_accept",
    # Tumble-Words (games.engine.tumble): a crossword's checks, in its spec's order
    "bad_grid",
    "face_not_rolled",
    "cube_used_twice",
    "lone_letter",
    "disconnected",
    "colours_not_rolled",
]

#: The order of the word-move checks: a plain word that no spelling makes legal is
#: refused with the error of the spelling that got furthest through this list.
WORD_CHECK_ORDER: tuple[RefusalCode, ...] = (
    "missing_tiles",
    "too_many_rack_tiles",
    "line_shrinks",
    "too_long",
    "not_a_word",
    "not_new",
    "ambiguous",
)


class Refusal(Exception):
    """A command the rules do not allow.  Nothing changes when one is raised.

    ``message`` is written for the player: it says what was read and which rule it
    breaks.  ``accepted`` lists explicit spellings that would be accepted (for
    ``ambiguous``).
    """

    def __init__(self, code: RefusalCode, message: str, accepted: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.code: RefusalCode = code
        self.message = message
        self.accepted = accepted

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"


class BadRecord(Refusal):
    """A game record (or one of its turns) that does not have the spec's shape."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_record", message)
