"""The import graph of ``talesim`` (its folders ``talesim``, ``simcore``, ``cli`` and ``reports``)
has no cycle.

Every ``import`` counts, at module level or inside a function (a function-level import
only hides a cycle until the function runs), except those under ``if TYPE_CHECKING:``, which
never run (a phase module of a rulebook names the ``Game`` it is handed for its type only).
Relative imports are resolved against the importing module's package; ``from pkg import mod``
of a submodule imports that submodule.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Folder -> the import name it installs as (pyproject.toml's package-dir).
PACKAGES = {
    "talesim": "talesim",
    "simcore": "talesim.simcore",
    "cli": "talesim.cli",
    "reports": "talesim.reports",
}


def _module_name(path: Path) -> str:
    folder, *parts = path.relative_to(ROOT).with_suffix("").parts
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGES[folder], *parts])


def _type_checking_only(tree: ast.Module) -> set[ast.AST]:
    """The import nodes inside ``if TYPE_CHECKING:`` blocks."""
    hidden: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                hidden.update(ast.walk(stmt))
    return hidden


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    hidden = _type_checking_only(tree)
    for node in ast.walk(tree):
        if node in hidden:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            targets = names if all(n in known for n in names) else [base, *names]
        for target in targets:
            # the longest known module the target names (``a.b.c`` -> ``a.b`` if ``c`` is an
            # attribute of module ``a.b``)
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    known = set(files)
    return {name: _imports(path, name, known) for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or None. A package's
    ``__init__`` importing nothing of its children is not a cycle with them."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_find_cycle_finds_a_cycle_and_accepts_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_type_only_imports_and_submodule_imports_are_read_as_they_run(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "game.py").write_text("from . import phase\n")
    (pkg / "phase.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import Game\n"
    )
    known = {"pkg", "pkg.game", "pkg.phase"}
    assert _imports(pkg / "game.py", "pkg.game", known) == {"pkg.phase"}
    assert _imports(pkg / "phase.py", "pkg.phase", known) == set()


def test_the_runner_and_the_dask_backend_do_not_import_each_other() -> None:
    graph = import_graph()
    assert (
        "talesim.simcore.dask_backend" in graph["talesim.simcore.runner"]
    )  # the backend it starts
    assert "talesim.simcore.runner" not in graph["talesim.simcore.dask_backend"]
    assert "talesim.simcore.batch" in graph["talesim.simcore.dask_backend"]


def test_no_import_cycle() -> None:
    assert find_cycle(import_graph()) is None
