"""``manage.py wordlist``: install, list and remove word lists.

manage.py wordlist add NAME PATH   install a plain-text list (one word a line)
manage.py wordlist list            the installed lists with their SHA-256
manage.py wordlist remove NAME     uninstall a list
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from games.core import lexicons
from games.engine import UnknownWordList


class Command(BaseCommand):
    help = "Install, list or remove word lists."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        add = sub.add_parser("add", help="install a plain-text word list under a name")
        add.add_argument("name")
        add.add_argument("path", type=Path)
        sub.add_parser("list", help="list the installed word lists")
        remove = sub.add_parser("remove", help="remove an installed word list")
        remove.add_argument("name")

    def handle(self, *args: Any, **options: Any) -> None:
        store = lexicons.store()
        action = options["action"]
        if action == "add":
            self._add(options["name"], options["path"])
        elif action == "list":
            for name in store.names():
                lex = store.load(name)
                self.stdout.write(f"{name}\t{lex.word_count} words\tsha256 {lex.sha256}")
        else:
            try:
                store.remove(options["name"])
            except (UnknownWordList, ValueError) as e:
                raise CommandError(_missing(e, options["name"])) from None
            self.stdout.write(f"Removed {options['name']}.")

    def _add(self, name: str, path: Path) -> None:
        if not path.is_file():
            raise CommandError(f"{path} is not a file")
        bar = tqdm(desc=f"Indexing {name}", unit=" words", disable=None)

        def total(n: int) -> None:
            bar.total = n
            bar.refresh()

        def progress(done: int) -> None:
            bar.update(done - bar.n)

        try:
            lex = lexicons.store().install(name, path, progress=progress, total=total)
        except (ValueError, OSError) as e:
            raise CommandError(str(e)) from None
        finally:
            bar.close()
        self.stdout.write(f"Installed {name}: {lex.word_count} words, sha256 {lex.sha256}")


def _missing(error: Exception, name: str) -> str:
    if isinstance(error, UnknownWordList):
        return f"no word list named {name!r} is installed"
    return str(error)
