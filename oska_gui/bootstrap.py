"""Make the project's own virtual environment and run the current command inside it.

Used by the top-level commands (``main.py``, ``tests/run.py``) so that a fresh clone works
with a plain ``python3``. Standard library only: this runs before anything is installed.

What ``ensure_venv`` does, outside the browser:

1. create ``<repo>/.venv`` with ``python -m venv`` if it has no interpreter yet;
2. ``pip install -e ".[extras]"`` into it unless a stamp file says that this exact
   ``pyproject.toml`` (by hash) was already installed with those extras;
3. if the running interpreter is not the venv's, re-execute the same command with it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
VENV_DIR = REPO_ROOT / ".venv"
PYPROJECT = REPO_ROOT / "pyproject.toml"
STAMP_PREFIX = ".oska-stamp-"
# Set to the process id just before re-executing; seeing our own pid again while still
# outside the venv means the re-exec did not land in it (guards against an exec loop).
_GUARD_ENV = "OSKA_BOOTSTRAP_PID"


def _say(message: str) -> None:
    """Print one progress line to stderr.

    Args:
        message: the text to print, without the prefix.
    """
    print(f"[oska bootstrap] {message}", file=sys.stderr, flush=True)


def venv_python(venv: Path) -> Path:
    """Return the path of the interpreter inside a virtual environment.

    Args:
        venv: the virtual environment's folder.

    Returns:
        ``venv/bin/python`` (``venv\\Scripts\\python.exe`` on Windows); it may not exist.
    """
    if os.name == "nt":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def running_in(venv: Path) -> bool:
    """Tell whether the running interpreter belongs to the given virtual environment.

    Args:
        venv: the virtual environment's folder.

    Returns:
        True if ``sys.prefix`` is that folder.
    """
    return Path(sys.prefix).resolve() == venv.resolve()


def file_hash(path: Path) -> str:
    """Hash a file's bytes.

    Args:
        path: the file to hash (``pyproject.toml`` in practice).

    Returns:
        The SHA-256 hex digest of its content.
    """
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _extras_set(extras: str | None) -> frozenset[str]:
    """Split an extras string such as ``"test,docs"`` into a set of names.

    Args:
        extras: comma-separated extras, or None / "" for none.

    Returns:
        The set of extra names (empty for none).
    """
    return frozenset(e.strip() for e in (extras or "").split(",") if e.strip())


def stamp_path(venv: Path, extras: str | None) -> Path:
    """Return the stamp file that records an install of the project with some extras.

    Args:
        venv: the virtual environment's folder.
        extras: comma-separated extras, or None for the plain project.

    Returns:
        ``venv/.oska-stamp-<extras>``, with the extras sorted, or ``-base`` for none.
    """
    name = ",".join(sorted(_extras_set(extras))) or "base"
    return venv / f"{STAMP_PREFIX}{name}"


def stamp_is_current(venv: Path, extras: str | None, pyproject: Path) -> bool:
    """Tell whether the venv already has the project installed with at least these extras.

    A stamp counts if it holds the current hash of ``pyproject`` and its extras include
    all the requested ones (an install with ``[test]`` also satisfies the plain project).

    Args:
        venv: the virtual environment's folder.
        extras: comma-separated extras, or None for the plain project.
        pyproject: the project file whose hash the stamp must hold.

    Returns:
        True if no install is needed.
    """
    wanted = _extras_set(extras)
    current = file_hash(pyproject)
    for stamp in venv.glob(f"{STAMP_PREFIX}*"):
        name = stamp.name.removeprefix(STAMP_PREFIX)
        have = frozenset() if name == "base" else _extras_set(name)
        if wanted <= have and stamp.read_text(encoding="utf-8").strip() == current:
            return True
    return False


def write_stamp(venv: Path, extras: str | None, pyproject: Path) -> Path:
    """Record that the project was installed into the venv with these extras.

    Args:
        venv: the virtual environment's folder.
        extras: comma-separated extras, or None for the plain project.
        pyproject: the project file whose hash to record.

    Returns:
        The path of the stamp file written.
    """
    stamp = stamp_path(venv, extras)
    stamp.write_text(file_hash(pyproject) + "\n", encoding="utf-8")
    return stamp


def _run(cmd: list[str], what: str) -> None:
    """Run a set-up command in the repo root, exiting with a clear message if it fails.

    Args:
        cmd: the command and its arguments.
        what: a short description for the error message.
    """
    result = subprocess.run(cmd, cwd=REPO_ROOT, check=False)
    if result.returncode != 0:
        _say(f"FAILED ({result.returncode}): {what}: {' '.join(cmd)}")
        raise SystemExit(result.returncode or 1)


def ensure_venv(extras: str | None = None) -> None:
    """Make sure the current command runs in the project's ``.venv`` with its dependencies.

    Creates ``.venv`` if needed, installs the project (editable, with ``extras``) when the
    stamp is missing or stale, then re-executes the current command with the venv's python
    if this is not it. Does nothing in the browser (``sys.platform == "emscripten"``).

    Args:
        extras: comma-separated optional-dependency groups to install, e.g. ``"test"``.

    Returns:
        None, once running inside an up-to-date venv (otherwise it does not return: the
        process is replaced, or exits on a failed set-up step).
    """
    if sys.platform == "emscripten":
        return
    python = venv_python(VENV_DIR)
    if not python.exists():
        _say(f"creating virtual environment {VENV_DIR}")
        _run([sys.executable, "-m", "venv", str(VENV_DIR)], "create .venv")
    if not stamp_is_current(VENV_DIR, extras, PYPROJECT):
        target = f".[{extras}]" if _extras_set(extras) else "."
        _say(f'installing the project into .venv: pip install -e "{target}"')
        pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
        _run([*pip, "-e", target], "pip install")
        write_stamp(VENV_DIR, extras, PYPROJECT)
    if running_in(VENV_DIR):
        return
    if os.environ.get(_GUARD_ENV) == str(os.getpid()):
        _say(f"re-running with {python} did not land in {VENV_DIR}; giving up")
        raise SystemExit(1)
    os.environ[_GUARD_ENV] = str(os.getpid())
    argv = [str(python), *sys.orig_argv[1:]]
    _say(f"re-running with {python}")
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "nt":  # no real exec on Windows: run as a child and pass on its code
        raise SystemExit(subprocess.call(argv))
    os.execv(argv[0], argv)
