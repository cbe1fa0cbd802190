"""Hostile command lines (issue 12, items 5-8): one clear line and exit code 2, at once.

The issue's cases run as real processes. Then generated command lines (every option of
every subcommand, with hostile values) run in-process, with the expensive part (the
game, the match, the search) replaced by an exception: every argument must be checked,
or turned into a clean error, before that point. Nothing else may escape. Last,
``oska solve`` (issue 21, item 4): sizes whose table cannot exist, too little memory
and SIGTERM in the middle of a solve.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import resource
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import pytest
from cli_helpers import CLI_TIMEOUT, cli_command, run_cli, write_bot
from hypothesis import example, given, settings
from hypothesis import strategies as st

from oska_gui import cli
from oska_gui.desktop import options as desktop_options
from oska_gui.web import __main__ as web_main

START = "wwww,---,--,---,bbbb"


def assert_one_line_error(result, words: str) -> None:
    """Check a finished command: exit code 2, ``words`` in its one-line error, no traceback."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert words in result.stderr.strip().splitlines()[-1]
    assert len(result.stderr.strip().splitlines()[-1]) < 400


# -- the cases, as real processes ------------------------------------------------


@pytest.mark.parametrize(("where", "words"), [
    ("missing-folder/g.json", "No such file or directory"),
    (".", "Is a directory"),
    ("blocker/g.json", "Not a directory"),
])
def test_selfplay_checks_the_save_path_before_playing(tmp_path: Path, where: str,
                                                      words: str) -> None:
    """``--save`` into a missing folder, a folder or under a file: refused before ply 1."""
    (tmp_path / "blocker").write_text("a file", encoding="utf-8")
    result = run_cli("selfplay", "--save", tmp_path / where, "--brief")
    assert_one_line_error(result, words)
    assert "ply" not in result.stdout and "Result" not in result.stdout


def test_selfplay_leaves_no_file_behind_when_the_check_succeeds(tmp_path: Path) -> None:
    """The write check creates and removes the file; the real save writes it at the end."""
    target = tmp_path / "g.json"
    result = run_cli("selfplay", "--save", target, "--brief", "--white", "1", "--black", "1")
    assert result.returncode == 0 and target.is_file()


def test_match_checks_the_save_folder_before_playing(tmp_path: Path) -> None:
    """A ``--save-dir`` that cannot be created (under a file): refused before any game."""
    (tmp_path / "blocker").write_text("a file", encoding="utf-8")
    bot = write_bot(tmp_path, "good")
    result = run_cli("match", bot, "--games", 2, "--save-dir", tmp_path / "blocker" / "games")
    assert_one_line_error(result, "cannot write files there")
    assert "Match" not in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("args", "words"), [
    (["selfplay", "--n", "100", "--depth", "1"], "supports n <= 24, got n = 100"),
    (["match", "bot.py", "--n", "1000"], "supports n <= 24, got n = 1000"),
    (["check", "bot.py", "--sizes", "4,5,99"], "supports n <= 24, got n = 99"),
    (["analyze", "[" * 30_000 + "]" * 30_000, "w"], "nested too deeply"),
    (["analyze", '["' + "9" * 5000 + '"]', "w"], "bad board"),
    (["analyze", "[" + "9" * 5000 + "]", "w"], "not valid JSON"),
    (["analyze", ",".join(["..."] * 2001), "w"], "board has 2001 rows"),
    (["selfplay", "--white", "²"], "cannot read the AI '²'"),
    (["selfplay", "--white", "9" * 5000], "cannot read the AI"),
    (["selfplay", "--black", "infs"], "cannot read the AI 'infs'"),
    (["match", "bot.py", "--time-limit", "inf"], "expected a number > 0, got 'inf'"),
    (["analyze", START, "w", "--time", "nan"], "expected a number > 0, got 'nan'"),
])
def test_absurd_arguments_are_one_line_errors(tmp_path: Path, args: list[str],
                                             words: str) -> None:
    """Huge sizes (a MemoryError after minutes before), deep JSON (RecursionError),
    numbers int() cannot read, infinite times: each a one-line error, exit code 2."""
    bot = str(write_bot(tmp_path, "good"))
    assert_one_line_error(run_cli(*(bot if arg == "bot.py" else arg for arg in args)), words)


# -- generated command lines, in-process --------------------------------------------------


class Reached(Exception):
    """The command got past its checks to the expensive part (replaced by this)."""


def reached(*args: object, **kwargs: object) -> None:
    """Stand in for a game, a match or a search: raise ``Reached``."""
    raise Reached


HOSTILE = st.one_of(
    st.text(max_size=12),
    st.integers(-(10**9), 10**9).map(str),
    st.sampled_from(["0", "-1", "4", "5", "24", "25", "1e308", "inf", "-inf", "nan", "2s",
                     "0s", "hard", "perfect:race", "9" * 5000, "²", "", "-", "--", "\x00",
                     "/", ".", "/nonexistent/x.json", "[" * 5000, START, "w", "black",
                     "main.py", "x.py:oskaplayer", "1,2,3", "4,5"]),
)
OPTIONS = {
    "selfplay": ["--n", "--depth", "--evaluator", "--white", "--black", "--opening-plies",
                 "--seed", "--save"],
    "match": ["--n", "--games", "--opening-plies", "--seed", "--bot-depth", "--ai",
              "--evaluator", "--save-dir", "--time-limit"],
    "check": ["--sizes", "--games", "--seed", "--show", "--time-limit"],
    "analyze": ["--depth", "--time", "--evaluator", "--solve-limit"],
    "review": ["--time", "--depth", "--html"],
}
POSITIONALS = {"selfplay": 0, "match": 1, "check": 1, "analyze": 2, "review": 1}
EXPENSIVE = ["oska_gui.cli.selfplay.play", "oska_gui.cli.match.play_match",
             "oska_gui.cli.check.check_file", "oska_gui.cli.analyze.exact_ranking",
             "oska_gui.cli.review.ReviewJob"]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """Draw ``oska COMMAND`` arguments: hostile positionals, options and values."""
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command] + draw(st.lists(HOSTILE, min_size=POSITIONALS[command],
                                     max_size=POSITIONALS[command]))
    for option in draw(st.lists(st.sampled_from(OPTIONS[command]), max_size=4)):
        argv += [option, draw(HOSTILE)]
    return argv


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a folder to run commands in: the outputs they are given (``--save-dir
    -2334`` makes that folder) land there, never in the checkout."""
    return tmp_path_factory.mktemp("cwd")


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(argv=command_lines())
@example(argv=["match", "x.py", "--save-dir", "-2334"])  # made ./-2334 before its bot check
def test_no_command_line_escapes_as_a_traceback(argv: list[str], elsewhere: Path) -> None:
    """Any command line: an exit code with at most a one-line error, or it gets through
    to the expensive part; no other exception escapes ``oska``'s main. Run in a folder
    of its own, where whatever the command makes may stay."""
    err = io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.chdir(elsewhere))
        for target in EXPENSIVE:
            stack.enter_context(mock.patch(target, reached))
        stack.enter_context(contextlib.redirect_stderr(err))
        stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
        try:
            code = cli.main(argv)
        except Reached:
            return
    assert code in (0, 2), err.getvalue()
    assert "Traceback" not in err.getvalue()


def parsed_or_usage_error(parse: Callable[[list[str]], object], argv: list[str]) -> None:
    """Run an option parser on ``argv``: it must return, or exit with code 2 (a usage
    error, already printed); any other exception fails the test."""
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            parse(argv)
        except SystemExit as stop:
            assert stop.code == 2


@settings(max_examples=200, deadline=None)
@given(argv=st.lists(st.sampled_from(["--white", "--black", "--bot-time", "--bot-depth",
                                      "--replay", "--frames"]) | HOSTILE, max_size=6))
def test_no_window_command_line_escapes_as_a_traceback(argv: list[str]) -> None:
    """``main.py``'s options: parsed, or a usage error (SystemExit 2), nothing else."""
    parsed_or_usage_error(desktop_options.parse_args, argv)


@settings(max_examples=100, deadline=None)
@given(argv=st.lists(st.sampled_from(["build", "serve", "--port", "--out"]) | HOSTILE,
                     max_size=5))
def test_no_web_command_line_escapes_as_a_traceback(argv: list[str]) -> None:
    """``python -m oska_gui.web``'s options: parsed or a usage error, nothing else."""
    parsed_or_usage_error(web_main.parse_args, argv)


# -- oska solve: sizes, memory and SIGTERM ----------------------------------------------


def solve_in_process(n: int, capsys: pytest.CaptureFixture) -> tuple[int, str]:
    """Run ``oska solve --n N`` in this process; return its exit code and stderr."""
    code = cli.main(["solve", "--n", str(n), "--no-progress"])
    return code, capsys.readouterr().err


def assert_one_line(code: int, err: str, *words: str) -> None:
    """Check an in-process command's exit code 2 and its one-line error holding ``words``."""
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err


@pytest.mark.numba
@pytest.mark.parametrize("n", range(6, 25))
def test_solve_refuses_every_size_too_big_with_what_it_needs(
        n: int, capsys: pytest.CaptureFixture) -> None:
    """n = 6 to 24: one line with the memory the table would need (n >= 8 was an
    OverflowError traceback), before anything is allocated or compiled."""
    from oska_gui.engine import tablebase
    code, err = solve_in_process(n, capsys)
    need = tablebase.size_text(tablebase.table_bytes(n))
    assert_one_line(code, err, f"the n = {n} table needs {need}, more than the 16.0 GiB")


@pytest.mark.numba
def test_solve_sizes_grow_with_the_board() -> None:
    """The needed bytes are computed exactly for every size (no int64 overflow)."""
    from oska_gui.engine import tablebase
    sizes = [tablebase.table_bytes(n) for n in range(4, 25)]
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    assert sizes[0] == int(tablebase.class_sizes(4).sum())
    assert tablebase.size_text(sizes[-1]).endswith("e+85 bytes")


def limit_address_space() -> None:
    """Cap the address space of the process about to run at 3,000,000 KiB (ulimit -v)."""
    resource.setrlimit(resource.RLIMIT_AS, (3_000_000 * 1024, resource.RLIM_INFINITY))


@pytest.mark.numba
def test_solve_under_an_address_space_limit_says_what_it_needs() -> None:
    """``ulimit -v 3000000`` then n = 5: one line with the 4.7 GiB it needs and the
    limit that refuses it, not an ``OSError: Cannot allocate memory`` traceback."""
    from oska_gui.engine import tablebase
    result = run_cli("solve", "--n", 5, preexec_fn=limit_address_space)
    assert_one_line_error(result, f"needs {tablebase.size_text(tablebase.table_bytes(5))}")
    assert "ulimit -v" in result.stderr and "Positions solved" not in result.stdout


@pytest.mark.numba
def test_solve_refuses_a_table_bigger_than_the_available_memory(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """A machine with 1 MiB available: even n = 4 (4.3 MiB) is refused, saying both."""
    from oska_gui.engine import tablebase
    monkeypatch.setattr(tablebase, "_meminfo_bytes", lambda *fields: 2**20)
    code, err = solve_in_process(4, capsys)
    need = tablebase.size_text(tablebase.table_bytes(4))
    assert_one_line(code, err, f"needs {need} of memory", "only 1.0 MiB is available")


@pytest.mark.numba
def test_a_refused_allocation_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The system refusing the table's memory (ENOMEM) raises TableTooBig with the size."""
    from oska_gui.engine import tablebase

    def refuse(*args: object, **kwargs: object) -> None:
        """Stand in for mmap.mmap on a machine out of memory."""
        raise OSError(errno.ENOMEM, "Cannot allocate memory")

    monkeypatch.setattr(tablebase.mmap, "mmap", refuse)
    need = tablebase.table_bytes(4)
    with pytest.raises(tablebase.TableTooBig, match=f"refused the {tablebase.size_text(need)}"):
        tablebase.zeroed_cells(need, tablebase.np.uint8)


@pytest.mark.numba
@pytest.mark.parametrize("error", [MemoryError(), OSError(errno.ENOMEM, "Cannot allocate")])
def test_running_out_of_memory_while_solving_is_one_line(
        error: BaseException, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """Memory running out during the solve: one line with what the table needs."""
    from oska_gui.engine import tablebase

    def run_out(*args: object, **kwargs: object) -> None:
        """Stand in for a solve that runs out of memory."""
        raise error

    monkeypatch.setattr(tablebase, "solve_table", run_out)
    code, err = solve_in_process(4, capsys)
    need = tablebase.size_text(tablebase.table_bytes(4))
    assert_one_line(code, err, "out of memory while solving n = 4", f"needs {need}")


def read_until(stream: int, marker: bytes, seconds: float) -> bytes:
    """Return what ``stream`` (a file descriptor) gives until ``marker`` is in it, or
    everything up to its end or ``seconds``."""
    seen, end = b"", time.monotonic() + seconds
    while marker not in seen and time.monotonic() < end:
        chunk = os.read(stream, 4096)
        if not chunk:
            break
        seen += chunk
    return seen


@pytest.mark.numba
@pytest.mark.slow
@pytest.mark.timing
def test_sigterm_ends_a_solve_at_once() -> None:
    """SIGTERM while n = 5 is being solved ends the process within 3 s (it was 8-20 s,
    and a SIGTERM during compilation could be lost); the solve only just begins."""
    argv, env = cli_command("solve", "--n", 5, "--progress")
    with subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE) as proc:
        assert proc.stderr is not None
        try:
            seen = read_until(proc.stderr.fileno(), b"solving:", CLI_TIMEOUT)
            assert b"solving:" in seen, seen  # compiled and solving: the worst time
            sent = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=CLI_TIMEOUT)
            took = time.monotonic() - sent
        finally:
            proc.kill()
    assert proc.returncode == -signal.SIGTERM
    assert took < 3, f"SIGTERM took {took:.1f} s to end the solve"
