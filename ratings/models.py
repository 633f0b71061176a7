"""Ratings: each account's skill at each game kind, and what every rated game
changed.  The values are the Weng-Lin model's (``openskill``'s Plackett-Luce):
``mu`` the estimate, ``sigma`` its uncertainty; pages show and sort by the
library's ``ordinal`` (``mu - 3 sigma``), which a new player starts at 0."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """One account's current rating at one game kind (robots have theirs)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    #: The conservative estimate pages show and leaderboards sort by.
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "-ordinal", "pk"]
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_kind")]

    def __str__(self) -> str:
        return f"{self.user} at {self.kind}: {self.ordinal:.1f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: written once, when the
    game ends (unique per game and seat: a game is rated exactly once)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=32)
    #: The seat's final place, 1 the best; tied seats share one; seats that
    #: resigned or were removed share the last.
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()
    ordinal_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["user", "kind", "created_at"])]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="rated_once_per_seat"),
            models.UniqueConstraint(fields=["game", "user"], name="rated_once_per_player"),
        ]

    def __str__(self) -> str:
        before, after = self.ordinal_before, self.ordinal_after
        return f"game {self.game_id}, seat {self.seat}: {before:.1f} → {after:.1f}"

    @property
    def change(self) -> float:
        return self.ordinal_after - self.ordinal_before
