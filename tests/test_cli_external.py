"""The process-isolated external player (``oska_gui.bots.external``) used directly, as the GUI will.

Covers the non-blocking request/poll cycle, recovery after hangs and crashes, cancel
and close, the parent-death watchdog, and the judging of returned boards.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_helpers import REPO_ROOT, write_bot
from hostile_helpers import alive, wait_until
from hypothesis import given, settings
from hypothesis import strategies as st

from oska_gui.bots.bot_process import REASONS, BotProcess, LoadError
from oska_gui.bots.external import ExternalPlayer, judge_move
from oska_gui.games.oska import SIDE_LETTERS, oska_rules
from oska_gui.play.bot_loader import open_bot

START = ["wwww", "---", "--", "---", "bbbb"]
SLOW_BOT = """
import time
from oska_gui import oskaplayer as ours

def oskaplayer(board, player, depth):
    time.sleep(0.6)
    return ours(board, player, 1)
"""


def slow_bot(folder: Path) -> Path:
    """Write a bot that answers correctly after 0.6 s; return its path."""
    path = folder / "slow.py"
    path.write_text(SLOW_BOT, encoding="utf-8")
    return path


def answer(player: ExternalPlayer):
    """Wait for the reply to the request in progress."""
    reply = None
    while reply is None:
        reply = player.poll(wait=0.05)
    return reply


def test_poll_never_blocks_and_the_answer_is_a_legal_board(tmp_path: Path) -> None:
    """While the bot thinks, poll() returns None at once; then the judged reply comes."""
    player = open_bot(str(slow_bot(tmp_path)), time_limit=20)
    try:
        player.request(START, "w", 3)
        assert player.busy
        assert player.poll() is None  # the bot sleeps 0.6 s: it cannot have answered yet
        reply = answer(player)
        assert reply.ok and not player.busy
        rules = oska_rules(4)
        legal = [rules.to_rows(kid) for kid in rules.children(rules.start())]
        assert reply.board in legal and reply.seconds > 0.5
        assert player.poll() is None  # nothing asked: nothing to report
        with pytest.raises(RuntimeError):
            player.request(START, "w", 1)
            player.request(START, "w", 1)
    finally:
        player.close()


def test_a_hang_times_out_and_the_next_request_gets_a_fresh_process(tmp_path: Path) -> None:
    """A hung bot is killed at its time limit; asking again starts a new process."""
    player = open_bot(str(write_bot(tmp_path, "hangs")), time_limit=0.5)
    try:
        reply = player.ask(START, "w", 1)
        assert reply.reason == "timeout" and "no answer within 0.5 s" in reply.describe()
        assert player.process.pid is None
        assert player.ask(START, "w", 1).reason == "timeout"
        assert player.process.starts == 2
    finally:
        player.close()


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "reason", "words"), [
    ("exits", "crash", "the bot called sys.exit(3)"),
    ("killed", "crash", "the bot process died (exit code 9)"),
    ("raises", "exception", "ValueError: boom in helper (raises.py, line 5)"),
    ("illegal", "illegal", "no legal move does this"),
    ("malformed", "malformed", "not a board"),
])
def test_each_failure_is_reported_and_the_player_stays_usable(tmp_path: Path, bot: str,
                                                              reason: str, words: str) -> None:
    """Every kind of failure becomes a CallResult with its reason; asking again works."""
    player = open_bot(str(write_bot(tmp_path, bot)), time_limit=5)
    try:
        for _ in range(2):
            reply = player.ask(START, "b", 2)
            assert (reply.ok, reply.reason, reply.board) == (False, reason, None)
            assert words in reply.summary
            assert reply.describe().startswith(REASONS[reason])
    finally:
        player.close()


def test_cancel_abandons_a_request_and_close_kills_the_process(tmp_path: Path) -> None:
    """After cancel() the old answer never arrives; close() leaves no process behind."""
    player = open_bot(str(slow_bot(tmp_path)), time_limit=20)
    player.request(START, "w", 1)
    assert wait_until(lambda: player.process.pid is not None, 5)
    first = player.process.pid
    player.cancel()
    assert player.poll() is None and not player.busy
    assert wait_until(lambda: not alive(first), 5)
    reply = player.ask(START, "b", 1)
    assert reply.ok
    second = player.process.pid
    player.close()
    assert wait_until(lambda: not alive(second), 5)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_bot_dies_with_its_parent(tmp_path: Path) -> None:
    """If the caller is killed outright, the bot process (even a hung one) exits too."""
    bot = write_bot(tmp_path, "hangs")
    code = textwrap.dedent(f"""
        import os, sys, time
        from oska_gui.bots.bot_process import BotProcess
        process = BotProcess({str(bot)!r})
        process.wait_ready()
        process.call("oskaplayer", [{START!r}, "w", 1], 60)
        time.sleep(0.3)
        print(process.pid, flush=True)
        os._exit(0)  # no clean-up at all
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60, check=True)
    pid = int(done.stdout)
    try:
        assert wait_until(lambda: not alive(pid), 10)
    finally:
        if alive(pid):  # the test failed: do not leave a spinning orphan behind
            os.kill(pid, signal.SIGKILL)


def test_loading_problems_are_load_errors(tmp_path: Path) -> None:
    """A broken file or a missing function is reported by wait_ready, never raised later."""
    broken = open_bot(str(write_bot(tmp_path, "broken")))
    with pytest.raises(LoadError, match="SyntaxError"):
        broken.wait_ready()
    reply = broken.ask(START, "w", 1)  # without wait_ready: a CallResult, not an exception
    assert reply.reason == "load"
    missing = open_bot(f"{write_bot(tmp_path, 'neither')}:oskaplayer")
    with pytest.raises(LoadError, match="has no function 'oskaplayer'"):
        missing.wait_ready()
    assert missing.ask(START, "w", 1).reason == "load"
    for player in (broken, missing):
        player.close()


def test_batches_return_one_result_per_call(tmp_path: Path) -> None:
    """run_batch answers many calls in one round trip, or None when the batch crashes."""
    process = BotProcess(str(write_bot(tmp_path, "good")))
    try:
        boards = [[START, "w"], [START, "b"], [["w---", "---", "--", "---", "---b"], "w"]]
        results = process.run_batch("movegen", boards, 10)
        assert [len(result.value) for result in results] == [6, 6, 1]
    finally:
        process.close()
    exits = BotProcess(str(write_bot(tmp_path, "exits")))
    try:
        assert exits.run_batch("oskaplayer", [[START, "w", 1], [START, "b", 1]], 10) is None
    finally:
        exits.close()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([4, 5, 6]))
def test_judge_accepts_exactly_the_legal_answers(seed: int, n: int) -> None:
    """Every child board is legal; the same board is legal only without moves; others not."""
    rules = oska_rules(n)
    rng = random.Random(seed)
    pos = rules.start()
    for _ in range(rng.randrange(30)):
        kids = rules.children(pos)
        if rules.outcome(pos) is not None or not kids:
            break
        pos = rng.choice(kids)
    rows, player = rules.to_rows(pos), SIDE_LETTERS[pos.turn]
    kids = rules.real_children(pos)
    for kid in kids:
        assert judge_move(rows, player, rules.to_rows(kid)).reason is None
    assert (judge_move(rows, player, rows).reason is None) == (not kids)
    grandchildren = [g for kid in rules.children(pos) for g in rules.real_children(kid)]
    for later in grandchildren[:5]:  # the opponent moved too: no single move does that
        assert judge_move(rows, player, rules.to_rows(later)).reason == "illegal"
    as_lists = [list(row) for row in rows]
    assert judge_move(rows, player, as_lists).reason == "malformed"
    assert judge_move(rows, player, rows[:-2]).reason == "malformed"
    assert judge_move(rows, player, None).reason == "malformed"


def test_an_answer_that_came_too_late_is_a_timeout_even_if_polled_late(tmp_path: Path) -> None:
    """A caller that polls rarely cannot let a bot overrun its time limit."""
    player = open_bot(str(slow_bot(tmp_path)), time_limit=0.2)
    try:
        player.wait_ready()
        player.request(START, "w", 1)
        assert wait_until(lambda: player.process._lines.qsize() > 0, 10)  # answered, unpolled
        reply = player.poll()
        assert reply.reason == "timeout" and "over the limit of 0.2 s" in reply.detail
        assert reply.seconds > 0.5
    finally:
        player.close()
