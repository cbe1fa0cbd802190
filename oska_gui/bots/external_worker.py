"""The child process that hosts one external bot (see ``bot_process`` for the parent).

Run as ``python -P -m oska_gui.bots.external_worker [--echo] [--memory-mb MB] PATH``
(``bot_process`` starts its ``main`` so, through ``BOOT``), it loads the Python file
PATH, or with ``--module NAME`` imports the module NAME from the folder PATH; then it
answers calls to the bot's functions, one JSON object a line: requests
``{"id": 1, "call": "oskaplayer", "args": [...]}`` arrive on the protocol input and
each is answered with ``{"id": 1, "status": ..., ...}``. A batch
request (``"batch": [args, ...]`` instead of ``"args"``) saves round trips when many
quick calls are made: its reply holds one such answer per call in ``"results"``.

The protocol runs over private copies of the original stdin and stdout file
descriptors; descriptors 0 and 1 (and 2 unless ``--echo``) are pointed at the null
device before the bot is loaded. So whatever the bot prints (``print``, ``os.write(1,
...)``, C extensions) or reads (``input()``) cannot corrupt or steal the protocol.

Statuses: ``ok`` (with ``value``), ``exception`` (with a traceback in ``detail``),
``exit`` (the bot raised SystemExit or KeyboardInterrupt: reported, then this process
ends), ``missing`` (no such function) and ``unplain`` (the value is not made of lists,
strings and numbers, so it cannot travel as JSON without changing, or it is plain but
no JSON reader would take it: a list that contains itself, lists nested more than
MAX_DEPTH deep, an int of more than MAX_DIGITS digits, or more values or text than the
caller reads (``--max-values``, ``--max-chars``: see ``bot_process`` and
``answer_caps``); ``detail`` says which). Only the standard library is used here, so the
bot meets a clean interpreter.

**Import path.** The bot's import root (the file's folder, or the folder given with
``--module``) goes first on ``sys.path``, and the caller's current folder is never on it:
``-P`` keeps it off, and an entry that names it anyway (``PYTHONPATH=.``) is dropped. A
load error caused by a module that cannot be found names the module (``missing``), so
the parent can say what to do about it.

**Nothing left running.** On Linux this process becomes a *keeper*: a child subreaper
(see ``proctree``) that forks the host, which loads and runs the bot. Every process the
bot starts, in a new session or not, stays below the keeper. When the host ends (the
bot exited, crashed or was killed) the keeper kills all that is left and exits with
the host's status; when the caller goes away it does the same, and removes the private
copy of a bot file (``--staged``), which the caller can no longer remove. The caller
kills the whole tree when it stops a bot (``proctree.kill_tree``); if the caller dies
half-way, leaving processes stopped, the keeper kills them. The keeper never stops a
process itself, and SIGTERM, SIGINT or SIGHUP make it kill its tree before it ends;
killed outright (SIGKILL), it takes the host along (the kernel kills the host when its
parent dies, stopped or not), but what the bot started in sessions of its own escapes.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import os
import shutil
import signal
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from types import ModuleType
from typing import IO, Any, NoReturn

from oska_gui.bots.proctree import become_subreaper, die_with_parent, kill_tree

resource: ModuleType | None
try:
    import resource
except ImportError:  # Windows: no memory cap (and no keeper, see fork_keeper)
    resource = None

PLAIN_SCALARS = (str, int, float, bool, type(None))
# Bounds on a plain value, far past any answer a game asks for: deeper lists would stop
# the JSON reader (RecursionError), and Python reads no int of over 4,300 digits.
MAX_DEPTH = 100
MAX_DIGITS = 1000
MAX_INT = 10**MAX_DIGITS
# An exception's traceback is cut to this many characters, far past any real one (the
# caller's cap on an answer, answer_caps.ANSWER_BYTES, is over a million).
MAX_DETAIL = 20_000
SHOWN_CHARS = 200  # of a result's repr in a message
MODULE_NAME = "oska_external_bot"
WATCH_SECONDS = 0.5  # how often the keeper and the host look whether their parent lives
REAP_SECONDS = 2.0  # how long the keeper waits for the processes it killed to end
# signals that end the keeper: it kills its tree first, so it waits for them with SIGCHLD
ENDING_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
KEEPER_SIGNALS = ENDING_SIGNALS | {signal.SIGCHLD}


def claim_protocol(echo: bool) -> tuple[IO[str], IO[str]]:
    """Move the protocol to private descriptors and silence the standard ones.

    Args:
        echo: when True the bot's output goes to stderr instead of the null device.

    Returns:
        The protocol's input and output text streams.
    """
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2 if echo else null, 1)
    if not echo:
        os.dup2(null, 2)
    os.close(null)
    return proto_in, proto_out


def watch_parent(parent: int) -> None:
    """Exit this process as soon as the parent process ``parent`` is gone.

    The parent kills a stuck bot itself; this covers a parent that was killed first,
    so that no orphan is left spinning. Runs in a daemon thread, polling twice a second.
    """
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(4)


def limit_memory(megabytes: int) -> None:
    """Cap this process's address space at ``megabytes`` MiB where the OS allows it.

    A runaway bot then gets a MemoryError (reported as an exception) instead of
    starving the machine. Silently does nothing where ``resource`` is missing.
    """
    if resource is None:
        return
    limit = megabytes * 1024 * 1024
    with contextlib.suppress(ValueError, OSError):  # a lower hard limit stays in place
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def load_module(path: str, name: str | None = None) -> ModuleType:
    """Import the bot: the Python file ``path``, or the module ``name`` of the folder ``path``.

    The file's folder (or the folder ``path``) becomes the bot's import root: see
    ``set_import_root``. A file is loaded as a fresh module named ``MODULE_NAME``, so
    that its file name, whatever it is, cannot clash with a module loaded already.

    Raises whatever the code raises on import (ImportError when it cannot be read, or
    when ``name`` is taken by a module this process has loaded already).
    """
    set_import_root(path if name else os.path.dirname(os.path.abspath(path)))
    if name:
        top = name.partition(".")[0]
        if top in sys.modules:  # importing it would hand back that module, not the bot's
            raise ImportError(f"the module name {top!r} is taken by a module Python has "
                              "loaded already: rename the bot's module")
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path!r} as a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE_NAME] = module
    spec.loader.exec_module(module)
    return module


def set_import_root(root: str) -> None:
    """Put the folder ``root`` first on sys.path and take the current folder off it.

    So a ``random.py`` in the folder where the command was run is never imported by a
    bot, even when an entry of ``PYTHONPATH`` names that folder.
    """
    try:
        here = os.getcwd()
    except OSError:  # the current folder was deleted: no entry can name it
        here = None
    if here is not None:
        sys.path[:] = [entry for entry in sys.path if entry and not same_folder(entry, here)]
    sys.path.insert(0, os.path.abspath(root))


def same_folder(entry: str, folder: str) -> bool:
    """Return True when the sys.path ``entry`` names ``folder`` (links resolved)."""
    return os.path.realpath(entry or os.curdir) == os.path.realpath(folder)


def missing_module(error: BaseException) -> dict[str, str]:
    """Return ``{"missing": name}`` when ``error`` says the module ``name`` was not found.

    The name is the top-level one ('board' for 'board.cells'), the one to look for
    beside the bot; an empty dict for any other error.
    """
    if isinstance(error, ModuleNotFoundError) and error.name:
        return {"missing": error.name.partition(".")[0]}
    return {}


@dataclass(frozen=True)
class Caps:
    """The caller's caps on a result (``--max-chars``, ``--max-values``: ``answer_caps``;
    0 is no cap). Found here, a result of millions of values is refused at once rather
    than written out whole for the caller to refuse; the caller checks anyway."""

    chars: int = 0  # characters of its JSON
    values: int = 0  # JSON values in it

    def oversize(self, value: Any) -> str | None:
        """Return why ``value`` is more than the caller reads, or None.

        Its JSON is written once (quick: the JSON writer is C) and measured; what the
        JSON writer cannot take is left for ``impurity`` to explain.
        """
        if not self.chars:
            return None
        try:
            size = len(json.dumps(value))
        except (ValueError, TypeError, RecursionError):
            return None
        except MemoryError:
            return "the result is too big to write"
        if size > self.chars:
            return (f"the result is {size:,} characters of JSON, more than the caller "
                    f"reads ({self.chars:,})")
        return None


@dataclass
class ValueCount:
    """The values of a result counted so far, against the caller's cap (0: none)."""

    cap: int = 0
    values: int = 0

    def spend(self, values: int) -> str | None:
        """Count ``values`` more (a list's items, counted as the list is reached, so a
        list of millions is refused at once); return why the result is over, or None."""
        self.values += values
        if self.cap and self.values > self.cap:
            return f"the result holds over {self.cap:,} values, more than the caller reads"
        return None


def impurity(value: Any, where: str = "the result", outer: tuple[list, ...] = (),
             tally: ValueCount | None = None) -> str | None:
    """Return what keeps ``value`` from being plain JSON data, or None if it is plain.

    Plain means lists, strings, numbers, booleans and None only (no tuples, dicts, ...),
    so that the parent sees exactly what the bot returned, within the bounds that every
    JSON reader here takes: no list inside itself, lists at most MAX_DEPTH deep, ints of
    at most MAX_DIGITS digits; and within the caller's caps on its size (``tally``).

    Args:
        value: the value, or a part of it.
        where: how to name ``value`` in the answer ('the result[2]').
        outer: the lists ``value`` is in, outermost first.
        tally: the values of the result counted so far, against the caller's cap (None:
            no cap).
    """
    if isinstance(value, int) and not -MAX_INT < value < MAX_INT:
        return f"{where} is an int of more than {MAX_DIGITS:,} digits"
    if isinstance(value, PLAIN_SCALARS):
        return None
    if type(value) is not list:
        return f"{where} is a {type(value).__module__}.{type(value).__qualname__}".replace(
            "builtins.", "")
    if any(value is container for container in outer):
        return f"{where} is a list that contains itself"
    if len(outer) == MAX_DEPTH:
        return f"the result has lists nested more than {MAX_DEPTH} deep"
    if tally is not None and (problem := tally.spend(len(value))):
        return problem
    inner = (*outer, value)
    for i, item in enumerate(value):
        problem = impurity(item, f"{where}[{i}]", inner, tally)
        if problem:
            return problem
    return None


def shown(value: Any) -> str:
    """Return the start of ``repr(value)`` for a message, or what it is if that fails.

    A list nested thousands deep has no repr (RecursionError), nor has an int of
    thousands of digits (ValueError), and a bot's own class may raise anything.
    """
    try:
        return f"{_cut(value)!r:.{SHOWN_CHARS}}"
    except Exception:  # noqa: BLE001 - whatever the bot's value raises, the answer goes on
        return f"a {type(value).__name__} that cannot be shown"


def _cut(value: Any, room: list[int] | None = None) -> Any:
    """Return as much of ``value`` as the first ``SHOWN_CHARS`` characters of its repr
    show, give or take: lists and strings are copied only while ``room`` (a count of
    characters left, shared by the whole walk) lasts, as each shown item costs one at
    least; the repr of a result of millions of values would cost more than the answer."""
    room = [SHOWN_CHARS] if room is None else room
    if type(value) is list:
        start = []
        for item in value:
            if room[0] <= 0:
                break
            room[0] -= 1
            start.append(_cut(item, room))
        return start
    if type(value) is str:
        room[0] -= min(len(value), SHOWN_CHARS)
        return value[:SHOWN_CHARS]
    return value


def snapshot(args: list) -> str | None:
    """Return ``args`` as JSON, to tell whether a call changed them; None when the call
    made them something JSON cannot write (a list inside itself, say)."""
    try:
        return json.dumps(args)
    except (ValueError, TypeError, RecursionError):
        return None


def short_traceback(error: BaseException) -> str:
    """Return the traceback of ``error`` limited to the bot's frames (not ours or
    importlib's), its middle cut out when it is longer than ``MAX_DETAIL`` characters:
    the caller reads no answer over its caps (``answer_caps``), and a bot that raises
    a gigabyte of words still raised an exception."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if frame.filename != __file__ and not frame.filename.startswith("<frozen")]
    lines = traceback.format_list(frames) + traceback.format_exception_only(error)
    text = "".join(lines).rstrip()
    if len(text) <= MAX_DETAIL:
        return text
    half = MAX_DETAIL // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half:,} characters cut ...]\n{text[-half:]}"


def answer(module: ModuleType, request: dict, caps: Caps | None = None) -> dict:
    """Call the requested function of ``module`` and return the reply to send.

    Args:
        module: the loaded bot.
        request: ``{"id", "call", "args"}``.
        caps: the caller's caps on a result (None: none).

    Returns:
        The reply: ``id``, ``status``, ``seconds`` (time inside the call), ``mutated``
        (whether the call changed its arguments) and ``value`` or ``detail``.
    """
    args = request["args"]
    before = json.dumps(args)
    reply: dict[str, Any] = {"id": request["id"]}
    function = getattr(module, request["call"], None)
    if not callable(function):
        reply.update(status="missing", detail=f"the file has no function {request['call']!r}")
        return reply
    start = time.perf_counter()
    try:
        value = function(*args)
    except (SystemExit, KeyboardInterrupt) as stop:
        code = stop.code if isinstance(stop, SystemExit) else "KeyboardInterrupt"
        reply.update(status="exit", detail=f"the bot called sys.exit({shown(code)})"
                     if isinstance(stop, SystemExit) else "the bot raised KeyboardInterrupt")
        return reply
    except BaseException as error:  # noqa: BLE001 - anything the bot raises is reported
        reply.update(status="exception", detail=short_traceback(error))
        value = None
    else:
        caps = caps or Caps()
        problem = impurity(value, tally=ValueCount(caps.values)) or caps.oversize(value)
        if problem:
            reply.update(status="unplain", detail=f"{problem}: {shown(value)}")
        else:
            reply.update(status="ok", value=value)
    reply.update(seconds=time.perf_counter() - start, mutated=snapshot(args) != before)
    return reply


def answer_batch(module: ModuleType, request: dict, caps: Caps | None = None) -> dict:
    """Call the requested function on each argument list of a batch request.

    Args:
        module: the loaded bot.
        request: ``{"id", "call", "batch": [args, args, ...]}``.
        caps: the caller's caps on each result (see ``answer``).

    Returns:
        ``{"id", "status": "batch", "results": [reply, ...]}``, one reply as ``answer``
        gives per argument list; it stops after a reply whose status is ``exit``.
    """
    results = []
    for args in request["batch"]:
        results.append(answer(module, {"id": None, "call": request["call"], "args": args},
                              caps))
        if results[-1]["status"] == "exit":
            break
    return {"id": request["id"], "status": "batch", "results": results}


def serve(module: ModuleType, proto_in: IO[str], proto_out: IO[str],
          caps: Caps | None = None) -> int:
    """Answer requests until the input closes or the bot exits; return the exit code.

    ``caps`` are the caller's caps on each result (see ``answer``).
    """
    for line in proto_in:
        request = json.loads(line)
        reply = (answer_batch(module, request, caps) if "batch" in request
                 else answer(module, request, caps))
        send(proto_out, reply)
        last = reply["results"][-1:] if "results" in reply else [reply]
        if last and last[0]["status"] == "exit":
            return 3
    return 0


def send(stream: IO[str], message: dict) -> None:
    """Write ``message`` as one JSON line to the protocol output and flush it."""
    stream.write(json.dumps(message) + "\n")
    stream.flush()


def fork_keeper(streams: tuple[IO[str], IO[str]], caller: int,
                leftover: str | None = None) -> bool:
    """Split into a keeper (this process, which never returns) and the host (returns).

    Does nothing where this process cannot become a subreaper: the host then runs
    here, and a process group kill is all the caller can do.

    Args:
        streams: the protocol streams; the keeper closes its copies, so that the host's
            end is the end of the protocol for the caller.
        caller: the id of the process that started this one, which the keeper watches.
        leftover: a folder the keeper removes if the caller goes away (see ``keep``).

    Returns:
        True in the host when a keeper was forked, False when this process is alone.
    """
    if not become_subreaper():
        return False
    keeper = os.getpid()
    # blocked before the fork, so that none of them can end the keeper before it waits
    before = signal.pthread_sigmask(signal.SIG_BLOCK, KEEPER_SIGNALS)
    host = os.fork()
    if host == 0:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
        die_with_parent(keeper)
        return True
    for stream in streams:
        stream.close()
    keep(host, caller, leftover)


def keep(host: int, caller: int, leftover: str | None = None) -> NoReturn:
    """Wait until the host ends, the caller goes away or an ending signal comes; kill
    what is left below this process, then exit.

    Expects ``KEEPER_SIGNALS`` blocked (``fork_keeper`` does it). The exit status is the
    host's (killed by a signal: the same signal), or the ending signal's, so the caller
    can tell how the bot ended. When the caller went away, the folder ``leftover`` (the
    private copy of a bot file, which the caller removes when it closes the bot) is
    removed here: a caller killed outright never gets to do it.
    """
    status, left, ending = None, True, None
    while status is None and ending is None and os.getppid() == caller:
        arrived = signal.sigtimedwait(KEEPER_SIGNALS, WATCH_SECONDS)
        if arrived is not None and arrived.si_signo in ENDING_SIGNALS:
            ending = arrived.si_signo
        status, left = reap(host, status)
    kill_tree(os.getpid(), include_root=False, adopts=True)
    deadline = time.monotonic() + REAP_SECONDS
    while left and time.monotonic() < deadline:  # past it: one we may not kill, for init
        signal.sigtimedwait({signal.SIGCHLD}, WATCH_SECONDS / 10)
        status, left = reap(host, status)
    if leftover and os.getppid() != caller:
        shutil.rmtree(leftover, ignore_errors=True)
    end_like(status if ending is None else ending)  # killed by signal N: wait status N


def reap(host: int, status: int | None) -> tuple[int | None, bool]:
    """Reap the children that have ended (the host, and orphans the keeper adopted).

    Returns the host's wait status (``status`` until it has ended) and whether any
    child is left.
    """
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return status, False
        if pid == 0:
            return status, True
        if pid == host:
            status = code


def end_like(status: int | None) -> NoReturn:
    """Exit as a host that ended with wait ``status`` did (None: killed, like SIGKILL)."""
    if status is not None and os.WIFEXITED(status):
        os._exit(os.WEXITSTATUS(status))
    signum = signal.SIGKILL if status is None else os.WTERMSIG(status)
    with contextlib.suppress(ValueError, OSError):  # SIGKILL has no handler to reset
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signum})  # the keeper blocks some
    if resource is not None:  # no core dump: the host's crash is reported already
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.kill(os.getpid(), signum)
    os._exit(128 + signum)  # a signal whose default is not to end the process


def main(argv: list[str] | None = None) -> int:
    """Load the bot named on the command line and serve calls; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="the bot's Python file, or with --module its folder")
    parser.add_argument("--module", help="import this module of the folder PATH")
    parser.add_argument("--staged", action="store_true",
                        help="PATH is a copy alone in a folder of its own: removed if the "
                             "caller dies")
    parser.add_argument("--echo", action="store_true")
    parser.add_argument("--memory-mb", type=int, default=0)
    parser.add_argument("--max-values", type=int, default=0,
                        help="the most JSON values a result may hold (default: no cap)")
    parser.add_argument("--max-chars", type=int, default=0,
                        help="the most characters a result's JSON may have (default: no "
                             "cap)")
    parser.add_argument("--caller", type=int, default=0,
                        help="the id of the process that started this one (default: the "
                             "parent now); given, a caller that died before we looked is "
                             "noticed too, instead of taking init for the caller")
    args = parser.parse_args(argv)
    caller = args.caller or os.getppid()
    proto_in, proto_out = claim_protocol(args.echo)
    if args.memory_mb:
        limit_memory(args.memory_mb)
    leftover = os.path.dirname(os.path.abspath(args.path)) if args.staged else None
    kept = fork_keeper((proto_in, proto_out), caller, leftover)
    watched = os.getppid() if kept else caller  # the keeper outlives its host
    threading.Thread(target=watch_parent, args=(watched,), daemon=True).start()
    try:
        module = load_module(args.path, args.module)
    except BaseException as error:  # noqa: BLE001 - a broken file is reported, not fatal
        send(proto_out, {"event": "load-error", "detail": short_traceback(error),
                         **missing_module(error)})
        return 2
    functions = sorted(name for name, value in vars(module).items() if callable(value))
    send(proto_out, {"event": "ready", "functions": functions})
    return serve(module, proto_in, proto_out, Caps(args.max_chars, args.max_values))


if __name__ == "__main__":
    sys.exit(main())
