"""``manage.py rate_games``: rate the finished rated games that have no rating
changes yet (each once: a game rated already is left as it is)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import Game
from ratings.rating import rate_game, unrated


class Command(BaseCommand):
    help = "Rate the finished rated games not rated yet, oldest first."

    def handle(self, *args: Any, **options: Any) -> None:
        done = 0
        for game_id in unrated():
            done += rate_game(Game.objects.get(pk=game_id))
        self.stdout.write(f"{done} game{'s' if done != 1 else ''} rated.")
