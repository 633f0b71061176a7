"""Every word move of a seat's rack with the points the rules give it: the
move generator's list, rescored by the rules where the game's extras add
points the generator does not count."""

from __future__ import annotations

from games.engine.crossword import commands, movegen, notation
from games.engine.crossword.board import rows
from games.engine.crossword.bonus import BONUS_WORDS
from games.engine.crossword.options import Options
from games.engine.crossword.state import GameState
from games.kinds.crossword.word_index import CrosswordWords


def bingo_sizes(options: Options) -> frozenset[int]:
    """The tile counts that earn the 50 points (7; or 7 to 9 with racks of 9)."""
    return movegen.SHARING_BINGO if options.rack_size > 7 else movegen.STANDARD_BINGO


def scored_moves(state: GameState, seat: int, words: CrosswordWords) -> list[tuple[str, int]]:
    """Every word move of ``seat``'s rack on ``state``'s board (what that seat
    sees), in the notation, with its points, best first."""
    found = movegen.legal_moves(
        tuple(rows(state.board)),
        state.racks[seat],
        words.dawg,
        bingo_sizes=bingo_sizes(state.options),
        bonus=BONUS_WORDS,
    )
    extras = state.options.noahs_ark or state.options.david_goliath
    out = []
    for move in found:
        points = move.score
        if extras:
            command = notation.parse_move(move.notation)
            assert isinstance(command, notation.Play)
            points = commands.play(state, seat, command, words.dawg).points
        out.append((move.notation, points))
    out.sort(key=lambda m: -m[1])
    return out
