"""The private folders bot files are copied to (``play.bot_loader``): a stopped run
removes its own, and a folder whose owner died before it could is removed by the next
run, while folders of live runs and anything else in the temporary folder stay.

Linux only: elsewhere a folder's owner cannot be told, and nothing is removed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import REPO_ROOT, write_bot
from hostile_helpers import run_python, wait_until

from oska_gui.bots import proctree
from oska_gui.play.bot_loader import STAGE_PREFIX, open_bot, remove_orphaned_folders

pytestmark = pytest.mark.skipif(not proctree.available(), reason="needs Linux /proc")


@pytest.fixture
def staging(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Yield a fresh temporary folder for this process and the processes it starts."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))
    yield folder


def owned_name(pid: int, started: int | None, namespace: str | None = None) -> str:
    """Return a staged folder's name as ``_stage`` writes it for the owner ``pid``."""
    return f"{STAGE_PREFIX}{namespace or proctree.pid_namespace()}-{pid}-{started}-x1y2"


def gone_pid() -> int:
    """Return the id of a process that has ended (and was reaped)."""
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def test_only_folders_of_gone_owners_are_removed(staging: Path, tmp_path: Path) -> None:
    """Staging a bot removes the folders whose owner ended (or whose id now names another
    process); a live owner's folder, another namespace's, an unnamed one, a link and a
    plain file are left as they were."""
    me, started = os.getpid(), proctree.start_time(os.getpid())
    assert started is not None
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "keep.txt").write_text("mine", encoding="utf-8")
    gone = [owned_name(gone_pid(), 12345), owned_name(me, started + 1)]
    kept = [owned_name(me, started), owned_name(gone_pid(), 1, namespace="1"),
            f"{STAGE_PREFIX}abc123", "oska-game-abc123"]
    for name in gone + kept:
        (staging / name).mkdir()
        (staging / name / "bot.py").write_text("", encoding="utf-8")
    link, plain = owned_name(gone_pid(), 7), owned_name(gone_pid(), 8)
    (staging / link).symlink_to(target)
    (staging / plain).write_text("not a folder", encoding="utf-8")
    player = open_bot(str(write_bot(tmp_path, "good")))
    try:
        left = {path.name for path in staging.iterdir()}
        staged = Path(player.process.code.path).parent
        assert left == {*kept, link, plain, staged.name}
        assert staged.name.startswith(owned_name(me, started)[:-len("x1y2")])
        assert (target / "keep.txt").read_text(encoding="utf-8") == "mine"
    finally:
        player.close()
    assert not staged.exists()
    assert remove_orphaned_folders() == []


def test_a_folder_left_by_a_killed_run_goes_with_the_next(staging: Path,
                                                          tmp_path: Path) -> None:
    """A run killed after it copied a bot but before the bot's process started (so no
    keeper can remove the copy) leaves its folder; the next run removes it."""
    bot = write_bot(tmp_path, "good")
    staged = run_python(f"""
        import os
        from pathlib import Path
        from oska_gui.play.bot_loader import open_bot
        player = open_bot({str(bot)!r})
        print(Path(player.process.code.path).parent, flush=True)
        os._exit(0)  # like kill -9: no clean-up at all
    """).strip()
    assert Path(staged).parent == staging and Path(staged).is_dir()
    run_python(f"""
        from oska_gui.play.bot_loader import open_bot
        open_bot({str(bot)!r}).close()
    """)
    assert not Path(staged).exists() and not list(staging.iterdir())


@pytest.mark.slow
@pytest.mark.timing  # a signal sent into a match that is starting its bots
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_match_removes_its_folders(staging: Path, tmp_path: Path,
                                             signum: int) -> None:
    """SIGTERM or Ctrl+C in the middle of a match: both bots' folders are gone once the
    command has ended."""
    bots = [write_bot(tmp_path, "good")] * 2
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    # SIGINT back to its default in the match: a test runner started as a background job
    # ignores it, and an ignored SIGINT is inherited (Python then sets no Ctrl+C handler).
    match = subprocess.Popen([sys.executable, "-m", "oska_gui", "match", *map(str, bots),
                              "--games", "100"], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert wait_until(lambda: len(list(staging.iterdir())) == 2, 30)
        match.send_signal(signum)
        assert match.wait(timeout=30) in (130, 143)
    finally:
        if match.poll() is None:  # the test failed: stop the match itself
            match.kill()
            match.wait()
    assert wait_until(lambda: not list(staging.iterdir()), 5), list(staging.iterdir())
