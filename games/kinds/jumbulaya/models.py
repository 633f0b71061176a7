"""The model of JUMBULAYA's sealed calls: one row a call made while its claim
window is open, and, once the window closed, what became of it.

It is the games app's model (its table, ``games_jumbulayaclaim``, and its
migrations are that app's), defined in JUMBULAYA's kind, which alone uses it;
it is registered when the kind's window keeper is loaded at start-up
(:func:`games.core.windows.install`, from :class:`games.apps.GamesConfig`).
"""

from __future__ import annotations

from django.db import models


class JumbulayaClaim(models.Model):
    """A sealed JUMBULAYA call made while a claim window is open, and, once the
    window closed, what became of it."""

    class Outcome(models.TextChoices):
        MADE = "made", "verified: it ended the game"
        FAILED = "failed", "not verified: it cost a turn"
        FREE = "free", "not verified, but the game ended before it cost a turn"
        OVERTAKEN = "overtaken", "valid, but a longer or earlier call was made"
        WITHDRAWN = "withdrawn", "withdrawn: the caller left the game"
        ENDED = "ended", "not judged: the game ended first"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="claims")
    seat = models.PositiveSmallIntegerField()
    word = models.CharField(max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome, blank=True)
    #: The game's last event when the claim was judged: the log tells its fate there.
    resolved_seq = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        app_label = "games"  # its table and migrations are the games app's
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"claim by seat {self.seat} in game {self.game_id}"
