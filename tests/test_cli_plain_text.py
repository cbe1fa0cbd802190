"""No control character from a file or a bot reaches the terminal (``console.table.plain``).

Player names come from bot file names and game records, forfeit reasons from what a bot
raised: printed as they are, an escape sequence in them could clear the screen or
retitle the window. The command line prints them with such characters escaped.
"""

from __future__ import annotations

from pathlib import Path

from cli_helpers import run_cli

from oska_gui.console.progress import ProgressBar
from oska_gui.console.table import plain, render_table

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
