"""Process trees on Linux: keep every descendant of a bot in reach, and kill them all.

A bot may start processes of its own, even in a new session (``start_new_session``) or
through a double fork, so that killing the bot's process group misses them and they are
left running, adopted by init. Two Linux facilities close that gap:

- a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``) adopts its orphaned
  descendants instead of init, so all of them stay in its subtree while it lives;
- ``/proc`` lists every process with its parent, so the subtree can be found.

``kill_tree`` has two ways. Below a root that adopts orphans (the bot's keeper killing
what is below itself) each process is killed as soon as it is found: the orphans it
leaves come back to the root and are found on the next look, so nothing is ever
stopped. Below any other root (the caller killing a keeper it cannot vouch for) each
process is stopped first (SIGSTOP: a stopped process cannot fork any more) until no new
one turns up, then all are killed. That work runs in a thread of its own, which the
caller waits for: Ctrl+C, or SIGTERM turned into an exception, is raised in the
caller's thread and cannot cut it short between the stop and the kill. The root is
never stopped and is killed last: it is the bot's keeper, which only watches, and if
whoever kills the tree dies half-way (SIGKILL, ``os._exit``), the keeper sees its
caller gone and kills the stopped processes itself. Elsewhere ``available()`` is False
and callers fall back to killing the process group. Only the standard library is used,
so the bot host (``external_worker``) can use this module too.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections import defaultdict

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PR_SET_CHILD_SUBREAPER = 36
KILL_SECONDS = 2.0  # how long killing as found waits for the killed processes to end
STAT_START_TIME = 19  # /proc/PID/stat after the command: state is 0, starttime 19


def available() -> bool:
    """Return True where process trees can be listed (Linux with /proc)."""
    return sys.platform.startswith("linux") and os.path.isdir("/proc/self")


def _prctl(option: int, value: int) -> bool:
    """Call ``prctl(option, value)`` for this process; return True if it worked."""
    if not available():
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library, or no prctl in it
        return False


def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants; return True if it worked.

    Not inherited by child processes. False where the system has no such thing.
    """
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent(parent: int) -> bool:
    """Have the kernel kill this process (SIGKILL) when its parent ``parent`` ends.

    Unlike a thread that polls, this works while the process is stopped. Call it in a
    child forked by the main thread of ``parent`` (the kernel watches the thread that
    forked). If ``parent`` ended already, this process ends at once.

    Returns:
        False where the system has no such thing (nothing changed), True otherwise.
    """
    if not _prctl(PR_SET_PDEATHSIG, signal.SIGKILL):
        return False
    if os.getppid() != parent:  # it ended before the kernel was asked to watch
        os.kill(os.getpid(), signal.SIGKILL)
    return True


def _stat_fields(pid: str | int) -> list[bytes] | None:
    """Return the fields of /proc/PID/stat after the command (state first), None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            stat = stat_file.read()
    except OSError:  # it ended while we looked
        return None
    # "pid (command) state ppid ...": the command may hold spaces and ')'
    return stat[stat.rfind(b")") + 2:].split()


def start_time(pid: int) -> int | None:
    """Return when process ``pid`` started (clock ticks since boot), None if it has
    ended (gone, or a zombie not reaped yet).

    With the id it names one process for good: an id alone may be reused later.
    """
    fields = _stat_fields(pid) if available() else None
    return int(fields[STAT_START_TIME]) if fields and fields[0] != b"Z" else None


def pid_namespace() -> str:
    """Return the number of this process's PID namespace ('' where unknown).

    Process ids mean something only within one namespace: a container sharing a
    temporary folder with its host numbers its processes apart.
    """
    try:
        link = os.readlink("/proc/self/ns/pid")  # 'pid:[4026531836]'
    except OSError:
        return ""
    return "".join(char for char in link if char.isdigit())


def processes() -> dict[int, tuple[int, bytes]]:
    """Return {process id: (parent process id, state letter)} for every process in /proc."""
    found = {}
    for name in os.listdir("/proc"):
        fields = _stat_fields(name) if name.isdigit() else None
        if fields:
            found[int(name)] = (int(fields[1]), fields[0])
    return found


def parent_of_each() -> dict[int, int]:
    """Return {process id: parent process id} for every process in /proc."""
    return {pid: parent for pid, (parent, _) in processes().items()}


def descendants(root: int, live_only: bool = False) -> set[int]:
    """Return the ids of every process below ``root`` in the process tree now.

    Args:
        root: the process id at the top of the tree.
        live_only: leave out zombies (processes that ended, not yet reaped).
    """
    table = processes()
    children = defaultdict(list)
    for pid, (parent, _) in table.items():
        children[parent].append(pid)
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children[todo.pop()]:
            if child not in found:
                found.add(child)
                todo.append(child)
    return {pid for pid in found if table[pid][1] != b"Z"} if live_only else found


def kill_tree(root: int, include_root: bool = True, adopts: bool = False) -> None:
    """Kill every descendant of ``root``, then ``root`` itself if ``include_root``.

    Processes that are gone already, or that belong to someone else, are skipped.
    Zombies are left for their parent to reap. The work runs in a thread of its own
    that an exception in this thread cannot stop (see the module's text): if the wait
    for it is interrupted, it still finishes.

    Args:
        root: the process id at the top of the tree.
        include_root: whether to kill ``root`` too (last).
        adopts: ``root`` is a child subreaper (this process, or one known to be):
            each process is killed as found and none is stopped.
    """
    killer = threading.Thread(target=_kill_tree, args=(root, include_root, adopts),
                              name=f"kill-tree-{root}")
    try:
        killer.start()
    except RuntimeError:  # at exit Python 3.12+ starts no thread: do the work here
        _kill_tree(root, include_root, adopts)
        return
    killer.join()


def _kill_tree(root: int, include_root: bool, adopts: bool) -> None:
    """Do ``kill_tree``'s work in the calling thread (same arguments).

    The root is killed only once all below it were: if something fails before, the
    root, the bot's keeper, is left to kill them.
    """
    if adopts:
        _kill_as_found(root)
    else:
        _stop_then_kill(root)
    if include_root:
        _send({root}, signal.SIGKILL)


def _kill_as_found(root: int) -> None:
    """Kill the processes below ``root`` (a subreaper) until none is left alive.

    Gives up after ``KILL_SECONDS`` on processes that do not end (stuck in the kernel).
    """
    deadline = time.monotonic() + KILL_SECONDS
    while True:
        alive = descendants(root, live_only=True)
        if not alive or time.monotonic() > deadline:
            return
        _send(alive, signal.SIGKILL)
        time.sleep(0.001)  # a killed process takes a moment to end and hand on its orphans


def _stop_then_kill(root: int) -> None:
    """Stop each process below ``root`` until no new one appears, then kill them all.

    A process is counted as stopped before it is sent SIGSTOP, so that whatever cuts
    this short still kills every process that may have been stopped.
    """
    frozen: set[int] = set()
    try:
        while True:
            fresh = descendants(root) - frozen
            if not fresh:
                break
            frozen |= fresh
            _send(fresh, signal.SIGSTOP)
    finally:
        _send(frozen, signal.SIGKILL)


def _send(pids: set[int], signum: int) -> None:
    """Send ``signum`` to each of ``pids``, skipping those that are gone or not ours."""
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            continue
