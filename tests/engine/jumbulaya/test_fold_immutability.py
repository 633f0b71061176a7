"""``evolve`` returns new states and never changes the one it is given."""

import copy
import random

from games.engine.jumbulaya import PRESETS, Lexicon, deal, decide, evolve, legal_moves, start


def test_evolve_never_changes_its_input(enable: Lexicon) -> None:
    lex = enable
    rng = random.Random(3)
    state = start(deal(("ann", "bob", "cy"), PRESETS["official"], lex, rng))
    history = [(state, copy.deepcopy(state))]
    for _ in range(60):
        if state.over:
            break
        seat = state.turn
        assert seat is not None
        moves = legal_moves(state, seat, lex)
        move = rng.choice(moves).notation() if moves and rng.random() < 0.7 else "pass"
        for event in decide(state, seat, move, lex, lambda bag, n: tuple(rng.sample(bag, n))):
            new = evolve(state, event)
            assert new is not state
            state = new
            history.append((state, copy.deepcopy(state)))
    assert len(history) > 30
    assert any(s.lines[i].owner is not None for s, _ in history for i in range(9))
    for seen, snapshot in history:
        assert seen == snapshot
