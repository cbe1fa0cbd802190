"""``oska tournament --scheduler``: a real local Dask cluster (a scheduler and two worker
processes, started here as programs) plays a small tournament. No mocks.

The cluster's processes are killed (by process group) when the module's tests end,
whatever happened, and nothing they started may be left running.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import distributed  # the cluster extra is in the test extra: missing is a loud failure
import pytest
from cli_helpers import write_bot
from hostile_helpers import tagged, wait_until
from tournament_helpers import (
    SLOW_BOT,
    games_line,
    run_tournament,
    running_in,
    standings,
    tagged_env,
    tournament_command,
)

pytestmark = pytest.mark.cluster

WORKERS = 2
SAME_EVERYWHERE = ("rank", "entrant", "Elo", "95% interval", "points", "games", "W-L-D",
                   "forfeits", "exception", "timeout")


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    """Start ``python -m ARGS`` in a process group of its own, output into ``log``."""
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", *args], env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)


@dataclass(frozen=True)
class Cluster:
    """A running test cluster: its scheduler's address and the tag of its processes."""

    address: str
    token: str


def scheduler_address(path: Path) -> str | None:
    """Return the address in the scheduler file ``path``, or None while the file is
    missing or not yet a whole JSON document."""
    try:
        return json.loads(path.read_text())["address"]
    except (FileNotFoundError, json.JSONDecodeError, KeyError):
        return None


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Start a Dask scheduler and a worker program with two processes of one thread on
    this machine (its nanny restarts a worker that dies); yield the scheduler's address
    and the processes' tag; kill them all afterwards."""
    folder = tmp_path_factory.mktemp("cluster")
    env, token = tagged_env()
    address_file = folder / "scheduler.json"
    programs = []
    try:
        programs.append(start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard", "--scheduler-file",
                               str(address_file)], env, folder / "scheduler.log"))
        # the scheduler creates the file before it writes it: wait for a whole document
        assert wait_until(lambda: scheduler_address(address_file) is not None, 60), \
            (folder / "scheduler.log").read_text()
        address = scheduler_address(address_file)
        assert address is not None
        programs.append(start(["distributed.cli.dask_worker", address, "--nworkers",
                               str(WORKERS), "--nthreads", "1", "--no-dashboard", "--host",
                               "127.0.0.1", "--local-directory", str(folder)],
                              dict(env, TMPDIR=str(folder)), folder / "workers.log"))
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(WORKERS, timeout=120)
        yield Cluster(address, token)
    finally:
        for program in programs:
            with contextlib.suppress(ProcessLookupError):  # it died already
                os.killpg(program.pid, signal.SIGKILL)
            program.wait()
    assert wait_until(lambda: not tagged(token), 10), f"left running: {tagged(token)}"


def test_a_tournament_on_the_cluster_plays_the_same_games_as_on_local_cores(
        tmp_path: Path, cluster: Cluster) -> None:
    """Bots named by paths relative to a folder the workers do not run in (so their
    source must travel with the tasks): the cluster's standings equal a local run's,
    forfeits included; a rerun through the cluster reuses every game."""
    folder = tmp_path / "bots"
    folder.mkdir()
    for name in ("good", "raises", "hangs"):
        write_bot(folder, name)
    entrants = ["good.py", "raises.py", "hangs.py", "--ai", "1", "--time-limit", "1"]
    db = tmp_path / "cluster.sqlite"
    env, token = tagged_env()
    remote = run_tournament(*entrants, "--db", db, "--scheduler", cluster.address, env=env,
                            cwd=folder)
    assert remote.returncode == 0, remote.stderr
    assert games_line(remote.stdout) == f"games: 12 played now, 0 reused from {db}"
    local = run_tournament(*entrants, "--db", tmp_path / "local.sqlite", "--workers", 2,
                           cwd=folder)
    assert local.returncode == 0, local.stderr
    on_cluster, on_cores = standings(remote.stdout), standings(local.stdout)
    assert on_cluster["hangs.py:oskaplayer"]["timeout"] == "5"
    assert on_cluster["raises.py:oskaplayer"]["exception"] == "5"
    for name, row in on_cores.items():
        assert {key: on_cluster[name][key] for key in SAME_EVERYWHERE} == {
            key: row[key] for key in SAME_EVERYWHERE}
    again = run_tournament(*entrants, "--db", db, "--scheduler", cluster.address, cwd=folder)
    assert games_line(again.stdout) == f"games: 0 played now, 12 reused from {db}"
    assert not tagged(token)  # the command's own processes are gone


def test_a_worker_killed_mid_run_costs_only_a_replayed_game(tmp_path: Path,
                                                            cluster: Cluster) -> None:
    """SIGKILL to one of the cluster's worker processes while slow bots play: Dask plays
    its game again on another worker, the tournament completes with every game, and the
    killed worker's bots end too."""
    for name in ("slow_a", "slow_b"):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(SLOW_BOT), encoding="utf-8")
    db = tmp_path / "t.sqlite"
    env, _ = tagged_env()
    run = subprocess.Popen(tournament_command(tmp_path / "slow_a.py", tmp_path / "slow_b.py",
                                              "--db", db, "--games", 6, "--scheduler",
                                              cluster.address),
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: len(running_in(cluster.token, b"external_worker")) >= 2, 60)
        os.kill(running_in(cluster.token, b"spawn_main")[0], signal.SIGKILL)
        out, err = run.communicate(timeout=180)
    finally:
        run.kill()
    assert run.returncode == 0, err
    assert games_line(out) == f"games: 6 played now, 0 reused from {db}"
    assert {row["games"] for row in standings(out).values()} == {"6"}
    assert wait_until(lambda: not running_in(cluster.token, b"external_worker"), 10)


def test_an_unreachable_scheduler_is_one_clear_line(tmp_path: Path) -> None:
    """No scheduler at the address: exit code 2 and one line saying so, no traceback."""
    good = write_bot(tmp_path, "good")
    result = run_tournament(good, "--ai", "1", "--db", tmp_path / "t.sqlite", "--scheduler",
                            "tcp://127.0.0.1:9")
    assert result.returncode == 2, result.stderr
    assert "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in result.stderr
    assert "Traceback" not in result.stderr
