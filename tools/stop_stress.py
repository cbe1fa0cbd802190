"""Stopping under load: ``python -m tools.stop_stress [--runs 100] [--load 2]``.

Starts a real ``oska match`` or ``oska tournament`` (two local workers) between two bot
files that each start a ``sleep`` in a session of their own, waits until the bots
play, then stops it at a random moment: SIGTERM to the command, Ctrl+C (SIGINT to its
process group, as a terminal sends it) or SIGTERM to one tournament worker; every
other run a second signal follows within 60 ms, so that it lands in the middle of the
clean-up. ``--load`` busy loops keep the processors busy meanwhile, which widens every
gap. After each run it looks for what was left behind once the command had ended and
``--grace`` seconds passed: processes (running or stopped) of the run, found by a
variable in their environment, and staged bot folders in the run's own temporary
folder. It prints one line a run and how many runs left anything; the exit code is 1
when any did. What a run left is killed and removed before the next one starts.
Linux only (/proc).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from oska_gui.bots import proctree

TOKEN_VARIABLE = "OSKA_STOP_STRESS"
BOT = """\
import subprocess
from oska_gui import oskaplayer as ours

started = []


def oskaplayer(board, player, depth):
    if not started:  # one process of its own, in a session of its own, per bot process
        started.append(subprocess.Popen(["sleep", "3600"], start_new_session=True))
    return ours(board, player, 1)
"""
# how each run is stopped: (command, signal, whom it goes to), taken in turn
SCENARIOS = (("match", signal.SIGTERM, "command"), ("match", signal.SIGINT, "group"),
             ("tournament", signal.SIGTERM, "command"), ("tournament", signal.SIGINT, "group"),
             ("tournament", signal.SIGTERM, "worker"))
READY_SECONDS = 60.0  # how long the bots may take to start playing
END_SECONDS = 30.0  # how long the command may take to end once signalled


@dataclass
class StopOutcome:
    """What one run left behind: ``processes`` as 'pid state command', and folders;
    ``problem`` says why a run could not be judged (its bots never played)."""

    label: str
    exit_code: int | None
    processes: list[str]
    folders: list[str]
    problem: str = ""

    @property
    def clean(self) -> bool:
        """Return True when the run was stopped and left nothing behind."""
        return not self.processes and not self.folders and not self.problem

    @property
    def stopped(self) -> int:
        """Return how many processes were left stopped (state T)."""
        return sum(line.split()[1] == "T" for line in self.processes)


def tagged(token: str) -> dict[int, tuple[int, str, str]]:
    """Return {pid: (parent, state, command)} of the live processes whose environment
    holds ``TOKEN_VARIABLE=token`` (zombies left out)."""
    needle = f"{TOKEN_VARIABLE}={token}".encode() + b"\0"
    found = {}
    for pid, (parent, state) in proctree.processes().items():
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes() + b"\0"
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:  # it ended while we looked, or it is not ours
            continue
        if needle in environ and state != b"Z":
            found[pid] = (parent, state.decode(), command.decode(errors="replace").strip())
    return found


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Return True as soon as ``condition()`` holds, False after ``seconds``."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def command_line(kind: str, bots: list[Path], folder: Path) -> list[str]:
    """Return the ``oska`` command line of a run of ``kind`` ('match' or 'tournament')."""
    line = [sys.executable, "-m", "oska_gui", kind, *map(str, bots)]
    if kind == "match":
        return [*line, "--games", "1000"]
    return [*line, "--games", "1000", "--workers", "2", "--no-progress",
            "--db", str(folder / "t.sqlite")]


def signal_run(process: subprocess.Popen, token: str, signum: int, whom: str) -> None:
    """Send ``signum`` to the run's command, to its process group or to a worker
    (nothing when that has ended meanwhile)."""
    target = process.pid
    if whom == "worker":
        workers = [pid for pid, (parent, _, command) in tagged(token).items()
                   if parent == process.pid and "spawn_main" in command]
        target = workers[0] if workers else process.pid
    try:
        if whom == "group":
            os.killpg(process.pid, signum)
        else:
            os.kill(target, signum)
    except ProcessLookupError:
        return


def one_run(number: int, bots: list[Path], root: Path, grace: float,
            rng: random.Random) -> StopOutcome:
    """Start, stop and inspect run ``number`` (see the module's text); return its outcome."""
    kind, signum, whom = SCENARIOS[number % len(SCENARIOS)]
    twice = number // len(SCENARIOS) % 2 == 1
    label = f"{kind}, {signal.Signals(signum).name} to the {whom}{' twice' if twice else ''}"
    token = f"{os.getpid()}-{number}"
    folder = root / f"run-{number}"
    (folder / "tmp").mkdir(parents=True)
    env = dict(os.environ, TMPDIR=str(folder / "tmp"), **{TOKEN_VARIABLE: token})
    process = subprocess.Popen(command_line(kind, bots, folder), env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        if not wait_for(lambda: any(command.startswith("sleep") for _, _, command
                                    in tagged(token).values()), READY_SECONDS):
            return StopOutcome(label, None, [], [], problem="the bots never played")
        time.sleep(rng.uniform(0.0, 1.5))
        signal_run(process, token, signum, whom)
        if twice:
            time.sleep(rng.uniform(0.0, 0.06))
            signal_run(process, token, signum, whom)
        try:
            code: int | None = process.wait(timeout=END_SECONDS)
        except subprocess.TimeoutExpired:
            code = None  # hung: what it holds counts as left behind
        wait_for(lambda: not tagged(token), grace)
        left = [f"{pid} {state} {command}" for pid, (_, state, command)
                in sorted(tagged(token).items())]  # a hung command among them
        folders = sorted(path.name for path in (folder / "tmp").iterdir())
        return StopOutcome(label, code, left, folders)
    finally:
        for pid in tagged(token):  # the leftovers go, by id (a stopped one too)
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                continue
        process.kill()  # a no-op once it has been waited for
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def start_load(count: int) -> list[subprocess.Popen]:
    """Start ``count`` busy loops (one processor each) and return them."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(count)]


def report(outcomes: list[StopOutcome]) -> str:
    """Return the summary line of all runs: how many left anything, and what."""
    dirty = [outcome for outcome in outcomes if not outcome.clean]
    codes = Counter(str(outcome.exit_code) for outcome in outcomes)
    return (f"{len(dirty)} of {len(outcomes)} runs left something behind "
            f"(processes: {sum(bool(o.processes) for o in dirty)} runs, stopped ones: "
            f"{sum(bool(o.stopped) for o in dirty)} runs, staged folders: "
            f"{sum(bool(o.folders) for o in dirty)} runs, never stopped: "
            f"{sum(bool(o.problem) for o in dirty)} runs); exit codes: "
            + ", ".join(f"{code} x{count}" for code, count in sorted(codes.items())))


def main(argv: list[str] | None = None) -> int:
    """Run the stress test as the command line asks; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m tools.stop_stress",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="how many stops (default 100)")
    parser.add_argument("--load", type=int, default=2,
                        help="busy loops running meanwhile (default 2)")
    parser.add_argument("--grace", type=float, default=5.0,
                        help="seconds after the command ended before looking (default 5)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random moments")
    args = parser.parse_args(argv)
    if not proctree.available():
        parser.error("needs Linux with /proc")
    if args.runs < 1 or args.load < 0 or args.grace < 0:
        parser.error("--runs must be at least 1, --load and --grace at least 0")
    # A handler of ours, not an ignored signal (as in a shell's background job): the
    # commands start with the default action, so that Ctrl+C reaches them; stopping this
    # tool runs its clean-up.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.default_int_handler)
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="oska-stop-stress-"))
    load = start_load(args.load)
    bots = write_bots(root)
    outcomes = []
    try:
        for number in range(args.runs):
            outcome = one_run(number, bots, root, args.grace, rng)
            outcomes.append(outcome)
            print(f"run {number + 1}/{args.runs} ({outcome.label}; exit {outcome.exit_code}): "
                  + ("clean" if outcome.clean else outcome.problem
                     or f"LEFT {outcome.processes} {outcome.folders}"), flush=True)
    finally:
        for busy in load:
            busy.kill()
            busy.wait()
        shutil.rmtree(root, ignore_errors=True)
    print(report(outcomes))
    return 0 if all(outcome.clean for outcome in outcomes) else 1


def write_bots(root: Path) -> list[Path]:
    """Write the two bot files into ``root`` and return their paths."""
    bots = [root / "stress_a.py", root / "stress_b.py"]
    for bot in bots:
        bot.write_text(BOT, encoding="utf-8")
    return bots


if __name__ == "__main__":
    sys.exit(main())
