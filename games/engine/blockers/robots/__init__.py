"""Blockers robots: levels that play from a seat view only, and self-play matches.

``python -m games.engine.blockers.robots A B [--deals N] [--players P] [--seed S]``
plays a match of level ``A`` seated among ``B``s with a progress bar and prints
its summary.
"""

from .levels import LEVELS, Level
from .match import GameResult, MatchResult, RobotError, match, play_game

__all__ = ["LEVELS", "GameResult", "Level", "MatchResult", "RobotError", "match", "play_game"]
