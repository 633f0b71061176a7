"""Signals accounts send for the rest of the site to act on."""

from django.dispatch import Signal

#: An address was confirmed by its owner following a link mailed to it (a new
#: address, or the same one again): ``user``, ``address`` (lower case).  The
#: games app starts mail to it again (``games.mail_out.tracking``).
address_confirmed = Signal()
#: A user is to take a new display name: ``user`` (as stored), ``name`` (cleaned,
#: not stored yet).  A receiver refuses the name by raising ``ValidationError``
#: with a message for the user, and nothing is stored: the games app refuses a
#: name that could be taken for a co-player's in a game not over
#: (``games.core.seat_names.refuse_look_alike_rename``).
renaming = Signal()
