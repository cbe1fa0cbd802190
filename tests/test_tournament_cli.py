"""``oska tournament`` on local processes, run as a real process against test bots."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from cli_helpers import table_rows, write_bot
from hostile_helpers import tagged, wait_until
from tournament_helpers import (
    SLOW_BOT,
    commands,
    crosstable,
    games_line,
    run_tournament,
    running_in,
    standings,
    tagged_env,
    tournament_command,
)

from oska_gui import cli
from oska_gui.play.records import from_json

AI = "AI depth 1 (strong)"


def bots(folder: Path, *names: str) -> list[str]:
    """Write the named test bots into ``folder``; return their entrant names."""
    return [f"{write_bot(folder, name)}:oskaplayer" for name in names]


@pytest.mark.slow
def test_every_pair_plays_and_forfeits_count_against_the_right_bot(tmp_path: Path) -> None:
    """good, illegal and raises against the AI at depth 1, 2 games a pair on 2 workers:
    12 games; each misbehaving bot forfeits its 6 games with its reason; the tables add
    up and every record in the database replays and names the entrants. (Between the
    two misbehaving bots, the one with White forfeits first, so each loses 5 games.)"""
    good, illegal, raises = bots(tmp_path, "good", "illegal", "raises")
    db = tmp_path / "t.sqlite"
    result = run_tournament(good, illegal, raises, "--ai", "1", "--db", db, "--depth", 1,
                            "--time-limit", 20, "--workers", 2)
    assert result.returncode == 0, result.stderr
    assert games_line(result.stdout) == f"games: 12 played now, 0 reused from {db}"
    table = standings(result.stdout)
    assert set(table) == {good, illegal, raises, AI}
    for name, reason in ((illegal, "illegal"), (raises, "exception")):
        assert table[name]["forfeits"] == table[name][reason] == "5"
        assert table[name]["W-L-D"] == "1-5-0"
    assert table[good]["forfeits"] == table[AI]["forfeits"] == "0"
    assert sum(float(row["points"]) for row in table.values()) == 12
    assert [row["rank"] for row in sorted(table.values(), key=lambda r: -float(r["Elo"]))] == [
        "1", "2", "3", "4"]
    cross = crosstable(result.stdout)
    for row in cross:
        points = [float(cell) for key, cell in row.items() if key.isdigit() and cell != "-"]
        assert len(points) == 3 and sum(points) == float(table[row["entrant"]]["points"])
    assert "Black forfeits: exception (ValueError: boom in helper (raises.py, line 5))" in (
        " ".join(result.stdout.split()))
    records = [from_json(json.loads(text)) for (text,) in
               sqlite3.connect(db).execute("SELECT record FROM games")]
    assert len(records) == 12
    assert {name for r in records for name in (r.white, r.black)} == {good, illegal, raises, AI}
    assert sum(r.forfeit == "illegal" for r in records) == 5


@pytest.mark.slow
def test_a_rerun_reuses_finished_games_and_more_games_play_only_the_new_ones(
        tmp_path: Path) -> None:
    """The same command again plays nothing and prints the same standings; asking for
    4 games a pair plays only the 2 new ones of each pair."""
    entrants = [*bots(tmp_path, "good", "malformed"), "--ai", "1"]
    db = tmp_path / "t.sqlite"
    first = run_tournament(*entrants, "--db", db, "--workers", 2)
    again = run_tournament(*entrants, "--db", db, "--workers", 2)
    assert games_line(again.stdout) == f"games: 0 played now, 6 reused from {db}"
    assert standings(again.stdout) == standings(first.stdout)
    more = run_tournament(*entrants, "--db", db, "--workers", 2, "--games", 4)
    assert games_line(more.stdout) == f"games: 6 played now, 6 reused from {db}"
    assert sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone() == (12,)


@pytest.mark.slow
def test_killing_the_run_loses_only_games_in_flight_and_leaves_nothing_running(
        tmp_path: Path) -> None:
    """SIGKILL to the command while slow bots play: its workers and bots end by
    themselves; the rerun reuses every stored game and plays only the rest."""
    for name in ("slow_a", "slow_b", "slow_c"):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(SLOW_BOT), encoding="utf-8")
    args = [tmp_path / "slow_a.py", tmp_path / "slow_b.py", tmp_path / "slow_c.py",
            "--db", tmp_path / "t.sqlite", "--workers", 2, "--games", 4]
    env, token = tagged_env()
    run = subprocess.Popen(tournament_command(*args), env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: stored(tmp_path / "t.sqlite") >= 2, 90)
        run.send_signal(signal.SIGKILL)
        run.wait()
        killed_with = stored(tmp_path / "t.sqlite")
        assert wait_until(lambda: not tagged(token), 10), commands(tagged(token))
    finally:
        run.kill()
    time.sleep(0.5)
    assert stored(tmp_path / "t.sqlite") == killed_with  # nothing wrote after the kill
    rerun = run_tournament(*args)
    assert rerun.returncode == 0, rerun.stderr
    assert games_line(rerun.stdout) == (f"games: {12 - killed_with} played now, {killed_with} "
                                        f"reused from {tmp_path / 't.sqlite'}")
    assert {row["games"] for row in standings(rerun.stdout).values()} == {"8"}


@pytest.mark.slow
def test_sigterm_stops_the_run_at_once_and_leaves_nothing_running(tmp_path: Path) -> None:
    """SIGTERM while slow bots play: exit code 143 within seconds, not after the games;
    the workers, the bots and whatever they started are all gone."""
    for name in ("slow_a", "slow_b"):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(SLOW_BOT), encoding="utf-8")
    env, token = tagged_env()
    run = subprocess.Popen(tournament_command(tmp_path / "slow_a.py", tmp_path / "slow_b.py",
                                              "--db", tmp_path / "t.sqlite", "--workers", 2,
                                              "--games", 20),
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: stored(tmp_path / "t.sqlite") >= 1, 90)
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=20)  # the 20 games would take a minute or more
    finally:
        run.kill()
    assert run.returncode == 143 and "terminated" in err, (run.returncode, err[-1000:])
    assert stored(tmp_path / "t.sqlite") < 20
    assert wait_until(lambda: not tagged(token), 10), commands(tagged(token))


@pytest.mark.slow
def test_a_worker_that_dies_stops_the_run_with_an_error_not_a_hang(tmp_path: Path) -> None:
    """SIGKILL to one worker process mid-run: the command ends with a one-line error
    (exit code 2) instead of waiting for that game for ever, leaves nothing running,
    and a rerun finishes the tournament."""
    for name in ("slow_a", "slow_b"):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(SLOW_BOT), encoding="utf-8")
    args = [tmp_path / "slow_a.py", tmp_path / "slow_b.py", "--db", tmp_path / "t.sqlite",
            "--workers", 2, "--games", 6]
    env, token = tagged_env()
    run = subprocess.Popen(tournament_command(*args), env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: stored(tmp_path / "t.sqlite") >= 1
                          and running_in(token, b"spawn_main"), 90)
        os.kill(running_in(token, b"spawn_main")[0], signal.SIGKILL)
        _, err = run.communicate(timeout=30)
    finally:
        run.kill()
    assert run.returncode == 2, err
    assert "a worker process died during a game" in err.strip().splitlines()[-1]
    # The pool kills the other worker too; a bot it was just starting notices that only
    # once its interpreter has started, which takes seconds on a busy machine.
    assert wait_until(lambda: not tagged(token), 30), commands(tagged(token))
    rerun = run_tournament(*args)
    assert rerun.returncode == 0, rerun.stderr
    assert {row["games"] for row in standings(rerun.stdout).values()} == {"6"}


def stored(db: Path) -> int:
    """Return how many games the database holds (0 before it exists)."""
    if not db.exists():
        return 0
    try:
        return sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # the table is not made yet
        return 0


@pytest.mark.slow
def test_a_bot_that_does_not_load_forfeits_its_games(tmp_path: Path) -> None:
    """A syntax error or a missing function does not stop the tournament: that bot
    forfeits as 'load' (of their game, the one with White forfeits first), naming its
    file, not a temporary copy."""
    broken, good = bots(tmp_path, "broken", "good")
    result = run_tournament(broken, good, f"{tmp_path / 'good.py'}:nothing", "--db",
                            tmp_path / "t.sqlite", "--workers", 1)
    assert result.returncode == 0, result.stderr
    table = standings(result.stdout)
    for name in (broken, f"{tmp_path / 'good.py'}:nothing"):
        assert table[name]["load"] == "3" and table[name]["W-L-D"] == "1-3-0"
    text = " ".join(result.stdout.split())
    assert "forfeits: load (cannot load broken.py: " in text and "SyntaxError" in text
    assert "good.py has no function 'nothing'" in text and "oska-game-" not in text


def test_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    """Too few entrants, the same bot twice, a bad AI level, an unusable database: exit
    code 2 and one line naming the problem."""
    good = str(write_bot(tmp_path, "good"))
    (tmp_path / "junk.sqlite").write_text("not a database\n" * 50, encoding="utf-8")
    for args, words in (([good], "at least two entrants"),
                        ([good, good], "given more than once"),
                        ([good, "--ai", "deep"], "cannot read the AI 'deep'"),
                        ([good, "--ai", "1", "--db", tmp_path / "junk.sqlite"],
                         "cannot use it as the tournament database")):
        result = run_tournament(*args, *([] if "--db" in args else ["--db", tmp_path / "t.db"]))
        assert result.returncode == 2, args
        assert words in result.stderr.strip().splitlines()[-1]
        assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_throughput_benchmark_plays_its_games_and_prints_a_rate() -> None:
    """``tourney_bench`` plays the games on local processes and prints one row per
    worker count (the figures are not checked: timing belongs to the command)."""
    env, _ = tagged_env()
    done = subprocess.run([sys.executable, "-m", "tools.tourney_bench", "--games", "2",
                           "--depth", "1", "--workers", "1", "2"], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    rows = table_rows(done.stdout, "where")
    assert [(row["where"], row["workers"], row["games"]) for row in rows] == [
        ("local processes", "1", "2"), ("local processes", "2", "2")]
    assert all(float(row["games/s"]) > 0 for row in rows)


@pytest.mark.parametrize(("args", "words"), [
    (["--db", ""], "give the database a file name"),
    (["--db", "a\x00b"], "cannot use it as the tournament database"),
    (["--db", "."], "cannot use it as the tournament database"),
    (["--scheduler", " "], "give the scheduler's address"),
    (["--scheduler", "xyz"], "cannot reach the Dask scheduler at 'xyz'"),
    (["--scheduler", "ucx://127.0.0.1:1"], "cannot reach the Dask scheduler"),
    (["--workers", "100000"], "expected at most 1024 workers, got 100000"),
    (["--games", str(10**9)], "may have at most 1,000,000"),
    (["--report", "a\x00b.html"], "--report"),
])
def test_hostile_arguments_are_one_line_errors_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], words: str) -> None:
    """An empty, NUL-holding or folder database, a blank or bad scheduler address,
    absurd worker or game counts: exit code 2 and one line, in-process with the games
    replaced by an exception (no game may start). (A bot that is too big or does not
    load is no such error: it forfeits its games, see test_bot_loader.)"""
    monkeypatch.chdir(tmp_path)
    write_bot(tmp_path, "good")
    monkeypatch.setattr("oska_gui.tournament.command.local_games", started)
    argv = ["tournament", "good.py", *args, "--ai", "1"]
    if "--db" not in args:
        argv += ["--db", "t.sqlite"]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(argv) == 2
    assert words in err.getvalue().strip().splitlines()[-1]
    assert "Traceback" not in err.getvalue()


def started(*args: object) -> None:
    """Stand in for playing the games: fail the test, the checks should have stopped it."""
    raise AssertionError("games started despite bad input")


def test_a_swiss_tournament_continues_with_more_rounds(tmp_path: Path) -> None:
    """Three AI entrants, 2 Swiss rounds (one pairing and a bye each): 4 games, a
    Buchholz column, bye points; the rerun with 3 rounds reuses the 4 and plays 2."""
    db = tmp_path / "s.sqlite"
    first = run_tournament("--ai", "1", "2", "3", "--format", "swiss", "--rounds", 2,
                           "--db", db, "--workers", 1)
    assert first.returncode == 0, first.stderr
    assert "Swiss system, 2 rounds of 1 pairing, 2 games a pairing = 4 games" in first.stdout
    table = standings(first.stdout)
    assert sorted(row["bye points"] for row in table.values()) == ["0", "2", "2"]
    assert all(row["Buchholz"] for row in table.values())
    again = run_tournament("--ai", "1", "2", "3", "--format", "swiss", "--rounds", 3,
                           "--db", db, "--workers", 1)
    assert again.returncode == 0, again.stderr
    assert games_line(again.stdout) == f"games: 2 played now, 4 reused from {db}"


@pytest.mark.slow
def test_a_swiss_tournament_resumed_with_a_new_entrant_plays_its_rounds(
        tmp_path: Path) -> None:
    """Three AI entrants play 2 Swiss rounds; the rerun with a fourth pairs the field of
    four from the first round: 2 rounds of 2 pairings, each game played or reused once."""
    db = tmp_path / "s.sqlite"
    first = run_tournament("--ai", "1", "2", "3", "--format", "swiss", "--rounds", 2,
                           "--db", db, "--workers", 1)
    assert first.returncode == 0, first.stderr
    again = run_tournament("--ai", "1", "2", "3", "4", "--format", "swiss", "--rounds", 2,
                           "--db", db, "--workers", 1)
    assert again.returncode == 0, again.stderr
    assert "Swiss system, 2 rounds of 2 pairings, 2 games a pairing = 8 games" in again.stdout
    played, reused = map(int, re.findall(r"\d+", games_line(again.stdout))[:2])
    assert played + reused == 8
    assert sum(int(row["games"]) for row in standings(again.stdout).values()) == 16


def test_rounds_without_the_swiss_format_is_a_usage_error(tmp_path: Path) -> None:
    """--rounds with the default round robin stops before any game, exit code 2."""
    result = run_tournament("--ai", "1", "2", "--rounds", 3, "--db", tmp_path / "t.sqlite")
    assert result.returncode == 2
    assert "--rounds goes with --format swiss" in result.stderr
    assert not (tmp_path / "t.sqlite").exists()


def test_the_json_result_holds_standings_forfeits_and_games(tmp_path: Path) -> None:
    """--json: a raising bot against the AI, 2 games: the document's standings, its
    first forfeit with the board it happened on, and every game, as documented."""
    raises = bots(tmp_path, "raises")[0]
    path = tmp_path / "result.json"
    result = run_tournament(raises, "--ai", "1", "--db", tmp_path / "t.sqlite", "--json",
                            path, "--workers", 1)
    assert result.returncode == 0, result.stderr
    document = json.loads(path.read_text(encoding="utf-8"))
    assert (document["format"], document["version"]) == ("oska-tournament", 1)
    assert document["settings"]["format"] == "round-robin"
    assert [line["name"] for line in document["standings"]] == [AI, raises]
    loser = document["standings"][1]
    assert loser["forfeits"] == {"exception": 2} and loser["points"] == 0
    first = loser["first_forfeits"][0]
    assert first["reason"] == "exception" and len(first["board"]) == 2 * 4 - 3
    games = {game["id"]: game for game in document["games"]}
    assert first["game"] in games and len(games) == 2
    assert {game["winner"] for game in games.values()} == {"white", "black"}
    rules_board = first["board"]
    side = first["to_move"]
    forfeiting_colour = "white" if games[first["game"]]["white"] == raises else "black"
    assert side == forfeiting_colour[0] and all(set(row) <= set("wb-") for row in rules_board)


def test_an_unwritable_json_path_stops_before_any_game(tmp_path: Path) -> None:
    """--json into a missing folder: exit 2 with one line, no database made."""
    result = run_tournament("--ai", "1", "2", "--db", tmp_path / "t.sqlite", "--json",
                            tmp_path / "missing" / "r.json")
    assert result.returncode == 2
    assert "--json" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "t.sqlite").exists()


def test_a_json_result_may_not_overwrite_the_database_or_the_report(tmp_path: Path) -> None:
    """--json naming the --db file or the --report file stops before any game."""
    db = tmp_path / "t.sqlite"
    same_db = run_tournament("--ai", "1", "2", "--db", db, "--json", db)
    assert same_db.returncode == 2 and "--json and --db name the same file" in same_db.stderr
    report = tmp_path / "r.html"
    same_report = run_tournament("--ai", "1", "2", "--db", db, "--report", report,
                                 "--json", report)
    assert same_report.returncode == 2
    assert "name the same file" in same_report.stderr and not db.exists()
