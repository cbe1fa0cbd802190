"""No control character from a file or a bot reaches the terminal (``console.table.plain``).

Player names come from bot file names and game records, forfeit reasons from what a bot
raised: printed as they are, an escape sequence in them could clear the screen or
retitle the window. The command line prints them with such characters escaped.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli

from oska_gui.bots.external_worker import MAX_DETAIL
from oska_gui.console.progress import ProgressBar
from oska_gui.console.table import plain, render_table
from oska_gui.core.text import plain_lines

HOSTILE = "\x1b]0;owned\x07\x1b[2J\r\nfake line\u202e"


def unprintable(text: str) -> set[str]:
    """Return the characters of ``text`` a terminal would act on, line breaks aside."""
    return {ch for ch in text if not ch.isprintable() and ch != "\n"}


def test_plain_escapes_what_a_terminal_acts_on_and_keeps_the_rest() -> None:
    assert plain("Zoë · bot.py:oskaplayer") == "Zoë · bot.py:oskaplayer"
    escaped = plain(HOSTILE)
    assert escaped == "\\x1b]0;owned\\x07\\x1b[2J\\r\\nfake line\\u202e"
    assert not unprintable(escaped) and "\n" not in escaped
    assert plain(escaped) == escaped


def test_plain_lines_keeps_line_breaks_and_tabs_and_escapes_the_rest() -> None:
    assert plain_lines("a\tb\nc") == "a\tb\nc"
    escaped = plain_lines(HOSTILE)
    assert escaped == "\\x1b]0;owned\\x07\\x1b[2J\\r\nfake line\\u202e"
    assert not unprintable(escaped) and plain_lines(escaped) == escaped


def test_tables_and_progress_notes_are_plain() -> None:
    table = render_table(["player", HOSTILE], [[HOSTILE, 1], ["Ann", 2]])
    assert not unprintable(table) and len(table.splitlines()) == 4
    bar = ProgressBar(3, "match", enabled=False)
    assert not unprintable(bar.render(note=HOSTILE))


BOT = f"""
def oskaplayer(board, player, depth):
    raise ValueError({HOSTILE!r})
"""


def test_a_match_prints_a_hostile_bot_name_and_error_plainly(tmp_path: Path) -> None:
    bot = tmp_path / "evil\x1b[31m.py"
    bot.write_text(BOT)
    result = run_cli("match", bot, "--games", 2, "--time-limit", 5, "--ai", "1")
    assert result.returncode == 0, result.stderr
    assert "evil\\x1b[31m.py:oskaplayer" in result.stdout
    assert "exception (fake line\\u202e" in result.stdout  # the reason: the last line
    assert not unprintable(result.stdout + result.stderr)


def test_a_bot_that_fails_to_load_is_reported_plainly(tmp_path: Path) -> None:
    bot = tmp_path / "loadfail.py"
    bot.write_text(f"raise ImportError({HOSTILE!r})\n")
    result = run_cli("match", bot, "--games", 2)
    assert result.returncode == 2
    assert "ImportError" in result.stderr and not unprintable(result.stderr)


# Raises at import time, two calls deep, with a tab and an escape sequence in its words.
RAISES_WHILE_LOADING = """def helper():
    raise ValueError("boom\\tat import\\x1b[2J")


helper()
"""


@pytest.mark.parametrize("command", ["check", "match"])
def test_a_bot_that_raises_while_loading_shows_its_traceback_line_by_line(
        tmp_path: Path, command: str) -> None:
    """One line says why, then the bot's traceback with real line breaks, as Python
    prints it, but with what a terminal acts on escaped (tabs kept)."""
    bot = tmp_path / "loads_badly.py"
    bot.write_text(RAISES_WHILE_LOADING, encoding="utf-8")
    result = run_cli(command, bot)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.splitlines() == [
        f"oska {command}: error: cannot load loads_badly.py: ValueError: "
        "boom\\tat import\\x1b[2J (loads_badly.py, line 2)",
        '  File "loads_badly.py", line 5, in <module>',
        "    helper()",
        '  File "loads_badly.py", line 2, in helper',
        '    raise ValueError("boom\\tat import\\x1b[2J")',
        "ValueError: boom\tat import\\x1b[2J",
    ]


def test_a_huge_load_error_is_cut_as_every_traceback_is(tmp_path: Path) -> None:
    """A bot that raises megabytes of lines while loading: its traceback is printed line
    by line, its middle cut out, so the error stays within the host's cap."""
    bot = tmp_path / "wordy.py"
    bot.write_text('raise ValueError("many words\\n" * 100_000)\n', encoding="utf-8")
    result = run_cli("check", bot)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == "oska check: error: cannot load wordy.py: many words (wordy.py, line 1)"
    assert lines[1] == '  File "wordy.py", line 1, in <module>'
    assert any(line.startswith("[... ") and line.endswith(" characters cut ...]")
               for line in lines)
    assert len(result.stderr) < MAX_DETAIL + 200
