"""The package's layers, as ``oska_gui/layers.toml`` declares them, hold in the code.

Every ``import`` of ``oska_gui`` (those inside functions too) is read from the source: a
module imports only from its own folder and the folders its entry lists; the lists form
no circle; the pairs the file names under ``never`` import each other in neither
direction; no group of modules imports itself round in a circle; and nothing in the
package imports the developer tools (``tools/``, outside the package).
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "oska_gui"
LAYER_FILE = PACKAGE / "layers.toml"


@dataclass(frozen=True)
class LayerMap:
    """The layer file, read: what each folder may import and what must never meet.

    Attributes:
        imports: each folder of the package and the folders it may import from.
        modules: each top-level module of the package and the folder it sits with.
        never: pairs of folders that must not import each other.
    """

    imports: dict[str, set[str]]
    modules: dict[str, str]
    never: list[tuple[str, str]]

    def folder_of(self, name: str) -> str:
        """Return the folder whose rules module ``name`` (``oska_gui.ui.app``, say) follows.

        Args:
            name: a dotted module name of the package.

        Returns:
            The folder's name, or the folder a top-level module sits with.
        """
        parts = name.split(".")
        key = parts[1] if len(parts) > 1 else "__init__"
        folder = self.modules.get(key, key)
        assert folder in self.imports, f"{name} is in no declared folder"
        return folder

    def allows(self, source: str, target: str) -> bool:
        """Tell whether module ``source`` may import module ``target``.

        Args:
            source: the importing module's dotted name.
            target: the imported module's dotted name.

        Returns:
            True when both sit in one folder or the source's folder lists the target's.
        """
        mine, theirs = self.folder_of(source), self.folder_of(target)
        return mine == theirs or theirs in self.imports[mine]


def read_layer_map(text: str) -> LayerMap:
    """Parse a layer file's text.

    Args:
        text: TOML with ``[folders.NAME]`` tables (``imports``), ``[modules]`` and
            ``[never] pairs``.

    Returns:
        The map it declares.
    """
    data = tomllib.loads(text)
    imports = {name: set(entry["imports"]) for name, entry in data["folders"].items()}
    never = [(first, second) for first, second in data["never"]["pairs"]]
    return LayerMap(imports, dict(data["modules"]), never)


def layer_map() -> LayerMap:
    """Return the package's own layer map, read from ``oska_gui/layers.toml``."""
    return read_layer_map(LAYER_FILE.read_text(encoding="utf-8"))


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


def test_every_folder_of_the_package_has_one_entry() -> None:
    layers = layer_map()
    folders = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
    assert folders == set(layers.imports)
    top = {path.stem for path in PACKAGE.glob("*.py")}
    assert top == set(layers.modules)


def test_every_listed_folder_is_declared_and_the_lists_run_one_way() -> None:
    """The lists name only declared folders, never their own, and form no circle, so the
    folders stack in layers."""
    layers = layer_map()
    for folder, allowed in layers.imports.items():
        assert allowed <= set(layers.imports), folder
        assert folder not in allowed, folder
    cycles = [group for group in strongly_connected(layers.imports) if len(group) > 1]
    assert not cycles, f"the layer file's lists run round in a circle: {cycles}"


def test_no_list_lets_a_never_pair_meet() -> None:
    layers = layer_map()
    for first, second in layers.never:
        assert {first, second} <= set(layers.imports), (first, second)
        assert second not in layers.imports[first], (first, second)
        assert first not in layers.imports[second], (first, second)


def test_every_import_is_one_the_layer_file_allows() -> None:
    layers = layer_map()
    refused = [f"{source} -> {target}" for source, targets in graph().items()
               for target in targets if not layers.allows(source, target)]
    assert not refused, "imports the layer file does not allow:\n" + "\n".join(sorted(refused))


def test_no_modules_import_each_other_round_in_a_circle() -> None:
    edges = graph()
    cycles = [cycle for cycle in strongly_connected(edges) if len(cycle) > 1]
    assert not cycles, f"circles of imports: {cycles}"


def test_nothing_in_the_package_imports_the_developer_tools() -> None:
    """``tools/`` is run from a checkout and is not installed: the package never needs it."""
    users = sorted(str(path.relative_to(REPO)) for _, path in modules()
                   if {"tools"} & top_level_imports(path.read_text(encoding="utf-8")))
    assert users == []


def top_level_imports(source: str) -> set[str]:
    """Return the first part of every absolute module name a source imports."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


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


def test_the_checks_see_a_refused_import_a_never_pair_and_a_circle() -> None:
    """The checks can fail: ui may not import tournament or cli, a two-module circle is
    found, a layer file whose lists run round is seen, and imports inside functions and
    of the tools are read."""
    layers = layer_map()
    assert layers.allows("oska_gui.ui.app", "oska_gui.engine.search")
    assert not layers.allows("oska_gui.engine.search", "oska_gui.ui.app")
    assert not layers.allows("oska_gui.ui.app", "oska_gui.tournament.runner")
    assert ("ui", "tournament") in layers.never
    assert strongly_connected({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"], ["c"]]
    looped = read_layer_map('[folders.a]\nimports = ["b"]\n[folders.b]\nimports = ["a"]\n'
                            '[modules]\n[never]\npairs = []\n')
    assert [group for group in strongly_connected(looped.imports) if len(group) > 1]
    source = "def late():\n    from ..play import runner\nimport oska_gui.core.types\n"
    assert imported("oska_gui.ui.app", source) == {
        "oska_gui.play", "oska_gui.play.runner", "oska_gui.core.types"}
    assert top_level_imports("def f():\n    from tools.bench import main\n") == {"tools"}
