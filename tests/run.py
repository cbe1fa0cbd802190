"""The test command: ``python3 tests/run.py [--quick] [pytest args...]`` (default ``-q``).

Does all set-up itself, from a fresh clone, and quickly when nothing changed:

1. the project's ``.venv`` with the ``test`` extras (``oska_gui.bootstrap.ensure_venv``);
2. system Chromium at ``/usr/bin/chromium`` (apt-get when root; never ``playwright install``);
3. the Pyodide runtime in ``oska_gui/web/node_modules`` (npm, only when needed);
4. pytest, with SDL's dummy video and audio drivers; exits with pytest's exit code.

``--quick`` is the check to run after each change: it leaves out the tests marked
``slow``, ``browser``, ``cluster`` and ``numba`` (markers registered in pyproject.toml)
and so also steps 2 and 3, which only the browser tests need. Both spread the test files
over every core, then run the tests marked ``timing`` (they assert wall-clock bounds)
alone.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

REPO_ROOT = Path(__file__).resolve().parent.parent
WEB_DIR = REPO_ROOT / "oska_gui" / "web"
NPM_STAMP = WEB_DIR / "node_modules" / ".oska-npm-stamp"
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS_DIR = REPO_ROOT / "tests" / "artifacts"
QUICK_FLAG = "--quick"
# The tests a quick run leaves out: each marker is registered in pyproject.toml.
QUICK_MARKS = "not slow and not browser and not cluster and not numba"
# Every run spreads its test files over every core (pytest-xdist): a file's tests stay
# together in one worker, so a module's fixtures (a built site, a browser) are made once.
WORKERS = ["-n", "auto", "--dist", "loadfile"]
# Tests that assert a wall-clock bound run alone, after the others: beside a second
# worker their clocks would measure the other's load.
TIMING = "timing"
NO_TESTS = 5  # pytest's exit code when a selection holds no test


def step(message: str) -> None:
    """Print which set-up step is running.

    Args:
        message: the step's description.
    """
    print(f"[tests/run.py] {message}", file=sys.stderr, flush=True)


def run_or_die(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run a set-up command; on failure print it and exit with its code.

    Args:
        cmd: the command and its arguments.
        cwd: the folder to run it in.
        env: the environment, or None to inherit this one.
    """
    result = subprocess.run(cmd, cwd=cwd, env=env, check=False)
    if result.returncode != 0:
        step(f"FAILED with exit code {result.returncode}: {' '.join(cmd)}")
        sys.exit(result.returncode or 1)


def load_bootstrap() -> ModuleType:
    """Load ``oska_gui/bootstrap.py`` by path, without importing the ``oska_gui`` package.

    The package's ``__init__`` may need dependencies that are not installed yet.

    Returns:
        The bootstrap module.
    """
    path = REPO_ROOT / "oska_gui" / "bootstrap.py"
    spec = importlib.util.spec_from_file_location("oska_bootstrap", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ensure_chromium() -> None:
    """Make sure Debian's Chromium is at ``/usr/bin/chromium``, installing it as root.

    Exits with a clear message if it is missing and this is not root.
    """
    if CHROMIUM.exists():
        step(f"chromium: found {CHROMIUM}")
        return
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        step(
            f"ERROR: {CHROMIUM} is missing and cannot be installed from here (needs root and "
            "apt-get). Install it with: sudo apt-get update && sudo apt-get install -y chromium"
        )
        sys.exit(1)
    step("chromium: missing, installing with apt-get (takes a minute or two)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run_or_die(["apt-get", "update"], cwd=REPO_ROOT, env=env)
    run_or_die(["apt-get", "install", "-y", "chromium"], cwd=REPO_ROOT, env=env)
    if not CHROMIUM.exists():
        step(f"ERROR: apt-get installed chromium but {CHROMIUM} is still missing")
        sys.exit(1)


def npm_inputs_hash() -> str:
    """Hash what decides the content of ``node_modules``: package.json and its lock file.

    Returns:
        A SHA-256 hex digest.
    """
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json"):
        path = WEB_DIR / name
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.exists() else b"(missing)")
    return digest.hexdigest()


def ensure_pyodide() -> None:
    """Install the npm packages of ``oska_gui/web`` (Pyodide) unless already up to date.

    Runs ``npm ci`` when a lock file exists, else ``npm install``, only when
    ``node_modules/pyodide`` is missing or package.json / the lock changed since last time.
    """
    wanted = npm_inputs_hash()
    have = NPM_STAMP.read_text(encoding="utf-8").strip() if NPM_STAMP.exists() else ""
    if (WEB_DIR / "node_modules" / "pyodide").is_dir() and have == wanted:
        step("pyodide: oska_gui/web/node_modules is up to date")
        return
    npm = shutil.which("npm")
    if npm is None:
        step("ERROR: npm is not on PATH; install Node.js and npm, then run this again")
        sys.exit(1)
    verb = "ci" if (WEB_DIR / "package-lock.json").exists() else "install"
    step(f"pyodide: running npm {verb} in oska_gui/web")
    run_or_die([npm, verb, "--no-audit", "--no-fund"], cwd=WEB_DIR)
    NPM_STAMP.write_text(npm_inputs_hash() + "\n", encoding="utf-8")


def run_pytest(args: list[str]) -> int:
    """Run pytest in the repo root with SDL's dummy drivers.

    Args:
        args: the arguments for pytest.

    Returns:
        pytest's exit code.
    """
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pytest", *args]
    step(f"running: {shlex.join(cmd)}")
    return subprocess.run(cmd, cwd=REPO_ROOT, env=env, check=False).returncode


def main(argv: list[str]) -> int:
    """Set everything up, then run the tests.

    Args:
        argv: the command-line arguments: ``--quick`` anywhere among them selects the quick
            run; the others go to pytest (``-q`` when there are none).

    Returns:
        The exit code for the process (pytest's).
    """
    quick = QUICK_FLAG in argv
    pytest_args = [arg for arg in argv if arg != QUICK_FLAG] or ["-q"]
    step("1/4 python environment (.venv with [test] extras)")
    load_bootstrap().ensure_venv("test")
    if quick:
        step("2/4 and 3/4 (chromium, pyodide) skipped: --quick runs no browser test")
    else:
        step("2/4 chromium")
        ensure_chromium()
        step("3/4 pyodide (npm)")
        ensure_pyodide()
    step("4/4 pytest")
    codes = [run_pytest(args) for args in pytest_runs(pytest_args, quick)]
    failed = [code for code in codes if code not in (0, NO_TESTS)]
    return failed[0] if failed else min(codes)


def pytest_runs(pytest_args: list[str], quick: bool) -> list[list[str]]:
    """Return the pytest runs for the given arguments: the tests on every core, then the
    ``timing`` tests alone.

    Args:
        pytest_args: the arguments for pytest; one that chooses the markers (``-m``) or
            the workers (``-n``) itself makes a single run with them.
        quick: whether to leave out ``QUICK_MARKS``'s tests.

    Returns:
        Each run's arguments, in order.
    """
    marks = [QUICK_MARKS] if quick else []
    if any(arg == "-m" or arg.startswith("-n") for arg in pytest_args):
        return [[*(["-m", marks[0]] if marks else []), *pytest_args]]
    together = " and ".join([*(f"({mark})" for mark in marks), f"not {TIMING}"])
    alone = " and ".join([*(f"({mark})" for mark in marks), TIMING])
    return [[*WORKERS, "-m", together, *pytest_args], ["-m", alone, *pytest_args]]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
