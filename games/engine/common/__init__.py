"""What the game engines share: pure Python, no Django.

Each engine keeps its own rules, events, records and views; this package holds
only the parts that are the same in substance in every one of them, so that a
fix or a new engine needs them once: the events' JSON (:mod:`.events`), the
fold of a whole log (:mod:`.fold`), who may move (:mod:`.turns`), the checks
and the replay loop of a record (:mod:`.records`) and the figures of a robot
match (:mod:`.matches`).
"""
