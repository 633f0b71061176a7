"""Ratings per game kind and the players' pages (:mod:`ratings.rating`,
:mod:`ratings.standings`, :mod:`ratings.views`)."""
