"""No import cycles between the project's modules.

Every module of the project's packages is parsed with :mod:`ast` and every
import statement in it counts: at module level, inside functions, and under
``if TYPE_CHECKING:``.  An import made late, inside a function, is still a
dependency (it only hides the cycle from the interpreter); a TYPE_CHECKING
import is one the type checker follows, and a layer that needs the types of
the layer above it is tangled with it all the same.

``from package import name`` is an edge to ``package.name`` when that is a
module, else to ``package`` (its ``__init__``).  The implicit import of a
module's parent packages is not counted: it is how Python loads a submodule,
not a dependency the module chose.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "api", "bench", "devmail", "games", "jumbulaya_site", "ops", "ratings")


def _modules() -> dict[str, Path]:
    """Every project module by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(module: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The project modules that ``module`` imports, anywhere in its file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _project_module(alias.name, modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    yield f"{base}.{alias.name}"
                else:
                    yield from _project_module(base, modules)


def _project_module(name: str, modules: dict[str, Path]) -> Iterator[str]:
    """``name`` if it is a project module; for ``import a.b.c`` of a module
    that is not one (an attribute path), the longest prefix that is."""
    while name:
        if name in modules:
            yield name
            return
        name = name.rpartition(".")[0]


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {dep for dep in _imported(name, path, modules) if dep != name}
        for name, path in modules.items()
    }


def tangles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's
    algorithm, iterative): the modules of each import cycle, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, deps = work[-1]
            for dep in deps:
                if dep not in index:
                    index[dep] = low[dep] = len(index)
                    stack.append(dep)
                    on_stack.add(dep)
                    work.append((dep, iter(sorted(graph[dep]))))
                    break
                if dep in on_stack:
                    low[node] = min(low[node], index[dep])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def _describe(component: list[str], graph: dict[str, set[str]]) -> str:
    members = set(component)
    lines = [f"{len(component)} modules import one another:"]
    for name in component:
        lines.append(f"  {name} -> {', '.join(sorted(graph[name] & members))}")
    return "\n".join(lines)


def test_the_project_modules_import_one_another_without_cycles() -> None:
    graph = import_graph()
    found = tangles(graph)
    assert not found, "\n\n".join(_describe(c, graph) for c in found)


def test_the_graph_sees_imports_inside_functions_and_type_checking_blocks(tmp_path: Path) -> None:
    """The checker itself: a cycle hidden in a function or a TYPE_CHECKING
    block is found."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from pkg import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n"
    )
    (package / "c.py").write_text("import pkg.a\n")
    modules = {
        "pkg": package / "__init__.py",
        **{f"pkg.{n}": package / f"{n}.py" for n in "abc"},
    }
    graph = {name: set(_imported(name, path, modules)) for name, path in modules.items()}
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["pkg.b"] == {"pkg.c"}
    assert graph["pkg.c"] == {"pkg.a"}
    assert tangles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


#: Which way the folders of ``games/`` depend: each folder on the left imports
#: nothing from the folders on its right.  The core (the one door and the read
#: side) and the timing (deadlines, vacations, claim windows) import no page and
#: no inbound mail; what follows a move reaches the outbox, deadlines and claim
#: windows from the one door's last step, and none of them imports the door back
#: (the cycle test above).  Mail going out imports nothing of mail coming in,
#: and mail coming in no page.  (Pages import every other folder.)  Nothing of
#: the games or the accounts imports the API (``api/``), which sits on top.
NEVER_IMPORTS = {
    "games.core": ("games.web", "games.mail_in"),
    "games.timing": ("games.web", "games.mail_in"),
    "games.mail_out": ("games.mail_in",),
    "games.mail_in": ("games.web",),
    # The JSON API is glue over the games and the accounts: neither imports it.
    "games": ("api",),
    "accounts": ("api",),
}


def test_the_folders_of_games_depend_one_way() -> None:
    graph = import_graph()
    wrong = sorted(
        f"{module} -> {dep}"
        for folder, below in NEVER_IMPORTS.items()
        for module, deps in graph.items()
        if module == folder or module.startswith(folder + ".")
        for dep in deps
        if any(dep == b or dep.startswith(b + ".") for b in below)
    )
    assert not wrong, "\n".join(wrong)
