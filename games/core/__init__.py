"""The core: the one door for writes (:mod:`games.core.services`), the log read
back through the game's kind (:mod:`games.core.projection`), records, names and
word lists.  It imports no page (:mod:`games.web`) and no inbound mail
(:mod:`games.mail_in`); what follows a move reaches the outbox, deadlines and claim
windows as the last step of the one door (``tests/test_import_graph.py``)."""
