"""Tests of the project's set-up: the bootstrap stamp logic and main.py without a display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oska_gui import bootstrap

REPO_ROOT = Path(__file__).resolve().parent.parent


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
