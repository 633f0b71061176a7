"""The service core knows a game only through its kind (issue 14).

The modules in ``ROUTED`` reach the rules through :mod:`games.kinds`: they import
nothing of JUMBULAYA's engine but what every kind shares (a refusal with its
code, a bad record, word lists), and no kind's own module.  ``NOT_YET_ROUTED``
lists, exactly, the modules that still import JUMBULAYA's engine directly (none
now: a module added that does fails the test until it is routed, or listed
here with the reason).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The engine modules every kind shares.
SHARED = {"games.engine.errors", "games.engine.lexicon"}

ROUTED = [
    "games/coach/analysis.py",
    "games/coach/hints.py",
    "games/core/projection.py",
    "games/core/records.py",
    "games/core/seat_names.py",
    "games/core/door.py",
    "games/core/lobby.py",
    "games/core/rebuild.py",
    "games/core/takeover.py",
    "games/core/timeouts.py",
    "games/core/windows.py",
    "games/mail_in/inbound.py",
    "games/mail_out/emails.py",
    "games/mail_out/invitations.py",
    "games/management/commands/demo.py",
    "games/management/commands/replay.py",
    "games/management/commands/robot.py",
    "games/robots/owed.py",
    "games/robots/turns.py",
    "games/timing/deadlines.py",
    "games/web/confirmations.py",
    "games/web/forms.py",
    "games/web/link_views.py",
    "games/web/lobby_views.py",
    "games/web/play_views.py",
    "games/web/record_views.py",
]

#: The channels that show a game to people (pages, emails out, replies in): they
#: may reach a kind's presentation, through its registry only.
SHOWN = ("games/web/", "games/mail_out/", "games/mail_in/")

#: JUMBULAYA's presentation code, which its kind's presentation wraps, and the
#: registry of the kinds' presentations: the core imports none of them.
PRESENTATION = (
    "games.kinds.jumbulaya.presentation",
    "games.kinds.jumbulaya.log_words",
    "games.kinds.jumbulaya.preview",
    "games.kinds.jumbulaya.replays",
    "games.kinds.jumbulaya.replies",
    "games.kinds.jumbulaya.seat_view",
    "games.kinds.presentation",
)

NOT_YET_ROUTED: set[str] = set()

#: Modules below the core that the engine's word lists and records need: not the
#: game's rules.
INFRASTRUCTURE = {"games/core/lexicons.py", "games/management/commands/wordlist.py"}


def imported(path: str) -> set[str]:
    """Every module ``path`` imports (``from games import engine`` counts as
    ``games.engine``), at any depth of the file."""
    names: set[str] = set()
    for node in ast.walk(ast.parse((ROOT / path).read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def jumbulaya_imports(path: str) -> set[str]:
    return {
        name
        for name in imported(path)
        if (name == "games.engine" or name.startswith(("games.engine.", "games.kinds.jumbulaya")))
        and name.rsplit(".", 1)[0] not in SHARED
        and name not in SHARED
    }


@pytest.mark.parametrize("path", ROUTED)
def test_a_routed_core_module_imports_no_kind_of_its_own(path: str) -> None:
    assert jumbulaya_imports(path) == set()
    shown = {name for name in imported(path) if name.startswith(PRESENTATION)}
    if path.startswith(SHOWN):
        assert shown <= {"games.kinds.presentation"}
    else:
        assert not shown
    # It knows the game's kind: from the registry, or as the read side gives it.
    assert {"games.kinds", "games.core.projection.kind_of"} & (imported(path))


def test_the_modules_not_yet_routed_are_exactly_these() -> None:
    core = [
        p.relative_to(ROOT).as_posix()
        for folder in ("games", "accounts", "devmail", "jumbulaya_site")
        for p in (ROOT / folder).rglob("*.py")
        if not p.relative_to(ROOT).as_posix().startswith(("games/engine/", "games/kinds/"))
        and "/migrations/" not in p.as_posix()
    ]
    direct = {path for path in core if jumbulaya_imports(path)}
    assert direct == NOT_YET_ROUTED | INFRASTRUCTURE
    assert not direct & set(ROUTED)
