"""What the caller reads from a bot is capped (issue 37, item 6): a bot is capped at 2 GB,
the process that reads its answers must not follow it there. Answers just over the caps
of ``answer_caps`` (written by the bot's host, or by the bot straight into the protocol
pipe) are a malformed answer with the reason, in seconds, and the largest legal answer
still passes."""

from __future__ import annotations

import json
import textwrap
import time
from pathlib import Path

import pytest
from cli_helpers import run_cli

from oska_gui.bots import answer_caps, proctree
from oska_gui.bots.answer_caps import ANSWER_BYTES, ANSWER_VALUES, LINE_BYTES
from oska_gui.bots.bot_process import BotProcess
from oska_gui.bots.external_worker import MAX_DETAIL
from oska_gui.games.oska import row_lengths
from oska_gui.play.bot_loader import open_bot

START = ["wwww", "---", "--", "---", "bbbb"]
# Finds the protocol's output pipe in the bot's own process (the only pipe open for
# writing there: the standard descriptors point at the null device) and writes WORDS
# into it ahead of the host's answer, as a bot that bypasses the host can.
WRITER = """
import fcntl
import os

def protocol():
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{{name}}")
            flags = fcntl.fcntl(int(name), fcntl.F_GETFL)
        except OSError:
            continue
        if target.startswith("pipe:") and flags & os.O_ACCMODE == os.O_WRONLY:
            return int(name)

def oskaplayer(board, player, depth):
    words = {words}
    fd = protocol()
    while words:
        words = words[os.write(fd, words):]
    return board
"""
linux_only = pytest.mark.skipif(not proctree.available(), reason="needs Linux /proc")


def writer_bot(folder: Path, words: bytes) -> Path:
    """Write a bot that writes ``words`` into the protocol pipe; return its file."""
    bot = folder / "writer.py"
    bot.write_text(WRITER.format(words=repr(words)), encoding="utf-8")
    return bot


def ask_start(bot: Path) -> tuple[str | None, str, float]:
    """Ask ``bot`` for a move at the start twice; return the first reply's forfeit
    reason and description, and the seconds both took."""
    player = open_bot(str(bot), time_limit=20)
    started = time.monotonic()
    try:
        reply = player.ask(START, "w", 1)
        player.ask(START, "w", 1)  # the bot still answers (a new process if need be)
    finally:
        player.close()
    return reply.reason, reply.describe(), time.monotonic() - started


@linux_only
def test_a_line_just_over_the_cap_without_an_end_is_not_read_to_its_end(
        tmp_path: Path) -> None:
    """A bot writes LINE_BYTES + 1 bytes without a newline into the protocol: a malformed
    answer saying so, in seconds (its process is stopped: the line is left unread)."""
    bot = writer_bot(tmp_path, b"x" * (LINE_BYTES + 1))
    reason, words, seconds = ask_start(bot)
    assert reason == "malformed", words
    assert f"it wrote over {LINE_BYTES:,} bytes without ending its answer" in words
    assert seconds < 15


@linux_only
def test_an_answer_line_just_over_the_byte_cap_is_refused_unparsed(tmp_path: Path) -> None:
    """A whole JSON answer one byte over ANSWER_BYTES, written straight into the pipe:
    malformed, saying its size and the cap."""
    head, tail = b'{"id": 1, "status": "ok", "value": "', b'"}\n'
    line = head + b"w" * (ANSWER_BYTES + 1 - len(head) - len(tail) + 1) + tail
    reason, words, _ = ask_start(writer_bot(tmp_path, line))
    assert reason == "malformed", words
    assert f"its answer is over {ANSWER_BYTES:,} bytes, 16 times the largest legal" in words


@linux_only
def test_an_answer_of_too_many_values_is_refused_unparsed(tmp_path: Path) -> None:
    """A JSON answer well under the byte cap but holding ANSWER_VALUES + 1 empty lists:
    malformed, saying how many values it held."""
    line = json.dumps({"id": 1, "status": "ok", "value": [[]] * ANSWER_VALUES}) + "\n"
    assert len(line) < ANSWER_BYTES
    reason, words, _ = ask_start(writer_bot(tmp_path, line.encode()))
    assert reason == "malformed", words
    assert f"its answer holds over {ANSWER_VALUES:,} JSON values" in words


@linux_only
def test_an_answer_nested_too_deep_for_the_reader_is_a_forfeit_not_a_traceback(
        tmp_path: Path) -> None:
    """A line of lists nested 30,000 deep (under both caps) stops Python's JSON reader
    with a RecursionError: the protocol is broken, the bot forfeits."""
    line = b"[" * 30_000 + b"]" * 30_000 + b"\n"
    reason, words, _ = ask_start(writer_bot(tmp_path, line))
    assert reason == "crash", words


def test_a_move_list_of_millions_is_refused_by_the_bots_host_at_once(tmp_path: Path) -> None:
    """``movegen`` returns [board] * 200000 (it made ``oska check --sizes 4 --games 1``
    take 4 min 27 s and 4.5 GB): each call is a malformed answer naming the cap, and the
    whole check ends in seconds."""
    bot = tmp_path / "many.py"
    bot.write_text("def movegen(board, player):\n    return [board] * 200000\n",
                   encoding="utf-8")
    started = time.monotonic()
    result = run_cli("check", bot, "--sizes", 4, "--games", 1)
    assert result.returncode == 1
    assert f"the result holds over {ANSWER_VALUES:,} values, more than the caller reads" \
        in result.stdout
    assert time.monotonic() - started < 30


def test_a_huge_exception_is_still_an_exception(tmp_path: Path) -> None:
    """A bot raising an exception with 10 MB of words: an exception (its words cut),
    not a malformed answer."""
    bot = tmp_path / "raises.py"
    bot.write_text("def oskaplayer(board, player, depth):\n"
                   "    raise ValueError('x' * 10_000_000)\n", encoding="utf-8")
    reason, words, _ = ask_start(bot)
    assert reason == "exception", words
    assert len(words) < MAX_DETAIL


def test_the_largest_legal_answer_passes_in_either_form(tmp_path: Path) -> None:
    """The 96 boards of n = 24, as row strings and as lists of one-character strings,
    come back from a bot's process as they were returned; the caps are 16 times the
    row strings."""
    bot = tmp_path / "largest.py"
    bot.write_text(textwrap.dedent(f"""
        LENGTHS = {list(row_lengths(24))}

        def rows(lists):
            board = ["w" * length for length in LENGTHS]
            return [[list(row) for row in board] if lists else board] * 96
    """), encoding="utf-8")
    process = BotProcess(str(bot))
    try:
        for lists in (False, True):
            result = process.run("rows", [lists], 20)
            assert result.ok, result.describe()
            assert len(result.value) == 96 and len(result.value[0]) == 45
    finally:
        process.close()
    for lists in (False, True):
        assert answer_caps.over_cap(answer_caps.largest_answer(lists), 1) == ""
    assert 16 * len(answer_caps.largest_answer()) == ANSWER_BYTES


def test_a_batch_holds_at_most_batch_calls(tmp_path: Path) -> None:
    """A batch reply may be BATCH_CALLS answers long, so a longer batch is refused."""
    process = BotProcess(str(tmp_path / "never_started.py"))
    with pytest.raises(ValueError, match="a batch holds at most 8 calls"):
        process.call("f", [[]] * 9, 1.0, batch=True)
