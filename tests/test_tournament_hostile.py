"""A tournament of 16 entrants, most of them misbehaving in a different way: correct,
buggy, crashing, hanging, unloadable and process-spawning bots, and two AI levels.

Every forfeit must be charged to the right bot with the right reason, as ``oska match``
names it, and when the command ends nothing it started, nor anything its bots started,
may still run. Hostile names and paths (issue 21): a finished run never crashes on a
bot's name or the report's path, and another program's --db file is left alone.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import textwrap
from html import escape
from pathlib import Path
from urllib.parse import unquote

import pytest
from cli_helpers import write_bot
from database_files import FOREIGN, database_4972aaf, fingerprint
from hostile_helpers import kill_marked, marked, tagged, wait_until, write_spawner
from tournament_helpers import games_line, run_tournament, standings, tagged_env

from oska_gui.play.records import from_json
from oska_gui.tournament.ratings import Rating
from oska_gui.tournament.report import rating_plot
from oska_gui.tournament.standings import Standing

pytestmark = pytest.mark.slow

LISTS_BOT = """
def oskaplayer(board, player, depth):
    return [list(row) for row in board]
"""
WORDS_BOT = """
def oskaplayer(board, player, depth):
    raise ValueError("bad \\udcff \\x1b[31m \\u202e")
"""
# bot file -> the reason it forfeits every game it has to move in
ALWAYS = {"illegal": "illegal", "malformed": "malformed", "lists": "malformed",
          "raises": "exception", "hangs": "timeout", "exits": "crash", "killed": "crash",
          "broken": "load", "nothing": "load", "daemon_hangs": "timeout"}
CORRECT = ["good", "junk", "session_returns", "no_pass", "AI depth 1 (strong)",
           "AI depth 2 (strong)"]


def entrants(folder: Path, marker: str) -> dict[str, str]:
    """Write the 14 bot files; return {short name: entrant name} of all 16 entrants."""
    names = {name: f"{write_bot(folder, name)}:oskaplayer"
             for name in ("good", "junk", "no_pass", "illegal", "malformed", "raises",
                          "hangs", "exits", "killed", "broken")}
    names["nothing"] = f"{folder / 'good.py'}:nothing"
    (folder / "lists.py").write_text(textwrap.dedent(LISTS_BOT), encoding="utf-8")
    names["lists"] = f"{folder / 'lists.py'}:oskaplayer"
    for spawn, then in (("session", "returns"), ("daemon", "hangs")):
        (folder / spawn).mkdir()
        bot, _ = write_spawner(folder / spawn, marker, spawn, then)
        names[f"{spawn}_{then}"] = f"{bot}:oskaplayer"
    names.update({name: name for name in CORRECT if name.startswith("AI")})
    return names


def test_sixteen_bots_every_forfeit_charged_right_and_nothing_left_running(
        tmp_path: Path) -> None:
    """240 games on 2 workers. Each always-failing bot forfeits every game except half
    of those against the other 9 always-failing ones (whoever moves first forfeits):
    2 * 6 + 9 = 21, each with its own reason; the correct ones never forfeit; no_pass
    only where it had to pass. Every stored record agrees; no process is left."""
    marker = f"5{random.randrange(10**6):06d}.5"
    try:
        names = entrants(tmp_path, marker)
        assert len(names) == 16
        env, token = tagged_env()
        db = tmp_path / "t.sqlite"
        result = run_tournament(*(n for n in names.values() if not n.startswith("AI")),
                                "--ai", "1", "2", "--db", db, "--depth", 1, "--time-limit", 1,
                                "--workers", 2, env=env)
        assert result.returncode == 0, result.stderr
        assert games_line(result.stdout) == f"games: 240 played now, 0 reused from {db}"
        table = standings(result.stdout)
        for short, reason in ALWAYS.items():
            row = table[names[short]]
            assert (row["forfeits"], row[reason], row["W-L-D"]) == ("21", "21", "9-21-0"), short
        for short in CORRECT:
            row = table[names[short]]
            expected = row.get("illegal", "0") if short == "no_pass" else "0"
            assert row["forfeits"] == expected, short
        check_records(db, {names[short]: reason for short, reason in ALWAYS.items()},
                      names["no_pass"])
        assert wait_until(lambda: not tagged(token), 10), tagged(token)
        assert wait_until(lambda: not marked(marker), 5), marked(marker)
    finally:
        kill_marked(marker)


def check_records(db: Path, reasons: dict[str, str], no_pass: str) -> None:
    """Check every stored game: a forfeit is the loser's, with the loser's reason (for
    no_pass: 'illegal', having had to pass); the other games end by the rules."""
    for (text,) in sqlite3.connect(db).execute("SELECT record FROM games"):
        record = from_json(json.loads(text))
        if record.forfeit is None:
            assert not {record.white, record.black} & set(reasons)
            continue
        loser = record.black if record.outcome.winner == 0 else record.white
        if loser == no_pass:
            assert record.forfeit == "illegal"
            assert "has no legal move, so the board must come back unchanged" in (
                record.outcome.reason)
        else:
            assert record.forfeit == reasons[loser], (loser, record.outcome.reason)


# -- issue 21, items 2 and 3: no crash after a finished run, foreign files left alone -----


@pytest.mark.parametrize(("file_name", "shown"), [("x$_$.py", "x$_$.py"),
                                                  ("b\udcff.py", "b\\udcff.py")],
                         ids=["mathtext", "not UTF-8"])
def test_a_bot_named_like_mathtext_or_not_utf8_gets_its_report(tmp_path: Path, file_name: str,
                                                               shown: str) -> None:
    """A bot file named x$_$.py (mathtext to matplotlib) or with a byte that is not UTF-8
    in its name plays, and the report is written: the name as plain text in the tables
    and the page, and the records folder's name URL-quoted in the links."""
    bot = write_bot(tmp_path, "good").rename(tmp_path / file_name)
    report = tmp_path / "r #1.html"
    result = run_tournament(f"{bot}:oskaplayer", "--ai", 1, "--db", tmp_path / "t.sqlite",
                            "--depth", 1, "--workers", 1, "--report", report)
    assert result.returncode == 0, result.stderr
    name = f"{tmp_path / shown}:oskaplayer"
    assert name in standings(result.stdout)
    html = report.read_text(encoding="utf-8")
    assert f"<td>{escape(name)}</td>" in html
    links = re.findall(r'<a href="([^"]+)"', html)
    assert len(links) == 2 and all(link.startswith("r%20%231-games/") for link in links)
    assert all((tmp_path / unquote(link)).is_file() for link in links)


def test_a_bots_words_that_are_not_text_are_stored_and_reported_plain(tmp_path: Path) -> None:
    """A bot whose exception says a lone surrogate, an escape sequence and a
    right-to-left override: the games are stored, and the forfeit reason shows those as
    their escapes on the console and in the report."""
    bot = tmp_path / "words.py"
    bot.write_text(textwrap.dedent(WORDS_BOT), encoding="utf-8")
    report = tmp_path / "r.html"
    result = run_tournament(f"{bot}:oskaplayer", "--ai", 1, "--db", tmp_path / "t.sqlite",
                            "--depth", 1, "--workers", 1, "--report", report)
    assert result.returncode == 0, result.stderr
    words = "bad \\udcff \\x1b[31m \\u202e"
    assert words in " ".join(result.stdout.split())  # the console wraps long lines
    html = report.read_text(encoding="utf-8")
    assert words in html and "\x1b" not in html and "\u202e" not in html


def test_a_report_name_too_long_is_refused_before_the_first_game(tmp_path: Path) -> None:
    """A 250-character report name fits, but its records folder's (NAME-games) does not:
    one line, exit code 2, before the database is even made."""
    bot = write_bot(tmp_path, "good")
    result = run_tournament(f"{bot}:oskaplayer", "--ai", 1, "--db", tmp_path / "t.sqlite",
                            "--depth", 1, "--workers", 1, "--report", tmp_path / ("r" * 250))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "File name too long" in result.stderr
    assert result.stdout == ""
    assert sorted(path.name for path in tmp_path.iterdir()) == ["good.py"]


@pytest.mark.parametrize(("db", "report", "words"), [
    ("t.sqlite", "t.sqlite", "--report and --db name the same file"),
    ("t.sqlite", "good.py", "would overwrite the bot"),
    ("good.py", None, "--db 'good.py' would overwrite the bot"),
])
def test_an_output_that_is_an_input_is_refused_before_the_first_game(
        tmp_path: Path, db: str, report: str | None, words: str) -> None:
    """A report written over the database or a bot's file, or a bot's file as the
    database: one line saying so, exit code 2, every file as it was."""
    bot = write_bot(tmp_path, "good")
    database_4972aaf(tmp_path / "t.sqlite")
    before = fingerprint(tmp_path)
    options = ["--db", db] + (["--report", report] if report else [])
    result = run_tournament(f"{bot}:oskaplayer", "--ai", 1, *options, "--depth", 1,
                            "--workers", 1, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and words in result.stderr
    assert fingerprint(tmp_path) == before


def test_another_programs_games_table_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """--db names another program's SQLite file with a games table of its own: one line
    saying so, exit code 2, no game played, the file and its folder byte for byte as
    they were."""
    bot = write_bot(tmp_path, "good")
    theirs = tmp_path / "theirs.sqlite"
    FOREIGN["its own games table"](theirs)
    before = fingerprint(tmp_path)
    result = run_tournament(f"{bot}:oskaplayer", "--ai", 1, "--db", theirs, "--depth", 1,
                            "--workers", 1)
    assert result.returncode == 2
    assert result.stderr == (f"oska tournament: error: {theirs}: cannot use it as the "
                             "tournament database (it is another program's SQLite database "
                             "(tables: games))\n")
    assert result.stdout == ""
    assert fingerprint(tmp_path) == before


def test_the_rating_plot_draws_names_as_they_are_whatever_the_users_settings(
        monkeypatch) -> None:
    """Names that are mathtext or TeX, with the user's matplotlibrc asking for LaTeX
    (text.usetex) and mathtext numbers: the plot is drawn, and the settings are left as
    the user had them."""
    import matplotlib

    monkeypatch.setitem(matplotlib.rcParams, "text.usetex", True)
    monkeypatch.setitem(matplotlib.rcParams, "axes.formatter.use_mathtext", True)
    names = ["x$_$.py", "$\\frac{1}{$", "a^b_c", "50% $"]
    lines = [Standing(name, Rating(100.0 * i, 100.0 * i - 50, 100.0 * i + 50))
             for i, name in enumerate(names)]
    svg = rating_plot(lines)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert matplotlib.rcParams["text.usetex"] is True
