"""Process trees on Linux: keep every descendant of a bot in reach, and kill them all.

A bot may start processes of its own, even in a new session (``start_new_session``) or
through a double fork, so that killing the bot's process group misses them and they are
left running, adopted by init. Two Linux facilities close that gap:

- a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``) adopts its orphaned
  descendants instead of init, so all of them stay in its subtree while it lives;
- ``/proc`` lists every process with its parent, so the subtree can be found.

``kill_tree`` stops each process below the root (SIGSTOP: a stopped process cannot
fork any more) until no new one turns up, then kills them all and the root. The root
itself is never stopped: it is the bot's keeper, which only watches, and if whoever
kills the tree dies half-way, the keeper sees its caller gone and kills the stopped
processes itself instead of waiting beside them for good. Elsewhere ``available()`` is
False and callers fall back to killing the process group. Only the standard library is
used, so the bot host (``external_worker``) can use this module too.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections import defaultdict

PR_SET_CHILD_SUBREAPER = 36  # from <linux/prctl.h>


def available() -> bool:
    """Return True where process trees can be listed (Linux with /proc)."""
    return sys.platform.startswith("linux") and os.path.isdir("/proc/self")


def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants; return True if it worked.

    Not inherited by child processes. False where the system has no such thing.
    """
    if not available():
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):  # no C library, or no prctl in it
        return False


def parent_of_each() -> dict[int, int]:
    """Return {process id: parent process id} for every process in /proc."""
    parents = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat_file:
                stat = stat_file.read()
        except OSError:  # it ended while we looked
            continue
        # "pid (command) state ppid ...": the command may hold spaces and ')'
        fields = stat[stat.rfind(b")") + 2:].split()
        parents[int(name)] = int(fields[1])
    return parents


def descendants(root: int) -> set[int]:
    """Return the ids of every process below ``root`` in the process tree now."""
    children = defaultdict(list)
    for pid, parent in parent_of_each().items():
        children[parent].append(pid)
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children[todo.pop()]:
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def kill_tree(root: int, include_root: bool = True) -> None:
    """Kill every descendant of ``root``, then ``root`` itself if ``include_root``.

    Each descendant is stopped first and the tree listed again until no new process
    appears, so one that forks while we look is caught too; the root goes on running
    until the end (see the module's text). Processes that are gone already, or that
    belong to someone else, are skipped. Zombies are left for their parent to reap.

    Args:
        root: the process id at the top of the tree.
        include_root: whether to kill ``root`` too.
    """
    frozen: set[int] = set()
    while True:
        fresh = descendants(root) - frozen
        if not fresh:
            break
        _send(fresh, signal.SIGSTOP)
        frozen |= fresh
    _send(frozen, signal.SIGKILL)
    if include_root:
        _send({root}, signal.SIGKILL)


def _send(pids: set[int], signum: int) -> None:
    """Send ``signum`` to each of ``pids``, skipping those that are gone or not ours."""
    for pid in pids:
        try:
            os.kill(pid, signum)
        except (ProcessLookupError, PermissionError):
            continue
