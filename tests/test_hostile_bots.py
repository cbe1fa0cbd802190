"""Bots that start processes of their own (issue 12, items 9-10): nothing is left running.

Each bot starts ``sleep MARKER`` (a duration nothing else uses) in a new session, or as
a daemon through a double fork, notes its process id in a file, then answers, exits,
hangs, raises or calls sys.exit. Whatever it did, once the bot is stopped (its answer
was a crash or a timeout, or the caller closed it, was sent SIGTERM or was killed
outright) none of those processes may still run. Linux only: elsewhere only the bot's
process group is killed (see docs/bots.md, "The bot sandbox").

Last, answers that broke the bot's host (issue 21, item 6): values no JSON writer or
reader takes are a malformed answer with the reason, not a crash.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run_cli
from hostile_helpers import (
    REPO_ROOT,
    SPAWNS,
    THEN,
    alive,
    kill_marked,
    marked,
    run_python,
    state_of,
    tagged,
    wait_until,
    write_spawner,
)

from oska_gui.bots import proctree
from oska_gui.play.bot_loader import open_bot

pytestmark = pytest.mark.skipif(not proctree.available(), reason="needs Linux /proc")

START = ["wwww", "---", "--", "---", "bbbb"]
REASONS = {"returns": None, "raises": "exception", "exits": "crash", "sys-exit": "crash",
           "hangs": "timeout"}


@pytest.fixture
def marker() -> Iterator[str]:
    """Yield a sleep duration no other process uses; kill its processes afterwards."""
    mark = f"4{random.randrange(10**6):06d}.5"
    yield mark
    kill_marked(mark)


def noted(pids: Path) -> list[int]:
    """Return the process ids a bot noted (none if it noted nothing yet)."""
    return [int(line) for line in pids.read_text().split()] if pids.exists() else []


@pytest.mark.slow
@pytest.mark.timing  # its deadlines and pid checks race a loaded machine
@pytest.mark.parametrize("spawn", sorted(SPAWNS))
@pytest.mark.parametrize("then", sorted(THEN))
def test_what_a_bot_starts_ends_with_it(tmp_path: Path, marker: str, spawn: str,
                                        then: str) -> None:
    """A crash or timeout stops the bot and all it started at once; a bot that answered
    (or raised) keeps its processes until it is closed, then they go too."""
    bot, pids = write_spawner(tmp_path, marker, spawn, then)
    player = open_bot(str(bot), time_limit=1.0)
    try:
        reply = player.ask(START, "w", 1)
        assert reply.reason == REASONS[then], reply.describe()
        assert wait_until(lambda: noted(pids), 5), "the bot started nothing"
        if REASONS[then] in ("crash", "timeout"):
            assert wait_until(lambda: not marked(marker), 5), marked(marker)
        else:
            assert all(alive(pid) for pid in noted(pids))
    finally:
        player.close()
    assert wait_until(lambda: not marked(marker), 5), marked(marker)
    assert not any(alive(pid) for pid in noted(pids))


def test_a_match_leaves_nothing_running(tmp_path: Path, marker: str) -> None:
    """The issue's case: a bot starting ``sleep`` in a new session at every move, in a
    whole ``oska match``: one process per move, none left when the command ends."""
    bot, pids = write_spawner(tmp_path, marker, "session", "returns")
    result = run_cli("match", bot, "--games", 2, "--ai", 1)
    assert result.returncode == 0, result.stderr
    assert len(noted(pids)) >= 2
    assert wait_until(lambda: not marked(marker), 5), marked(marker)


def test_sigterm_to_a_match_stops_the_bots_and_what_they_started(tmp_path: Path,
                                                                 marker: str) -> None:
    """SIGTERM, like Ctrl+C: a one-line note, exit code 143, no process left (item 10)."""
    bot, pids = write_spawner(tmp_path, marker, "session", "returns")
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    match = subprocess.Popen([sys.executable, "-m", "oska_gui", "match", str(bot),
                              "--games", "100", "--ai", "2s"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: marked(marker), 30), "the bot never moved"
        match.send_signal(signal.SIGTERM)
        _, err = match.communicate(timeout=30)
    finally:
        if match.poll() is None:  # the test failed: stop the match itself
            match.kill()
            match.wait()
    assert match.returncode == 143 and "terminated" in err and "Traceback" not in err
    assert wait_until(lambda: not marked(marker), 5), marked(marker)


def test_a_caller_killed_outright_takes_the_bot_and_its_processes_along(tmp_path: Path,
                                                                        marker: str) -> None:
    """The caller dies without any clean-up (SIGKILL, os._exit): the bot's keeper sees
    it and kills everything below it."""
    bot, pids = write_spawner(tmp_path, marker, "daemon", "returns")
    run_python(f"""
        import os
        from oska_gui.play.bot_loader import open_bot
        player = open_bot({str(bot)!r}, time_limit=5)
        assert player.ask({START!r}, "w", 1).ok
        os._exit(0)  # no clean-up at all
    """, timeout=60)
    assert noted(pids)
    assert wait_until(lambda: not marked(marker), 10), marked(marker)


def test_a_caller_that_died_before_the_bot_started_is_noticed(tmp_path: Path) -> None:
    """The bot's host is told its caller's id: when the caller is gone by the time the
    host looks (it died while the host started), the host ends at once instead of
    taking its new parent for the caller and living on."""
    bot = tmp_path / "bot.py"
    bot.write_text("def oskaplayer(board, player, depth):\n    return board\n", "utf-8")
    gone = subprocess.Popen(["true"])
    gone.wait()
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    host = subprocess.Popen([sys.executable, "-m", "oska_gui.bots.external_worker", str(bot),
                             "--caller", str(gone.pid)], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        host.wait(timeout=10)
    finally:
        if host.poll() is None:  # the test failed: stop the host and its keeper
            proctree.kill_tree(host.pid)
            host.wait()
    assert host.returncode == -signal.SIGKILL  # the keeper found no caller, killed the host
    assert not proctree.descendants(host.pid)


# Answers that broke the host (it died writing them) and what the forfeit must say.
UNWRITABLE = [
    pytest.param("a = list(board)\n    a.append(a)\n    return a",
                 "the result[5] is a list that contains itself", id="itself"),
    pytest.param("a = []\n    for _ in range(100_000):\n        a = [a]\n    return a",
                 "the result has lists nested more than 100 deep", id="deep"),
    pytest.param("return 10**5000", "the result is an int of more than 1,000 digits",
                 id="huge-int"),
    pytest.param("return [board, [1, -10**1200]]",
                 "the result[1][1] is an int of more than 1,000 digits", id="inner-int"),
]


@pytest.mark.parametrize(("body", "words"), UNWRITABLE)
def test_an_answer_json_cannot_carry_is_malformed_not_a_crash(tmp_path: Path, body: str,
                                                               words: str) -> None:
    """A list that contains itself, a list nested 100,000 deep, an int of 5,000 digits:
    a malformed answer saying which (they were 'crash (the bot process died (exit code
    1))'), and the same process answers the next call."""
    bot = tmp_path / "unwritable.py"
    bot.write_text(f"def oskaplayer(board, player, depth):\n    {body}\n", encoding="utf-8")
    player = open_bot(str(bot), time_limit=10)
    try:
        for _ in range(2):
            reply = player.ask(START, "w", 1)
            assert reply.reason == "malformed", reply.describe()
            assert words in reply.describe()
        assert player.process.starts == 1
    finally:
        player.close()


def test_a_bot_that_makes_its_arguments_unwritable_still_answers(tmp_path: Path) -> None:
    """A bot that puts the board it was given inside itself, then answers well: its move
    counts, marked as having changed its arguments (it crashed the host before)."""
    bot = tmp_path / "mutates.py"
    bot.write_text("from oska_gui import oskaplayer as ours\n\n\n"
                   "def oskaplayer(board, player, depth):\n"
                   "    move = ours(board, player, 1)\n"
                   "    board.append(board)\n"
                   "    return move\n", encoding="utf-8")
    player = open_bot(str(bot), time_limit=10)
    try:
        reply = player.ask(START, "w", 1)
        assert reply.ok and reply.mutated, reply.describe()
    finally:
        player.close()


# How the caller closing a bot is cut short at the worst moment: every process below the
# bot's keeper is stopped, none is killed yet (the 20-40 ms gap, made certain).
CUT_SHORT = {
    "killed": "os.kill(os.getpid(), signal.SIGKILL)",
    "interrupted": "signal.raise_signal(signal.SIGINT)",  # Ctrl+C: caught, it lives on
    "keeper-terminated-too": "os.kill(KEEPER, signal.SIGTERM); "
                             "os.kill(os.getpid(), signal.SIGKILL)",
}


@pytest.mark.timing  # it times signals against a stop in progress
@pytest.mark.parametrize("how", sorted(CUT_SHORT))
def test_a_stop_cut_short_after_the_stop_pass_leaves_nothing(tmp_path: Path, marker: str,
                                                              how: str) -> None:
    """The caller closes a bot whose ``sleep`` runs in a session of its own and is cut
    short right after it stopped the tree, before the first SIGKILL: killed outright,
    interrupted by an exception it survives, or killed along with a SIGTERM to the
    keeper. Within 5 s no process of the tree is left, stopped or running."""
    bot, _ = write_spawner(tmp_path, marker, "session", "returns")
    token = f"oska-stop-test-{marker}"
    script = f"""
        import os, signal, time
        # Ctrl+C raises KeyboardInterrupt here even when the test runner was started
        # with SIGINT ignored (a background job), which children inherit.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from oska_gui.bots import proctree
        from oska_gui.play.bot_loader import open_bot
        player = open_bot({str(bot)!r}, time_limit=20)
        assert player.ask({START!r}, "w", 1).ok
        KEEPER = player.process.pid
        send = proctree._send

        def stopped():
            states = []
            for pid in proctree.descendants(KEEPER):
                with open(f"/proc/{{pid}}/stat") as stat:
                    states.append(stat.read().rsplit(")", 1)[1].split()[0])
            return states.count("T")

        def cut_short(pids, signum):
            if signum == signal.SIGKILL:  # the stop pass is over: the worst moment
                proctree._send = send
                end = time.monotonic() + 5  # a stop takes effect a moment after it is sent
                while stopped() < 2 and time.monotonic() < end:
                    time.sleep(0.01)
                print("stopped", stopped(), flush=True)
                {CUT_SHORT[how]}
            send(pids, signum)

        proctree._send = cut_short
        try:
            player.close()
            time.sleep(5)  # the Ctrl+C raised in the killer thread may reach us only now
        except KeyboardInterrupt:
            print("alive", flush=True)
            time.sleep(60)
    """
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OSKA_TEST_TOKEN=token)
    caller = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert caller.stdout is not None
        assert caller.stdout.readline().split() == ["stopped", "2"]  # the host, its sleep
        if how == "interrupted":
            assert caller.stdout.readline().strip() == "alive" and caller.poll() is None
        else:
            assert caller.wait(timeout=10) == -signal.SIGKILL

        def left() -> list[str]:
            return [f"{pid} {state_of(pid)}" for pid in tagged(token) if pid != caller.pid]

        assert wait_until(lambda: not left(), 5), left()
    finally:
        caller.kill()
        caller.wait()
        caller.stdout.close()
