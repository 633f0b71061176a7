"""Live updates: a game that moves rings a doorbell (:mod:`.doorbell`, in the move's
transaction); requests that wait for a game to move (the API's long poll, and later
the live game page and event streams) sleep on the event loop until it rings
(:mod:`.waits`), never in a worker, and each account may hold only so many waits at
once (:mod:`.holds`)."""
