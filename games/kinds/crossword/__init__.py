"""The crossword tile game, Bible edition, as a game kind (:mod:`.kind`), with
its robots (:mod:`.robots`) and its presentation (:mod:`.presentation`)."""
