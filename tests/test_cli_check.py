"""``oska check`` run as a real process on correct and buggy movegen/oskaplayer files."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli, table_rows, write_bot

FAST = ("--games", 3, "--player-positions", 4)


def movegen_table(stdout: str) -> dict[str, dict[str, str]]:
    """Return the printed movegen table as {n: row}."""
    return {row["n"]: row for row in table_rows(stdout, "n  boards")}


def player_table(stdout: str) -> dict[str, dict[str, str]]:
    """Return the printed oskaplayer table as {n: row}."""
    return {row["n"]: row for row in table_rows(stdout, "n  positions")}


def test_a_correct_file_agrees_everywhere_on_n_4_5_6(tmp_path: Path) -> None:
    """This project's own functions, called through a file, agree: exit code 0."""
    result = run_cli("check", write_bot(tmp_path, "good"), *FAST)
    assert result.returncode == 0, result.stdout + result.stderr
    movegen, player = movegen_table(result.stdout), player_table(result.stdout)
    assert sorted(movegen) == sorted(player) == ["4", "5", "6"]
    for row in movegen.values():
        assert row["agree"] == row["boards"] and int(row["boards"]) > 100
    for row in player.values():
        assert row["legal"] == row["positions"] and int(row["no move"]) >= 2
    assert "agree with this project's rules" in result.stdout


def test_an_independent_row_column_movegen_agrees(tmp_path: Path) -> None:
    """A correct movegen written differently (rows and columns) agrees: no false alarms."""
    result = run_cli("check", write_bot(tmp_path, "student"), *FAST)
    assert result.returncode == 0, result.stdout
    assert "Disagreement" not in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "label", "kind"), [
    ("wrap", "piece at a row's edge", "extra"),
    ("middle", "jump across the middle", "missing, extra"),
    ("duplicates", "piece at a row's edge", "duplicate"),
])
def test_movegen_bugs_are_found_and_shown(tmp_path: Path, bot: str, label: str,
                                          kind: str) -> None:
    """Each movegen bug shows up in the table and as a disagreement with pictures."""
    result = run_cli("check", write_bot(tmp_path, bot), *FAST, "--sizes", "4,5", "--show", 8)
    assert result.returncode == 1, result.stdout + result.stderr
    column = kind.split(", ")[-1]
    assert all(int(row[column]) > 0 for row in movegen_table(result.stdout).values())
    header = next(line for line in result.stdout.splitlines()
                  if line.startswith("Disagreement") and f"({label})" in line)
    assert header.endswith(f": {kind}")
    assert "given" in result.stdout and ("yours only" in result.stdout
                                         or "listed twice" in result.stdout)


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "kind", "words"), [
    ("raises", "exception", "ValueError: boom in helper"),
    ("malformed", "malformed", "not a board"),
    ("illegal", "illegal", "no legal move does this"),
    ("no_pass", "illegal", "has no legal move, so the board must come back unchanged"),
    ("exits", "crash", "the bot called sys.exit(3)"),
    ("hangs", "timeout", "no answer within 1 s"),
])
def test_oskaplayer_failures_are_caught_with_their_reason(tmp_path: Path, bot: str,
                                                          kind: str, words: str) -> None:
    """A bad oskaplayer is reported per kind; hangs and crashes do not stop the check."""
    result = run_cli("check", write_bot(tmp_path, bot), *FAST, "--sizes", "4",
                     "--time-limit", 1)
    assert result.returncode == 1, result.stdout + result.stderr
    row = player_table(result.stdout)["4"]
    assert int(row[kind]) >= 1
    assert words in result.stdout
    if kind in ("timeout", "crash"):  # gives up after three, and says so
        assert row[kind] == "3" and "gave up on oskaplayer after 3" in result.stdout


def test_a_file_that_prints_junk_is_still_checked_correctly(tmp_path: Path) -> None:
    """Output of the checked file cannot corrupt the protocol or the report."""
    result = run_cli("check", write_bot(tmp_path, "junk"), *FAST, "--sizes", "4")
    assert result.returncode == 0, result.stdout
    assert "junk while loading" not in result.stdout + result.stderr


@pytest.mark.parametrize(("bot", "words"), [
    ("broken", "SyntaxError"),
    ("neither", "defines neither 'movegen' nor 'oskaplayer'"),
])
def test_files_that_cannot_be_checked_exit_with_2(tmp_path: Path, bot: str,
                                                  words: str) -> None:
    """A file that does not load, or has neither function, is a usage error."""
    result = run_cli("check", write_bot(tmp_path, bot))
    assert result.returncode == 2
    assert words in result.stderr and "Traceback" not in result.stderr
