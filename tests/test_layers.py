"""The package's layers, as the README's "How it works" declares them, hold in the code.

Every ``import`` of ``oska_gui`` (those inside functions too) is read from the source:
no module imports from a higher layer than its own, and no group of modules imports
itself round in a circle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "oska_gui"
# The package's own top-level modules, by the layer each belongs with.
TOP_MODULES = {"bootstrap": "core", "__init__": "spec", "__main__": "cli"}


def declared_layers() -> list[set[str]]:
    """Return the README's layers, lowest first: the folder names of each numbered line
    of the list under "Layers"."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("### Layers", 1)[1].split("\n#", 1)[0]
    layers = [set(re.findall(r"`([a-z_]+)/`", line.split(":", 1)[0]))
              for line in section.splitlines() if re.match(r"\d+\. ", line)]
    assert layers and all(layers), section
    return layers


def modules() -> Iterator[tuple[str, Path]]:
    """Yield each module's dotted name and file, vendored folders left out."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if "node_modules" not in path.parts:
            parts = path.relative_to(REPO).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def imported(name: str, source: str, is_package: bool = False) -> set[str]:
    """Return the ``oska_gui`` names that module ``name`` (of ``source``) imports:
    modules, packages and names imported from them (``oska_gui.play.runner.Runner``)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - node.level + 1] \
                if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {item for item in found if item.split(".")[0] == "oska_gui"}


def layer_of(name: str, layers: list[set[str]]) -> int:
    """Return the index of the layer module ``name`` belongs to."""
    parts = name.split(".")
    key = parts[1] if len(parts) > 1 else "__init__"
    folder = TOP_MODULES.get(key, key)  # a top-level module sits with its layer
    for index, layer in enumerate(layers):
        if folder in layer:
            return index
    raise AssertionError(f"{name} is in no declared layer")


def graph() -> dict[str, set[str]]:
    """Return each module's imports of other modules of the package (packages resolved to
    their ``__init__``, names imported from a module to that module)."""
    known = dict(modules())
    edges = {}
    for name, path in known.items():
        source = path.read_text(encoding="utf-8")
        targets = {item if item in known else item.rpartition(".")[0]
                   for item in imported(name, source, path.name == "__init__.py")}
        edges[name] = {target for target in targets if target in known and target != name}
    return edges


def test_every_folder_of_the_package_is_in_one_declared_layer() -> None:
    layers = declared_layers()
    folders = {path.name for path in PACKAGE.iterdir()
               if (path / "__init__.py").exists()}
    declared = [folder for layer in layers for folder in layer]
    assert len(declared) == len(set(declared)), "a folder is in two layers"
    assert folders == set(declared)


def test_no_module_imports_from_a_higher_layer() -> None:
    layers = declared_layers()
    upward = [f"{source} -> {target}" for source, targets in graph().items()
              for target in targets if layer_of(target, layers) > layer_of(source, layers)]
    assert not upward, "imports that run up a layer:\n" + "\n".join(sorted(upward))


def test_no_modules_import_each_other_round_in_a_circle() -> None:
    edges = graph()
    cycles = [cycle for cycle in strongly_connected(edges) if len(cycle) > 1]
    assert not cycles, f"circles of imports: {cycles}"


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected groups of ``edges`` (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        """Number ``node`` and close its group when it is the group's root."""
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                item = stack.pop()
                group.append(item)
                if item == node:
                    break
            groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_the_checks_see_an_upward_import_and_a_circle() -> None:
    """The checks can fail: an import from ui into engine and a two-module circle."""
    layers = declared_layers()
    assert layer_of("oska_gui.ui.app", layers) > layer_of("oska_gui.engine.search", layers)
    assert strongly_connected({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"], ["c"]]
    source = "def late():\n    from ..play import runner\nimport oska_gui.core.types\n"
    assert imported("oska_gui.ui.app", source) == {
        "oska_gui.play", "oska_gui.play.runner", "oska_gui.core.types"}
