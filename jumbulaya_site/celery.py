"""The Celery app.  The broker is a doorbell, not a database: everything a task
acts on is in the database first (the outbox, ``Game.deadline_at``), and beat
sweeps find whatever a lost message missed."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jumbulaya_site.settings")

app = Celery("jumbulaya")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
