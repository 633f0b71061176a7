"""Signals accounts send for the rest of the site to act on."""

from django.dispatch import Signal

#: An address was confirmed by its owner following a link mailed to it (a new
#: address, or the same one again): ``user``, ``address`` (lower case).  The
#: games app starts mail to it again (``games.mail_out.tracking``).
address_confirmed = Signal()
