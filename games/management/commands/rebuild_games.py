"""``manage.py rebuild_games``: rebuild every game's projection from its log.

Replays each game's events through the engine, reports any game whose
projection (status, turn, deadline, cached state) differs from the replay, and
rewrites it.  With ``--check`` it
only reports (exit 1 if anything differs).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.core.rebuild import rebuild_projection
from games.models import Game


class Command(BaseCommand):
    help = (
        "Rebuild every game's projection (status, turn, deadline, cached state) from its event log."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="report only; change nothing")
        parser.add_argument("game", nargs="*", type=int, help="game ids (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        # Every game with a log, whatever its projection says (a game waiting
        # for players has none).
        games = Game.objects.filter(events__seq=1).order_by("pk")
        if options["game"]:
            games = games.filter(pk__in=options["game"])
        checked = differed = 0
        for game in games.iterator():
            checked += 1
            if rebuild_projection(game, write=not options["check"]):
                differed += 1
                self.stdout.write(f"game {game.pk}: the cached projection differed from the log")
        verb = "found" if options["check"] else "rebuilt"
        self.stdout.write(f"{checked} games checked; {verb} {differed} that differed.")
        if options["check"] and differed:
            raise CommandError(f"{differed} games differ from their logs")
