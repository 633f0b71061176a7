"""JUMBULAYA as a game kind: :mod:`.kind` wraps the rules engine
(:mod:`games.engine`) for the registry; :mod:`.presentation` wraps its
presentation (:mod:`.presenters`, :mod:`.preview`, :mod:`.reply_reading`), which
only pages and emails reach, through :mod:`games.kinds.presentation`."""
