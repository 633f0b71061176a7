"""The examples in the engine's docstrings run as written (pytest's own
``--doctest-modules`` would also collect every ``conftest.py`` under tests/ as a
module, and those share a name)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import games.engine
import games.engine.blockers
import games.engine.common
import games.engine.jumbulaya


def engine_modules() -> list[ModuleType]:
    names = [games.engine.__name__] + [
        f"{package.__name__}.{info.name}"
        for package in (games.engine, games.engine.jumbulaya)
        for info in pkgutil.iter_modules(package.__path__)
    ]
    for package in (games.engine.blockers, games.engine.common):
        names += [
            info.name
            for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
            if not info.name.endswith("__main__")
        ]
    return [importlib.import_module(name) for name in sorted(set(names))]


def examples(module: ModuleType) -> list[doctest.DocTest]:
    return [test for test in doctest.DocTestFinder().find(module) if test.examples]


def test_the_engine_has_examples_to_run() -> None:
    with_examples = [m.__name__ for m in engine_modules() if examples(m)]
    assert "games.engine" in with_examples and "games.engine.jumbulaya" in with_examples
    assert "games.engine.jumbulaya.notation" in with_examples
    assert "games.engine.blockers.groups" in with_examples
    assert "games.engine.common.matches" in with_examples


@pytest.mark.parametrize("module", engine_modules(), ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for test in examples(module):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
