"""The core: the one door for writes (:mod:`games.core.door`: moves;
:mod:`games.core.lobby`: games created and joined; :mod:`games.core.timeouts`;
:mod:`games.core.windows`: off-turn windows), the log read back through the
game's kind (:mod:`games.core.projection`), records, names and word lists.  It
imports no page (:mod:`games.web`) and no inbound mail (:mod:`games.mail_in`);
what follows a move (the outbox, deadlines, windows, robots, hints, analysis,
ratings) registers itself as a follower (:mod:`games.core.followers`), so the
door imports none of it (``tests/service/test_followers.py``)."""
