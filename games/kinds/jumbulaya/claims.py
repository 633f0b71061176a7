"""JUMBULAYA's sealed calls as the rules' half of its off-turn window
(:class:`~games.kinds.windows.OffTurnWindow`): the checks a call gets before its
word is looked at, whether the conditions for calling hold, and what a call
would verify as.  The window's keeping (when it opens and closes, the sealed
calls stored, who is told) is :mod:`games.kinds.jumbulaya.calls`'s; the rules
are the engine's, wrapped here.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import jumbulaya as engine
from games.engine.errors import Refusal
from games.engine.jumbulaya.commands import check_call
from games.engine.jumbulaya.notation import CallJumbulaya
from games.engine.jumbulaya.runs import best_call
from games.engine.lexicon import Lexicon


class JumbulayaCalls:
    """A JUMBULAYA call (``jumbulaya WORD``) sealed while a claim window is open."""

    verb = "jumbulaya"
    keeper = "games.kinds.jumbulaya.call_window"

    def is_open(self, state: engine.GameState) -> bool:
        return state.jumbulaya_open()

    def check_call(self, state: engine.GameState, seat: int, move: str) -> str:
        check_call(state, seat)
        command = engine.parse_move(move)
        if not isinstance(command, CallJumbulaya):
            raise Refusal("bad_move", f"Could not read the move {move!r} as a JUMBULAYA call.")
        return command.word.text

    def verify(self, state: engine.GameState, word: str, lexicon: Lexicon) -> int | None:
        try:
            command = engine.parse_move(f"jumbulaya {word}")
        except Refusal:
            return None
        if not isinstance(command, CallJumbulaya):
            return None
        board = [line.tiles for line in state.lines]
        found = best_call(board, command.word.candidates(), lexicon, state.rules)
        return None if found is None else len(found.tiles)

    def call_result(self, events: Sequence[engine.Event]) -> bool | None:
        if any(isinstance(e, engine.JumbulayaVerified) for e in events):
            return True
        if any(isinstance(e, engine.JumbulayaFailed) for e in events):
            return False
        return None


#: The one instance the JUMBULAYA kind holds.
JUMBULAYA_CALLS = JumbulayaCalls()
