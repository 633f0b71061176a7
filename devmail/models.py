"""The local mailbox of the embedded default: every email the service sends is
kept here instead of leaving the machine, and /dev/mailbox shows them."""

from __future__ import annotations

from django.db import models


class Message(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    message_id = models.CharField(max_length=255, db_index=True)
    sender = models.CharField(max_length=255)
    to = models.TextField(help_text="recipients, one per line")
    subject = models.CharField(max_length=255)
    text = models.TextField()
    html = models.TextField(blank=True)
    headers = models.JSONField(default=dict)
    raw = models.TextField(help_text="the whole message as it would be sent")

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.subject
