"""``manage.py analyse``: store the analysis of finished games that have none.

Backfills what was finished before analyses existed, or what a lost nudge
missed (:func:`games.coach.analysis.analyse_game`), with a progress bar and a
summary at the end.  ``--game ID`` analyses those games only; ``--force``
replaces analyses already stored; ``--no-robot`` leaves the strongest robot's
choices out (much faster).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from tqdm import tqdm

from games.coach import analysis
from games.models import Game


class Command(BaseCommand):
    help = "Analyse finished games that have no stored analysis (or those named)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, action="append", help="a game id (repeatable)")
        parser.add_argument("--force", action="store_true", help="replace stored analyses")
        parser.add_argument("--no-robot", action="store_true", help="skip the robot's choices")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["game"]:
            ids = list(
                Game.objects.filter(
                    pk__in=options["game"],
                    status=Game.Status.OVER,
                    kind__in=analysis.analysed_kinds(),
                )
                .order_by("pk")
                .values_list("pk", flat=True)
            )
            skipped = len(set(options["game"])) - len(ids)
        else:
            ids = list(
                Game.objects.filter(
                    status=Game.Status.OVER, kind__in=analysis.analysed_kinds()
                ).values_list("pk", flat=True)
                if options["force"]
                else analysis.unanalysed()
            )
            skipped = 0
        stored = kept = failed = 0
        began = time.perf_counter()
        for game_id in tqdm(ids, desc="analysing", unit="game", file=self.stderr):
            try:
                if analysis.analyse_game(
                    game_id, force=options["force"], robot=not options["no_robot"]
                ):
                    stored += 1
                else:
                    kept += 1
            except Exception as e:  # one game's trouble does not stop the others
                failed += 1
                self.stderr.write(f"game {game_id}: could not be analysed: {e}")
        took = time.perf_counter() - began
        summary = f"{len(ids)} finished games: {stored} analysed, {kept} already were"
        if failed:
            summary += f", {failed} failed"
        if skipped:
            summary += (
                f"; {skipped} named games are not finished, of a kind without analyses, "
                "or do not exist"
            )
        self.stdout.write(f"{summary} ({took:.1f} s).")
