"""``python -m bench stack``: the production topology on this machine under load and faults.

Its own PostgreSQL cluster and redis-server, gunicorn, two Celery workers and beat
(the commands ``deploy/`` documents), an SMTP sink standing in for the ESP, and
players on every channel: the game page, turn links from the emails that arrived,
and replies posted to the inbound webhooks.  See :mod:`bench.stack.run`.
"""
