"""A tournament of 16 entrants, most of them misbehaving in a different way: correct,
buggy, crashing, hanging, unloadable and process-spawning bots, and two AI levels.

Every forfeit must be charged to the right bot with the right reason, as ``oska match``
names it, and when the command ends nothing it started, nor anything its bots started,
may still run.
"""

from __future__ import annotations

import json
import random
import sqlite3
import textwrap
from pathlib import Path

import pytest
from cli_helpers import write_bot
from hostile_helpers import kill_marked, marked, tagged, wait_until, write_spawner
from tournament_helpers import games_line, run_tournament, standings, tagged_env

from oska_gui.play.records import from_json

pytestmark = pytest.mark.slow

LISTS_BOT = """
def oskaplayer(board, player, depth):
    return [list(row) for row in board]
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
