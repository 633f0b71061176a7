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


class Alarm(models.Model):
    """Something of ours that fails and that the operator must fix, never a
    player's doing: the mail server refusing our password, an ESP saying our
    mail fails DMARC.  One row per alarm name, raised and cleared by
    :mod:`ops.alarms`; ``/healthz`` reports those raised as degraded."""

    name = models.CharField(max_length=32, primary_key=True)
    #: What fails, as a short code (``smtp_auth``...), and what was said (no address).
    reason = models.CharField(max_length=32)
    detail = models.CharField(max_length=300, blank=True)
    #: Since when it is raised (None: it is not).
    raised_at = models.DateTimeField(null=True, blank=True)
    #: The latest failure, and how many there were since it was raised.
    last_at = models.DateTimeField()
    failures = models.PositiveIntegerField(default=0)
    #: When what fails is to be tried again (None: whenever it comes up).
    retry_at = models.DateTimeField(null=True, blank=True)
    #: Raised until then unless it is raised again (None: until it is cleared).
    lapses_at = models.DateTimeField(null=True, blank=True)
    #: When an email to ``ADMINS`` was last tried for it.
    admins_told_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name}: {self.reason if self.raised_at else 'clear'}"
