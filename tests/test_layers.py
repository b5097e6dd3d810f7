"""The packages' layers: the reader is "frame in, reading out", devices stand apart from it.

The imports are read from the source (every ``import`` anywhere in a file, also inside
functions, except those under ``if TYPE_CHECKING:``), so a lazy import cannot hide.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scorer", "vision_models", "web")


def module_files() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(name: str, path: Path) -> set[str]:
    """The dotted names ``name`` imports when it runs (hints-only imports left out)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return names


def import_graph(with_parents: bool) -> dict[str, set[str]]:
    """Module -> the project modules it imports; ``with_parents`` adds the packages whose
    ``__init__`` Python runs on the way (``a.b.c`` runs ``a`` and ``a.b`` first)."""
    files = module_files()
    graph = {}
    for name, path in files.items():
        targets = set()
        for imported in imported_names(name, path):
            parts = imported.split(".")
            for end in range(len(parts), 0, -1):
                prefix = ".".join(parts[:end])
                if prefix in files:
                    targets.add(prefix)
                    if not with_parents:
                        break
        targets.discard(name)
        graph[name] = targets
    return graph


def reachable(graph: dict[str, set[str]], start: str) -> dict[str, str]:
    """Every module ``start`` loads, each with the module that imports it (to name the path)."""
    seen = {start: ""}
    todo = [start]
    while todo:
        here = todo.pop()
        for there in graph.get(here, ()):
            if there not in seen:
                seen[there] = here
                todo.append(there)
    return seen


def chain(seen: dict[str, str], end: str) -> str:
    links = [end]
    while seen[links[-1]]:
        links.append(seen[links[-1]])
    return " -> ".join(reversed(links))


def in_package(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def loads_from(start_package: str, banned: tuple[str, ...]) -> list[str]:
    """The import chains by which a module of ``start_package`` loads a banned package."""
    graph = import_graph(with_parents=True)
    found = []
    for module in sorted(graph):
        if not in_package(module, start_package):
            continue
        seen = reachable(graph, module)
        found += [chain(seen, m) for m in seen if any(in_package(m, b) for b in banned)]
    return found


def test_the_graph_sees_real_imports() -> None:
    # given the project's sources, when their imports are read, then known edges are there
    graph = import_graph(with_parents=False)
    assert "scorer.vision.reading" in graph["scorer.vision.reader"]
    assert "scorer.render.scene" in graph["scorer.demo"]
    assert "scorer.demo" in graph["scorer.devices.replay"]  # a lazy import, inside a function
    assert "vision_models" in graph["scorer.vision.reader"]  # likewise


def test_the_reader_loads_nothing_of_the_renderer() -> None:
    # given scorer.vision ("frame in, reading out"), when every import it makes is followed,
    # then neither the renderer nor the demo that uses it is ever loaded
    assert loads_from("scorer.vision", ("scorer.render", "scorer.demo")) == []


def test_the_devices_load_nothing_of_the_reader() -> None:
    # given scorer.devices, when every import it makes is followed, then scorer.vision is
    # never loaded: a camera delivers frames, the table hands them to the reader
    assert loads_from("scorer.devices", ("scorer.vision",)) == []


def test_the_renderer_loads_nothing_of_the_reader() -> None:
    # given scorer.render, when followed, then it stands apart from the reader too
    assert loads_from("scorer.render", ("scorer.vision",)) == []


def test_no_import_circle_among_the_devices() -> None:
    # given the device modules, when each one's imports are followed, then none comes back
    graph = import_graph(with_parents=False)
    circles = []
    for module in sorted(graph):
        if in_package(module, "scorer.devices") and module != "scorer.devices":
            seen = reachable(graph, module)
            circles += [chain(seen, m) + f" -> {module}" for m in seen if module in graph[m]]
    assert circles == []
