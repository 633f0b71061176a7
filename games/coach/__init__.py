"""Help for players: hints during a game (:mod:`games.coach.hints`) and the
analysis of a finished game (:mod:`games.coach.analysis`), both built on the
engine's pure functions (:mod:`games.engine.jumbulaya.hints`,
:mod:`games.engine.jumbulaya.analysis`)."""
