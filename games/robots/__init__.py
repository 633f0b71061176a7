"""Robots' turns: a channel like the outbox, for robot players.

:mod:`games.robots.owed` writes the robot turns a move makes owed, inside the
move's transaction, and seats robots (the core calls it and it never imports
the core back); :mod:`games.robots.turns` plays them through the one door,
from a task or beat's sweep.
"""
