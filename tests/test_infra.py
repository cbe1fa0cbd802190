"""Tests of the project's set-up: the bootstrap stamp logic, main.py without a display,
the test command (``tests/run.py``, its quick run and the markers), lint, packaging, and
the file and module names the project's own texts give."""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from oska_gui import bootstrap

REPO_ROOT = Path(__file__).resolve().parent.parent
TESTS_DIR = REPO_ROOT / "tests"
PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    """A fake venv folder and pyproject.toml in a temporary directory."""
    venv = tmp_path / ".venv"
    venv.mkdir()
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\nversion = "0.1.0"\n', encoding="utf-8")
    return venv, pyproject


def test_file_hash_follows_content(tmp_path: Path) -> None:
    path = tmp_path / "f.toml"
    path.write_text("a", encoding="utf-8")
    first = bootstrap.file_hash(path)
    assert first == bootstrap.file_hash(path)
    path.write_text("b", encoding="utf-8")
    assert bootstrap.file_hash(path) != first


def test_missing_stamp_is_stale(project: tuple[Path, Path]) -> None:
    venv, pyproject = project
    assert not bootstrap.stamp_is_current(venv, "test", pyproject)
    assert not bootstrap.stamp_is_current(venv, None, pyproject)


def test_written_stamp_is_current_until_pyproject_changes(project: tuple[Path, Path]) -> None:
    venv, pyproject = project
    stamp = bootstrap.write_stamp(venv, "test", pyproject)
    assert stamp == venv / ".oska-stamp-test"
    assert bootstrap.stamp_is_current(venv, "test", pyproject)

    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "# changed\n", "utf-8")
    assert not bootstrap.stamp_is_current(venv, "test", pyproject)

    bootstrap.write_stamp(venv, "test", pyproject)
    assert bootstrap.stamp_is_current(venv, "test", pyproject)


def test_stamp_covers_only_the_extras_it_installed(project: tuple[Path, Path]) -> None:
    venv, pyproject = project
    bootstrap.write_stamp(venv, None, pyproject)
    assert bootstrap.stamp_path(venv, None).name == ".oska-stamp-base"
    assert bootstrap.stamp_is_current(venv, None, pyproject)
    assert not bootstrap.stamp_is_current(venv, "test", pyproject)

    bootstrap.write_stamp(venv, "test,docs", pyproject)
    assert bootstrap.stamp_path(venv, " test , docs ").name == ".oska-stamp-docs,test"
    assert bootstrap.stamp_is_current(venv, "docs", pyproject)
    assert bootstrap.stamp_is_current(venv, "test,docs", pyproject)
    assert not bootstrap.stamp_is_current(venv, "test,gui", pyproject)


def _forbid(*args: object, **kwargs: object) -> None:
    raise AssertionError(f"must not be called: {args}")


def test_ensure_venv_does_nothing_in_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(bootstrap.subprocess, "run", _forbid)
    monkeypatch.setattr(bootstrap.os, "execv", _forbid)
    bootstrap.ensure_venv("test")


def test_ensure_venv_is_quiet_when_current(
    monkeypatch: pytest.MonkeyPatch, project: tuple[Path, Path]
) -> None:
    """Inside an up-to-date venv: no venv creation, no pip, no re-exec."""
    venv, pyproject = project
    python = bootstrap.venv_python(venv)
    python.parent.mkdir(parents=True)
    python.touch()
    bootstrap.write_stamp(venv, "test", pyproject)
    monkeypatch.setattr(bootstrap, "VENV_DIR", venv)
    monkeypatch.setattr(bootstrap, "PYPROJECT", pyproject)
    monkeypatch.setattr(bootstrap.sys, "prefix", str(venv))
    monkeypatch.setattr(bootstrap.subprocess, "run", _forbid)
    monkeypatch.setattr(bootstrap.os, "execv", _forbid)
    bootstrap.ensure_venv("test")


def test_ensure_venv_installs_on_stale_stamp_then_reexecs(
    monkeypatch: pytest.MonkeyPatch, project: tuple[Path, Path]
) -> None:
    venv, pyproject = project
    python = bootstrap.venv_python(venv)
    python.parent.mkdir(parents=True)
    python.touch()
    (venv / ".oska-stamp-test").write_text("stale-hash\n", encoding="utf-8")
    calls: list[list[str]] = []

    def fake_run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0)

    class Exec(Exception):
        pass

    def fake_execv(path: str, argv: list[str]) -> None:
        raise Exec(path, argv)

    monkeypatch.setattr(bootstrap, "VENV_DIR", venv)
    monkeypatch.setattr(bootstrap, "PYPROJECT", pyproject)
    monkeypatch.setattr(bootstrap.subprocess, "run", fake_run)
    monkeypatch.setattr(bootstrap.os, "execv", fake_execv)
    monkeypatch.setattr(bootstrap.sys, "prefix", "/somewhere/else")
    monkeypatch.setattr(bootstrap.sys, "orig_argv", ["python3", "tests/run.py", "-q"])
    monkeypatch.setenv("OSKA_BOOTSTRAP_PID", "0")  # restored afterwards
    with pytest.raises(Exec) as exc:
        bootstrap.ensure_venv("test")
    assert len(calls) == 1
    assert calls[0][:3] == [str(python), "-m", "pip"]
    assert calls[0][-2:] == ["-e", ".[test]"]
    assert bootstrap.stamp_is_current(venv, "test", pyproject)
    assert exc.value.args == (str(python), [str(python), "tests/run.py", "-q"])


def _env_without_display() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    return env


def _assert_no_display_exit(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "browser" in result.stderr
    assert "oska --help" in result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is an X11 thing")
def test_main_without_display_exits_2_with_help() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "main.py")],
        cwd=REPO_ROOT,
        env=_env_without_display(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    _assert_no_display_exit(result)
    assert "DISPLAY" in result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is an X11 thing")
def test_main_with_unreachable_display_exits_2_with_help(tmp_path: Path) -> None:
    """DISPLAY points nowhere: pygame's set_mode fails and main.py still explains itself."""
    env = _env_without_display()
    env["DISPLAY"] = ":87"  # no X server listens there
    env["XDG_RUNTIME_DIR"] = str(tmp_path)  # and no Wayland socket either
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "main.py")],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    _assert_no_display_exit(result)
    assert "pygame" in result.stderr


# -- the test command and its markers ------------------------------------------------


def load_run_script() -> ModuleType:
    """Load ``tests/run.py`` by path (its name, ``run``, is too plain to import by).

    Returns:
        The module, freshly executed.
    """
    spec = importlib.util.spec_from_file_location("oska_tests_run", TESTS_DIR / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeBootstrap:
    """Stands in for ``oska_gui.bootstrap``: notes which extras ``ensure_venv`` was given."""

    def __init__(self) -> None:
        """Start with no call noted."""
        self.extras: list[str | None] = []

    def ensure_venv(self, extras: str | None = None) -> None:
        """Note the call instead of making a venv.

        Args:
            extras: the optional-dependency groups asked for.
        """
        self.extras.append(extras)


def run_main(monkeypatch: pytest.MonkeyPatch, argv: list[str],
             codes: tuple[int, ...] = (5, 5)) -> tuple[list[str], list[list[str]], int]:
    """Run ``tests/run.py``'s main with its set-up steps and pytest replaced by recorders.

    Args:
        monkeypatch: the test's monkeypatch fixture.
        argv: the command-line arguments.
        codes: the exit codes the pytest runs answer with, in turn.

    Returns:
        The set-up steps that ran, in order, the arguments of each pytest run, and
        main's exit code.
    """
    script = load_run_script()
    steps: list[str] = []
    given: list[list[str]] = []
    fake = FakeBootstrap()

    def run_pytest(args: list[str]) -> int:
        """Note pytest's arguments; answer with the next exit code."""
        given.append(args)
        return codes[len(given) - 1]

    monkeypatch.setattr(script, "load_bootstrap", lambda: fake)
    monkeypatch.setattr(script, "ensure_chromium", lambda: steps.append("chromium"))
    monkeypatch.setattr(script, "ensure_pyodide", lambda: steps.append("pyodide"))
    monkeypatch.setattr(script, "run_pytest", run_pytest)
    code = script.main(argv)
    assert fake.extras == ["test"]
    return steps, given, code


def registered_markers() -> set[str]:
    """Return the names of the markers pyproject.toml registers for pytest."""
    lines = PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]
    return {line.split(":")[0].strip() for line in lines}


WORKERS = ["-n", "auto", "--dist", "loadfile"]
QUICK = "(not slow and not browser and not cluster and not numba)"


def test_the_full_run_sets_up_everything_and_passes_arguments_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without --quick: the venv, Chromium and Pyodide steps, then pytest on every core
    without the ``timing`` tests, then those alone, each with the arguments given (``-q``
    when none are)."""
    assert run_main(monkeypatch, []) == (["chromium", "pyodide"], [
        [*WORKERS, "-m", "not timing", "-q"], ["-m", "timing", "-q"]], 5)
    steps, given, _ = run_main(monkeypatch, ["tests/test_search.py", "-x"])
    assert given == [[*WORKERS, "-m", "not timing", "tests/test_search.py", "-x"],
                     ["-m", "timing", "tests/test_search.py", "-x"]]


@pytest.mark.parametrize(("codes", "exit_code"), [
    ((0, 0), 0), ((0, 5), 0), ((5, 0), 0), ((5, 5), 5), ((1, 0), 1), ((0, 2), 2), ((1, 5), 1)])
def test_the_exit_code_is_a_failing_runs_or_else_a_passing_ones(
        monkeypatch: pytest.MonkeyPatch, codes: tuple[int, int], exit_code: int) -> None:
    """A run that selected no test (pytest's 5) fails nothing while the other passes."""
    assert run_main(monkeypatch, [], codes)[2] == exit_code


def test_arguments_that_choose_markers_or_workers_make_one_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_main(monkeypatch, ["-m", "slow"], (0,))[1] == [["-m", "slow"]]
    assert run_main(monkeypatch, ["-n0"], (0,))[1] == [["-n0"]]


def test_the_quick_run_skips_the_browser_set_up_and_the_marked_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--quick (anywhere among the arguments) keeps the venv step, skips Chromium and
    Pyodide, and puts the marker expression before the other pytest arguments."""
    steps, given, _ = run_main(monkeypatch, ["--quick"])
    assert steps == []
    assert given == [[*WORKERS, "-m", f"{QUICK} and not timing", "-q"],
                     ["-m", f"{QUICK} and timing", "-q"]]
    steps, given, _ = run_main(monkeypatch, ["tests/test_search.py", "--quick", "-x"])
    assert steps == [] and [run[-2:] for run in given] == [["tests/test_search.py", "-x"]] * 2


def test_the_quick_run_leaves_out_every_registered_marker() -> None:
    """Each registered marker but ``timing`` (which runs alone, not left out) names tests
    --quick leaves out, so a new marker has to be decided on here; ``--strict-markers``
    makes pytest refuse a misspelt or unregistered one."""
    script = load_run_script()
    excluded = set(re.findall(r"not (\w+)", script.QUICK_MARKS))
    assert excluded == registered_markers() - {script.TIMING}
    assert registered_markers() == {"slow", "browser", "cluster", "numba", "timing"}
    assert "--strict-markers" in PYPROJECT["tool"]["pytest"]["ini_options"]["addopts"]


GUARDED_CONFTEST = """
import sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from checkout_guard import CheckoutGuard

def pytest_configure(config):
    config.pluginmanager.register(CheckoutGuard(Path(__file__).parent), "checkout-guard")
"""
LEAVING_TEST = """
from pathlib import Path

def test_leaves():
    for name in {names!r}:
        Path(name).mkdir(parents=True)
"""


@pytest.mark.parametrize(("names", "left"), [
    (["out/kept"], None), (["-2334", "0", "\u00e9"], "'-2334/', '0/', '\u00e9/'")])
def test_a_run_that_leaves_something_in_the_checkout_fails(tmp_path: Path, names: list[str],
                                                           left: str | None) -> None:
    """The checkout guard of conftest.py: a run whose tests leave a folder in the checkout
    (an empty one, which ``git status`` does not show) fails, naming it; one that
    leaves nothing, or only what git ignores, passes."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("out/\n__pycache__/\n", encoding="utf-8")
    (tmp_path / "conftest.py").write_text(GUARDED_CONFTEST.format(tests=str(TESTS_DIR)),
                                          encoding="utf-8")
    (tmp_path / "test_leaving.py").write_text(LEAVING_TEST.format(names=names),
                                              encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)
    if left is None:
        assert done.returncode == 0, done.stdout
    else:
        assert done.returncode == 1 and "1 passed" in done.stdout, done.stdout
        assert f"new entries in the checkout {tmp_path} (tests write only under their " \
               f"temporary folders): {left}" in done.stdout


# -- lint, packaging and the tests' own structure ------------------------------------


def test_ruff_finds_nothing() -> None:
    """ruff (in the ``test`` extras, configured in pyproject.toml) passes over the repo."""
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=REPO_ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"ruff failed:\n{result.stdout}{result.stderr}"


def test_the_package_ships_its_type_marker() -> None:
    """``oska_gui/py.typed`` (PEP 561) exists and package-data puts it in the package."""
    assert (REPO_ROOT / "oska_gui" / "py.typed").is_file()
    package_data: dict[str, list[str]] = PYPROJECT["tool"]["setuptools"]["package-data"]
    patterns = [pattern for package, patterns in package_data.items()
                if package in ("oska_gui", "*") for pattern in patterns]
    assert any(fnmatch.fnmatch("py.typed", pattern) for pattern in patterns), package_data


# a line importing a test module: ``import test_x``, ``from test_x import``, ``tests.test_x``
IMPORTS_A_TEST_MODULE = re.compile(r"^\s*(?:from|import)\s+(?:tests\.)?test_\w+", re.MULTILINE)


def test_no_test_module_imports_another() -> None:
    """What tests share lives in helper modules (``cli_helpers.py``, ...), never in a test
    module: importing one runs its module-level code and ties its tests to another's.
    Code run in a subprocess (a string in the test) counts too."""
    offenders = {path.name: IMPORTS_A_TEST_MODULE.findall(path.read_text(encoding="utf-8"))
                 for path in sorted(TESTS_DIR.glob("test_*.py"))}
    assert {name: lines for name, lines in offenders.items() if lines} == {}


def test_the_import_check_sees_every_form() -> None:
    """The pattern above catches each way of importing a test module, and nothing else."""
    caught = ["from test_evaluators import positions", "import test_search",
              "    from tests.test_x import y", "        from test_tournament_core import result"]
    missed = ["from board_strategies import boards", "import testing", "# see test_search"]
    assert all(IMPORTS_A_TEST_MODULE.search(line) for line in caught)
    assert not any(IMPORTS_A_TEST_MODULE.search(line) for line in missed)


# -- names the project's own texts give ----------------------------------------------

# a file path in the package or the tests: ``oska_gui/engine/search.py``, ``tests/run.py``
FILE_PATH = re.compile(r"\b(?:oska_gui|tests)/[\w/]*\w\.py\b")
# a dotted name in the package: ``oska_gui.engine.search``, ``oska_gui.cli`` (not ``oska_gui``)
DOTTED_NAME = re.compile(r"\boska_gui(?:\.\w+)+")
# a developer tool beside tests/, by path or as run: ``tools/bench.py``, ``-m tools.bench``
# (not the package's own ``oska_gui/tools/...`` or ``oska_gui.tools...``)
TOOL_NAME = re.compile(r"(?<![\w./])tools(?:/[\w/]*\w\.py\b|\.\w+)")
DOCS_DIR = REPO_ROOT / "docs"


def documents() -> list[Path]:
    """Return the README and every page of ``docs/``."""
    return [REPO_ROOT / "README.md", *sorted(DOCS_DIR.glob("*.md"))]


def project_texts() -> list[Path]:
    """Return the project's own text files: the README and the docs, pyproject, main.py
    and the package's, the tests' and the tools' Python files (not installed node_modules, and not
    this file, which names on purpose what must not be named).

    Returns:
        The files' paths.
    """
    texts = [*documents(), REPO_ROOT / "pyproject.toml", REPO_ROOT / "main.py"]
    for folder in ("oska_gui", "tests", "tools"):
        texts += [path for path in sorted((REPO_ROOT / folder).rglob("*.py"))
                  if "node_modules" not in path.parts and path != Path(__file__).resolve()]
    return texts


def names_in(pattern: re.Pattern[str], path: Path) -> set[str]:
    """Return every distinct match of ``pattern`` in a file.

    Args:
        pattern: what to look for.
        path: the file to read.

    Returns:
        The matched strings.
    """
    return set(pattern.findall(path.read_text(encoding="utf-8")))


def resolves(dotted: str) -> bool:
    """Tell whether a dotted name is a module of the package, or a name defined in one.

    Args:
        dotted: e.g. ``oska_gui.cli.solve`` or ``oska_gui.movegen``.

    Returns:
        True when the longest module prefix exists as a file or package folder and the
        rest, if any, is an attribute of it (only then is the module imported).
    """
    parts = dotted.split(".")
    for length in range(len(parts), 0, -1):
        base = REPO_ROOT.joinpath(*parts[:length])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            break
    else:
        return False
    found: Any = importlib.import_module(".".join(parts[:length])) if length < len(parts) else None
    for attribute in parts[length:]:
        if not hasattr(found, attribute):
            return False
        found = getattr(found, attribute)
    return True


def missing_names(pattern: re.Pattern[str], exists: Callable[[str], bool]) -> dict[str, list[str]]:
    """Return, file by file, the names matching ``pattern`` that do not exist.

    Args:
        pattern: how a name looks (``FILE_PATH`` or ``DOTTED_NAME``).
        exists: tells whether one name exists.

    Returns:
        {file relative to the repo: its missing names}, only files with some.
    """
    missing = {str(path.relative_to(REPO_ROOT)): sorted(name for name in names_in(pattern, path)
                                                          if not exists(name))
               for path in project_texts()}
    return {path: names for path, names in missing.items() if names}


def test_the_documents_name_files_and_modules() -> None:
    """The README and pyproject.toml name files and modules, and every docs page but the
    index names files (so the checks below see them)."""
    for document in ("README.md", "pyproject.toml"):
        assert names_in(FILE_PATH, REPO_ROOT / document), document
        assert names_in(DOTTED_NAME, REPO_ROOT / document), document
    pages = [page for page in documents()[1:] if page.name != "README.md"]
    assert len(pages) >= 10
    for page in pages:
        assert names_in(FILE_PATH, page) | names_in(TOOL_NAME, page), page.name
    assert set().union(*(names_in(DOTTED_NAME, page) for page in pages))
    assert set().union(*(names_in(TOOL_NAME, page) for page in pages))


def test_every_file_the_project_names_exists() -> None:
    """A moved or renamed file leaves no old path behind in the docs, comments or tests."""
    assert missing_names(FILE_PATH, lambda path: (REPO_ROOT / path).is_file()) == {}


def test_every_module_the_project_names_exists() -> None:
    """Likewise for dotted names: ``python -m oska_gui.cli``, ``oska_gui.movegen``."""
    assert missing_names(DOTTED_NAME, resolves) == {}


def tool_file(name: str) -> Path:
    """Return the file a tool's name stands for: ``tools.bench`` and ``tools/bench.py``
    are both ``REPO_ROOT/tools/bench.py``."""
    return REPO_ROOT / (name if name.endswith(".py") else name.replace(".", "/") + ".py")


def test_every_tool_the_project_names_exists() -> None:
    """Likewise for the developer tools beside tests/: ``tools/train.py``,
    ``python -m tools.train``."""
    assert missing_names(TOOL_NAME, lambda name: tool_file(name).is_file()) == {}


def test_the_tool_check_sees_both_forms_and_not_the_package(tmp_path: Path) -> None:
    """A tool is found by path and by its ``-m`` name; the package's folder is not a tool."""
    text = tmp_path / "notes.md"
    text.write_text("`tools/bench.py`, `python -m tools.train --quick`, developer tools.\n"
                    "oska_gui/tools/idle.py and oska_gui.tools.depths are the package's")
    assert names_in(TOOL_NAME, text) == {"tools/bench.py", "tools.train"}
    assert tool_file("tools.train") == tool_file("tools/train.py") == REPO_ROOT / "tools/train.py"


def test_the_name_checks_catch_moved_modules(tmp_path: Path) -> None:
    """The old places of moved modules are found in a text and reported missing."""
    text = tmp_path / "notes.md"
    text.write_text("the tablebase (oska_gui/tablebase.py) and `python -m oska_gui.train`")
    assert names_in(FILE_PATH, text) == {"oska_gui/tablebase.py"}
    assert not (REPO_ROOT / "oska_gui" / "tablebase.py").exists()
    assert names_in(DOTTED_NAME, text) == {"oska_gui.train"}
    assert not resolves("oska_gui.train")
    assert not resolves("oska_gui.no_such_name")
    assert not resolves("oska_gui.tools.train")  # the tools left the package
    assert resolves("oska_gui.cli.solve") and resolves("oska_gui.movegen")


def test_no_text_points_outside_the_project() -> None:
    """docs/rules.md is the project's rules text: nothing cites a rules file or a folder
    that a clone of the project does not have."""
    outside = re.compile(r"RULES\.md|\.\./shared|/work/shared")
    offenders = {str(path.relative_to(REPO_ROOT)): sorted(names_in(outside, path))
                 for path in project_texts() if names_in(outside, path)}
    assert offenders == {}


# -- the README and the docs ---------------------------------------------------------

README_MAX_LINES = 300
MAX_LINE = 100
# a Markdown link or image's target, or an HTML image's source: ``[text](docs/rules.md#x)``
LINK = re.compile(r"\]\(([^)\s]+)\)|<img\s[^>]*?src=\"([^\"]+)\"")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$")


def heading_anchors(page: Path) -> set[str]:
    """Return the anchors GitHub gives a Markdown page's headings: lower case, every
    character but letters, digits, '_', '-' and spaces dropped, spaces turned to '-'
    (a repeated heading's later anchors get '-1', '-2', ...). Code blocks are skipped."""
    anchors: set[str] = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else HEADING.match(line)
        if heading:
            anchor = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
            count = sum(1 for known in anchors if re.fullmatch(re.escape(anchor) + r"(-\d+)?",
                                                               known))
            anchors.add(f"{anchor}-{count}" if count else anchor)
    return anchors


def broken_links(page: Path) -> list[str]:
    """Return the links of a page that lead nowhere: a relative file that does not exist,
    or a heading anchor its Markdown target lacks (web addresses are not followed)."""
    broken = []
    for match in LINK.finditer(page.read_text(encoding="utf-8")):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and file.suffix == ".md"
                                 and anchor not in heading_anchors(file)):
            broken.append(target)
    return broken


def test_the_readme_is_short_and_every_document_narrow() -> None:
    """The README is for users: at most 300 lines; it and every docs page keep their lines
    within 100 characters."""
    assert len((REPO_ROOT / "README.md").read_text(encoding="utf-8").splitlines()) \
        <= README_MAX_LINES
    wide = {str(page.relative_to(REPO_ROOT)): number
            for page in documents()
            for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > MAX_LINE}
    assert wide == {}


def test_every_link_of_the_documents_leads_somewhere() -> None:
    """Links and images of the README and the docs name files that exist, and headings
    that their pages have."""
    broken = {str(page.relative_to(REPO_ROOT)): broken_links(page) for page in documents()}
    assert {page: links for page, links in broken.items() if links} == {}


def test_the_link_check_catches_a_missing_page_and_heading(tmp_path: Path) -> None:
    """A link to a page that is not there, or to a heading a page lacks, is broken."""
    (tmp_path / "other.md").write_text("# Perfect play on n = 5\n\n## `oska match`\n")
    page = tmp_path / "page.md"
    page.write_text("[a](other.md#perfect-play-on-n--5) [b](other.md#oska-match) "
                    "[c](gone.md) [d](other.md#oska-solve) [e](#here) "
                    "[f](https://example.org/x) <img src=\"nothing.png\">\n# Here\n")
    assert broken_links(page) == ["gone.md", "other.md#oska-solve", "nothing.png"]


def test_the_readme_and_the_index_link_every_docs_page() -> None:
    """Each page of docs/ is listed in the docs index and in the README's Read more."""
    pages = {page.name for page in DOCS_DIR.glob("*.md")} - {"README.md"}
    index = (DOCS_DIR / "README.md").read_text(encoding="utf-8")
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8").split("## Read more", 1)[1]
    assert {page for page in pages if f"]({page})" not in index} == set()
    assert {page for page in pages if f"](docs/{page})" not in readme} == set()


def test_the_wheel_holds_the_package_and_not_the_developer_tools() -> None:
    """pyproject's package search finds every folder of ``oska_gui`` and nothing of
    ``tools/``, which is run from a checkout (a player's install carries no workshop)."""
    import setuptools

    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    find = config["tool"]["setuptools"]["packages"]["find"]
    found = set(setuptools.find_namespace_packages(
        where=str(REPO_ROOT), include=find["include"], exclude=find["exclude"]))
    folders = {f"oska_gui.{path.name}" for path in (REPO_ROOT / "oska_gui").iterdir()
               if (path / "__init__.py").is_file()}
    assert folders <= found
    assert (REPO_ROOT / "tools" / "__init__.py").is_file()
    assert not {name for name in found if not name.startswith("oska_gui")}
