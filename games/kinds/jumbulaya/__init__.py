"""JUMBULAYA as a game kind: :mod:`.kind` wraps the rules engine
(:mod:`games.engine`) for the registry, with its sealed calls (:mod:`.claims`)
and its robots (:mod:`.robots`); :mod:`.presentation` wraps its presentation
(:mod:`.seat_view`, :mod:`.log_words`, :mod:`.preview`, :mod:`.replays`,
:mod:`.replies`), which only pages and emails reach, through
:mod:`games.kinds.presentation`."""
