from django.db import models


class Heartbeat(models.Model):
    """When a process last said it was alive: ``beat`` (beat published a task),
    ``worker`` (a worker finished a task), and each periodic task of the beat
    schedule by its task name (that sweep last completed).  One row per name,
    written with an upsert (:func:`ops.heartbeats.record`); ``/healthz`` reads
    them."""

    name = models.CharField(max_length=100, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
