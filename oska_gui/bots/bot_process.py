"""One external bot's code in its own process, called without blocking the caller.

``BotProcess`` starts ``external_worker`` on a Python file or on a module of a folder (a
``BotCode`` says which; see there for the protocol: JSON lines over private pipes, so
whatever the bot prints cannot corrupt it), loads the code once and calls its
functions one at a time: ``call(...)`` starts a
call, ``poll()`` returns the ``CallResult`` when it is there (``run`` and ``run_batch``
are blocking forms). A call that overruns its time limit is a ``timeout`` and a worker
that dies a ``crash``; either way the process is killed (with everything it started)
and a new one starts on the next call. Loading has its own time limit and does not
count against the calls'. The worker also exits by itself if this process dies, and on
Linux it takes every process the bot started with it (see ``external_worker``).

The worker runs as ``python -P -c BOOT PACKAGE_PARENT ARGS``: ``-P`` keeps the caller's
current folder off the bot's import path (a ``random.py`` there must not stand in for
Python's), and ``BOOT`` finds this package in the folder this process found it in,
then takes that folder off the path again before the worker loads the bot (which can
still import ``oska_gui``: it is loaded already).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from oska_gui.bots import proctree
from oska_gui.bots.answer_caps import (
    ANSWER_BYTES,
    ANSWER_VALUES,
    BATCH_CALLS,
    LINE_BYTES,
    over_cap,
    too_long,
)
from oska_gui.bots.reasons import REASONS, LoadError

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# The worker's start under ``python -P -c``: find this package where this process found it
# (the folder is the first argument), then take that folder off the path again.
BOOT = ("import sys; sys.path.insert(0, sys.argv.pop(1)); "
        "from oska_gui.bots.external_worker import main; del sys.path[0]; sys.exit(main())")
DEFAULT_LOAD_TIMEOUT = 10.0
DEFAULT_MEMORY_MB = 2048
_EOF = object()
_TOO_LONG = object()  # the reader stopped at a line longer than LINE_BYTES
ARRIVED = "_arrived"  # key under which _receive notes when a message came in
OVERSIZED = "_oversized"  # the event of a reply over the caps (answer_caps), made here


@dataclass(frozen=True)
class BotCode:
    """What a bot's process loads, and how messages name it.

    ``path`` is a Python file, loaded with its folder as the import root, or, when
    ``module`` is given, the import root folder in which ``module`` ('bot' or
    'pkg.bot') is imported. ``label`` names the code in messages (default: ``path``).
    ``explain_missing``, given the name of a module the code imports and that cannot be
    found, returns what to say instead of the traceback (None: the traceback).
    ``staged`` says that the file is a copy alone in a folder of its own, whose name
    means nothing to people: tracebacks name the file without it, and the bot's host
    removes that folder if this process dies without closing the bot.
    """

    path: str
    module: str | None = None
    label: str = ""
    explain_missing: Callable[[str], str | None] | None = None
    staged: bool = False

    @property
    def shown(self) -> str:
        """Return how messages name the code: its label, or else its path."""
        return self.label or self.path


@dataclass(frozen=True)
class CallResult:
    """How one call of a bot function ended, as the process saw it or as judged.

    ``status`` is 'ok' (``value`` holds the result) or a key of ``REASONS``: the
    process gives 'exception', 'timeout', 'crash', 'load' or 'unplain' (a result that is
    not plain lists/strings/numbers); ``external.reply_of`` judges an ``oskaplayer``
    result into 'ok' with the legal board as ``value``, 'illegal' or 'malformed'.
    ``detail`` explains a failure; ``seconds`` is the wall-clock time of the call;
    ``mutated`` says whether the function changed its arguments.
    """

    status: str
    value: Any = None
    detail: str = ""
    seconds: float = 0.0
    mutated: bool = False

    @property
    def ok(self) -> bool:
        """Return True when the function returned a value (a legal board, once judged)."""
        return self.status == "ok"

    @property
    def reason(self) -> str | None:
        """Return None when the call succeeded, else its status (a key of ``REASONS``)."""
        return None if self.ok else self.status

    @property
    def board(self) -> Any:
        """Return the value when the call succeeded (a judged reply's board), else None."""
        return self.value if self.ok else None

    @property
    def summary(self) -> str:
        """Return the detail in one line, e.g. 'ValueError: boom (bot.py, line 4)'."""
        return one_line(self.detail)

    def describe(self) -> str:
        """Return why the call failed as a sentence for people ('' when it succeeded)."""
        if self.ok:
            return ""
        return f"{REASONS[self.status]}: {self.summary}" if self.summary else REASONS[self.status]


def one_line(detail: str) -> str:
    """Return a (traceback) detail as one line: its last line and the bot's last frame.

    Args:
        detail: a failure's detail, perhaps a whole traceback.

    Returns:
        e.g. 'ValueError: boom (bot.py, line 4)', or '' for an empty detail.
    """
    lines = [line.strip() for line in detail.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    frames = [line for line in lines if line.startswith('File "')]
    if not frames:
        return lines[-1]
    file_part, _, rest = frames[-1][len('File "'):].partition('"')
    line_part = rest.split(",")[1].strip() if rest.count(",") else ""
    place = ", ".join(filter(None, [Path(file_part).name, line_part]))
    return f"{lines[-1]} ({place})"


@dataclass
class _Call:
    """The call in progress: what was asked and when it was sent (None: not yet)."""

    ident: int
    function: str
    args: list
    time_limit: float
    batch: bool = False
    sent_at: float | None = None


class BotProcess:
    """One bot's code in a child process; calls one function at a time, never blocking.

    The process starts on the first call (or ``wait_ready``) and again after a
    timeout or a crash. Loading the code does not count against a call's time limit;
    it has its own ``load_timeout``.
    """

    def __init__(self, code: BotCode | str, load_timeout: float = DEFAULT_LOAD_TIMEOUT,
                 echo: bool = False, memory_mb: int = DEFAULT_MEMORY_MB) -> None:
        """Prepare (not start) a process for the bot's code.

        Args:
            code: what to load; a path alone is a Python file loaded where it is (its
                folder is the import root: ``play.bot_loader`` stages a bot given as
                a file into a folder of its own first).
            load_timeout: seconds the code may take to load.
            echo: show the bot's own output on stderr instead of discarding it.
            memory_mb: the bot process's memory cap in MiB (0: none).
        """
        self.code = BotCode(str(code)) if isinstance(code, str) else code
        self.label = self.code.shown
        self._hidden = (os.path.dirname(os.path.abspath(self.code.path)) + os.sep
                        if self.code.staged else "")
        self.load_timeout = load_timeout
        self.echo = echo
        self.memory_mb = memory_mb
        self.functions: list[str] | None = None
        self.starts = 0
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._started_at = 0.0
        self._call: _Call | None = None
        self._next_id = 0
        self._finalizer: weakref.finalize | None = None

    # -- life cycle ----------------------------------------------------------------

    def _spawn(self) -> None:
        """Start the worker process and the thread that reads its replies."""
        command = [sys.executable, "-P", "-c", BOOT, str(PROJECT_ROOT),
                   "--memory-mb", str(self.memory_mb), "--caller", str(os.getpid()),
                   "--max-values", str(ANSWER_VALUES), "--max-chars", str(ANSWER_BYTES)]
        command += ["--echo"] if self.echo else []
        command += ["--module", self.code.module] if self.code.module else []
        command += ["--staged"] if self.code.staged else []
        command += ["--", self.code.path]  # a path may start with '-'
        self._proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, encoding="utf-8",
            start_new_session=os.name == "posix")
        self._lines = queue.Queue()
        threading.Thread(target=_pump, args=(self._proc.stdout, self._lines),
                         daemon=True).start()
        self._finalizer = weakref.finalize(self, _kill, self._proc)
        self._started_at = time.monotonic()
        self.functions = None
        self.starts += 1

    def _stop(self) -> None:
        """Kill the worker process (if any); the next call starts a new one."""
        if self._finalizer is not None:
            self._finalizer()
        self._proc = None
        self._finalizer = None
        self.functions = None

    def close(self) -> None:
        """Stop the bot's process and forget any call in progress."""
        self._call = None
        self._stop()

    def cancel(self) -> None:
        """Abandon the call in progress (the process is restarted on the next call)."""
        if self._call is not None:
            self.close()

    @property
    def busy(self) -> bool:
        """Return True while a call is in progress."""
        return self._call is not None

    @property
    def pid(self) -> int | None:
        """Return the worker process's id, or None when no process is running."""
        return None if self._proc is None else self._proc.pid

    def wait_ready(self) -> list[str]:
        """Start the process if needed and wait until the file has loaded.

        Returns:
            The names of the callables the file defines.

        Raises:
            LoadError: the file raised on import, did not load in time, or the
                process died.
        """
        if self.busy:
            raise RuntimeError("wait_ready() while a call is in progress")
        if self._proc is None:
            self._spawn()
        while self.functions is None:
            left = self._started_at + self.load_timeout - time.monotonic()
            message = self._receive(max(left, 0.0))
            if message is None:
                self._stop()
                raise LoadError(f"{self.label} did not load within {self.load_timeout:g} s")
            if message is _EOF or message.get("event") != "ready":
                detail = self._load_failure(message)
                self._stop()
                summary = one_line(detail)  # the traceback, if any, goes with it whole
                raise LoadError(f"cannot load {self.label}: {summary}",
                                "" if summary == detail.strip() else detail)
            self.functions = message["functions"]
        return self.functions

    # -- calls ---------------------------------------------------------------------

    def call(self, function: str, args: list, time_limit: float, batch: bool = False) -> None:
        """Start calling ``function(*args)``; ``poll`` gives the result.

        Args:
            function: the name of a function in the bot file.
            args: JSON-able arguments (with ``batch``: a list of argument lists).
            time_limit: seconds the call (or the whole batch) may take once the file is
                loaded.
            batch: call the function once per argument list (at most
                ``BATCH_CALLS`` of them); the result's value is then the list of the
                calls' CallResults (see ``run_batch``).

        Raises:
            RuntimeError: another call is still in progress.
            ValueError: a batch of more than ``BATCH_CALLS`` calls.
        """
        if self.busy:
            raise RuntimeError("a call is already in progress; poll() or cancel() first")
        if batch and len(args) > BATCH_CALLS:
            raise ValueError(f"a batch holds at most {BATCH_CALLS} calls, not {len(args)}")
        self._next_id += 1
        self._call = _Call(self._next_id, function, list(args), time_limit, batch)
        if self._proc is None:
            self._spawn()
        if self.functions is not None:
            self._send_call()

    def poll(self, wait: float = 0.0) -> CallResult | None:
        """Return the result of the call in progress, or None if it is not there yet.

        Args:
            wait: block up to this many seconds for the result (0: never block).

        Returns:
            The CallResult (the call is then over), or None; None also when no call
            is in progress.
        """
        end = time.monotonic() + wait
        while self._call is not None:
            result = self._step(max(end - time.monotonic(), 0.0))
            if result is not None:
                self._call = None
                return result
            if time.monotonic() >= end:
                break
        return None

    def run(self, function: str, args: list, time_limit: float) -> CallResult:
        """Call ``function(*args)`` and wait for its result (blocking form of ``call``)."""
        self.call(function, args, time_limit)
        while True:
            result = self.poll(wait=1.0)
            if result is not None:
                return result

    def run_batch(self, function: str, arg_lists: list[list],
                  time_limit: float) -> list[CallResult] | None:
        """Call ``function`` once per argument list in one round trip (blocking).

        Returns:
            One CallResult per argument list, or None when the batch as a whole did
            not finish (a timeout, a crash or sys.exit inside it): the caller then
            makes the calls one by one to see which one fails.
        """
        self.call(function, arg_lists, time_limit, batch=True)
        result = None
        while result is None:
            result = self.poll(wait=1.0)
        if not result.ok or len(result.value) != len(arg_lists):
            return None
        return result.value

    def _send_call(self) -> None:
        """Write the call in progress to the worker and start its clock."""
        call = self._call
        assert call is not None and self._proc is not None and self._proc.stdin is not None
        line = json.dumps({"id": call.ident, "call": call.function,
                           "batch" if call.batch else "args": call.args})
        call.sent_at = time.monotonic()  # before writing: the answer may beat the next line
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the process died: the reader thread reports the end of its output

    def _deadline(self) -> float:
        """Return when the call in progress runs out of time (loading, then answering)."""
        call = self._call
        assert call is not None
        if call.sent_at is None:
            return self._started_at + self.load_timeout
        return call.sent_at + call.time_limit

    def _step(self, wait: float) -> CallResult | None:
        """Handle at most one message from the worker; return the call's result if over."""
        deadline = self._deadline()
        message = self._receive(min(wait, max(deadline - time.monotonic(), 0.0)))
        if message is None:
            return self._out_of_time() if time.monotonic() >= deadline else None
        if message is _EOF:
            return self._failed(self._death_note() if self.functions is not None
                                else self._load_failure(message))
        if message.get("event") == "ready":
            self.functions = message["functions"]
            self._send_call()
            return None
        if message.get("event") == "load-error":
            return self._failed(self._load_failure(message))
        if message.get("event") == OVERSIZED:
            return self._oversized(message)
        if self._call is None or message.get("id") != self._call.ident:
            return None  # an answer to a call abandoned earlier
        return self._result(message)

    def _result(self, message: dict) -> CallResult:
        """Return the CallResult of the worker's reply ``message``."""
        call = self._call
        assert call is not None and call.sent_at is not None
        seconds = message[ARRIVED] - call.sent_at
        if seconds > call.time_limit:  # it came in time only for a caller that polls rarely
            return CallResult("timeout", detail=f"answered after {seconds:.2f} s, over the "
                                                f"limit of {call.time_limit:g} s",
                              seconds=seconds)
        if message["status"] == "batch":
            results = [_from_reply(reply, reply.get("seconds", 0.0))
                       for reply in message["results"]]
            if results and results[-1].status == "crash":
                self._stop()  # the bot exited: this process is finishing
            return CallResult("ok", results, seconds=seconds)
        result = _from_reply(message, seconds)
        if result.status == "crash":
            self._stop()
        return result

    def _out_of_time(self) -> CallResult:
        """Kill the stuck process and return the timeout (or load failure) result."""
        call = self._call
        assert call is not None
        self._stop()
        if call.sent_at is None:  # still loading
            return CallResult("load", detail=f"{self.label} did not load within "
                                              f"{self.load_timeout:g} s")
        return CallResult("timeout", detail=f"no answer within {call.time_limit:g} s",
                          seconds=time.monotonic() - call.sent_at)

    def _oversized(self, message: dict) -> CallResult:
        """Return the 'unplain' result of a reply over the caps (judged malformed, as
        any answer JSON cannot carry); the process is stopped when its reader stopped
        in the middle of the line, which leaves the rest of it unread."""
        call = self._call
        assert call is not None
        if call.sent_at is None:  # written while loading
            return self._failed(message["detail"])
        if message["stop"]:
            self._stop()
        return CallResult("unplain", detail=message["detail"],
                          seconds=message[ARRIVED] - call.sent_at)

    def _failed(self, detail: str) -> CallResult:
        """Stop the process and return a crash (or load failure) result with ``detail``."""
        call = self._call
        assert call is not None
        status = "crash" if call.sent_at is not None else "load"
        seconds = time.monotonic() - call.sent_at if call.sent_at is not None else 0.0
        self._stop()
        return CallResult(status, detail=detail, seconds=seconds)

    # -- messages ------------------------------------------------------------------

    def _receive(self, wait: float) -> Any:
        """Return the next message (a dict), ``_EOF`` when the process ended, or None.

        Waits up to ``wait`` seconds. A line that is not JSON (or nested too deeply for
        the JSON reader) means the protocol broke, which is treated like the end of the
        process. A line over the caps of ``answer_caps`` is not parsed: it gives the
        event ``OVERSIZED``, saying why. A message carries the time it arrived under
        the key ``ARRIVED``.
        """
        try:
            item = self._lines.get(timeout=wait) if wait > 0 else self._lines.get_nowait()
        except queue.Empty:
            return None
        if item is _EOF:
            return _EOF
        arrived, line = item
        call = self._call
        refusal = too_long() if line is _TOO_LONG else over_cap(
            line, len(call.args) if call is not None and call.batch else 1)
        if refusal:
            return {"event": OVERSIZED, "detail": refusal, "stop": line is _TOO_LONG,
                    ARRIVED: arrived}
        try:
            message = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            return _EOF
        if not isinstance(message, dict):
            return _EOF
        message[ARRIVED] = arrived
        self._hide_folder(message)
        return message

    def _hide_folder(self, message: dict) -> None:
        """Take a staged copy's folder out of the details of ``message`` and its results."""
        if not self._hidden:
            return
        for reply in [message, *message.get("results", [])]:
            if isinstance(reply, dict) and isinstance(reply.get("detail"), str):
                reply["detail"] = reply["detail"].replace(self._hidden, "")

    def _death_note(self) -> str:
        """Return how the worker process ended, e.g. 'the bot process died (exit code 1)'."""
        code = None
        if self._proc is not None:
            try:
                code = self._proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                return "the bot process stopped answering (its output was closed)"
        if code is not None and code < 0:
            return f"the bot process was killed by signal {-code}"
        return f"the bot process died (exit code {code})"

    def _load_failure(self, message: Any) -> str:
        """Return why loading failed, from a load-error message or the process's end.

        A module the code imports and that cannot be found is explained by the code's
        ``explain_missing`` when it knows better than the traceback.
        """
        if not isinstance(message, dict) or "detail" not in message:
            return self._death_note() + " while loading"
        missing, explain = message.get("missing"), self.code.explain_missing
        better = explain(missing) if isinstance(missing, str) and explain else None
        return better or message["detail"]


def _from_reply(message: dict, seconds: float) -> CallResult:
    """Return the CallResult of one worker reply; ``seconds`` is the time it took."""
    status = message["status"]
    if status == "exit":
        return CallResult("crash", detail=message["detail"], seconds=seconds)
    if status == "missing":
        return CallResult("load", detail=message["detail"], seconds=seconds)
    return CallResult(status, message.get("value"), message.get("detail", ""),
                      seconds, message.get("mutated", False))


def _pump(stream: IO[str], lines: queue.Queue) -> None:
    """Copy (arrival time, line) pairs from the worker's output into ``lines``, then ``_EOF``.

    A line is read to ``LINE_BYTES`` at most: a longer one gives ``_TOO_LONG`` in its
    place, and reading stops there (the caller stops the process), so a bot that writes
    without end costs this process no more than that.

    The stream is closed here, at its end: closing it from another thread while this
    one reads would block that thread until the worker writes again.
    """
    try:
        while line := stream.readline(LINE_BYTES + 1):
            if len(line) > LINE_BYTES:
                lines.put((time.monotonic(), _TOO_LONG))
                break
            lines.put((time.monotonic(), line))
    except (OSError, ValueError):
        pass  # the pipe broke: that is the end of the output too
    finally:
        stream.close()
        lines.put(_EOF)


def _kill(proc: subprocess.Popen) -> None:
    """Kill the worker process and everything it started, then reap it.

    On Linux the whole process tree below the worker (a subreaper: see
    ``external_worker``), also what the bot started in sessions of its own; elsewhere
    the worker's process group (its own session), or the worker alone.
    """
    try:
        if proctree.available():
            proctree.kill_tree(proc.pid)
        elif os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError):
        pass  # already gone
    proc.wait()
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass  # unsent data to a dead process does not matter
