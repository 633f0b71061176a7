"""The rules engine is pure Python: importing it (and its subpackages) never imports Django."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"

CHECK = """
import importlib, pkgutil, sys
import games.engine
names = [m.name for m in pkgutil.walk_packages(games.engine.__path__, "games.engine.")]
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
assert len(names) >= 13, names
assert "games.engine.blockers.robots.levels" in names, names
assert "games.engine.crossword.robots.levels" in names, names
assert "games.engine.tumble.robots.search" in names, names
assert "games.engine.common.events" in names, names
assert not loaded, loaded
print(len(names))
"""


def test_importing_every_engine_module_loads_no_django() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 13


def test_no_engine_file_imports_django() -> None:
    pattern = re.compile(r"^\s*(import\s+django\b|from\s+django\b)", re.MULTILINE)
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 14
    offenders = [str(f.relative_to(ROOT)) for f in files if pattern.search(f.read_text())]
    assert offenders == []
