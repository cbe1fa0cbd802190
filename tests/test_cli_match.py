"""``oska match`` run as a real process against test bots that play well or misbehave."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli, table_rows, write_bot

from oska_gui.play.records import load

# bot -> (forfeit reason, words the report must show about it)
MISBEHAVIOUR = {
    "illegal": ("illegal", "no legal move does this"),
    "malformed": ("malformed", "not a board"),
    "raises": ("exception", "ValueError: boom in helper (raises.py, line 5)"),
    "hangs": ("timeout", "no answer within 1 s"),
    "exits": ("crash", "the bot called sys.exit(3)"),
    "killed": ("crash", "the bot process died (exit code 9)"),
}


def saved_records(folder: Path) -> list:
    """Return the game records saved in ``folder``, in game order (each one re-validated)."""
    return [load(path) for path in sorted(folder.glob("game-*.json"))]


def test_good_bot_against_the_ai_plays_full_games(tmp_path: Path) -> None:
    """A correct bot plays every game to a rules ending; records replay and name it."""
    bot = write_bot(tmp_path, "good")
    result = run_cli("match", bot, "--games", 4, "--ai", "2", "--save-dir", tmp_path / "games",
                     "--time-limit", 20)
    assert result.returncode == 0, result.stderr
    players = {row["player"]: row for row in table_rows(result.stdout, "player")}
    ours = players["AI depth 2 (strong)"]
    theirs = players[f"{bot}:oskaplayer"]
    assert theirs["forfeits"] == ours["forfeits"] == "0"
    assert theirs["games"] == ours["games"] == "4"
    assert int(theirs["wins"]) == int(ours["losses"])
    records = saved_records(tmp_path / "games")
    assert len(records) == 4
    assert all(record.forfeit is None for record in records)
    # colours alternate and each opening is played twice, once with each colour
    assert [record.white == str(bot) + ":oskaplayer" for record in records] == [
        True, False, True, False]
    assert records[0].moves[:2] == records[1].moves[:2]
    assert records[0].opening_plies == 2


def test_two_bots_and_junk_on_stdout_is_not_penalised(tmp_path: Path) -> None:
    """Junk printed by a bot neither costs it games nor reaches the match's output."""
    junk, good = write_bot(tmp_path, "junk"), write_bot(tmp_path, "good")
    result = run_cli("match", junk, good, "--games", 2, "--time-limit", 20)
    assert result.returncode == 0, result.stderr
    rows = table_rows(result.stdout, "player")
    assert [row["forfeits"] for row in rows] == ["0", "0"]
    assert [row["games"] for row in rows] == ["2", "2"]
    for printed in ("junk while loading", "junk [", "more junk", "raw junk", "junk on stderr",
                    '"status"'):
        assert printed not in result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MISBEHAVIOUR))
def test_a_misbehaving_bot_forfeits_every_game_with_its_reason(tmp_path: Path,
                                                               name: str) -> None:
    """Each failure loses that game with the right reason; the next game still runs."""
    reason, words = MISBEHAVIOUR[name]
    bot = write_bot(tmp_path, name)
    result = run_cli("match", bot, "--games", 2, "--time-limit", 1, "--ai", "1",
                     "--save-dir", tmp_path / "games")
    assert result.returncode == 0, result.stderr
    theirs = next(row for row in table_rows(result.stdout, "player") if name in row["player"])
    assert theirs["forfeits"] == theirs[reason] == theirs["losses"] == "2"
    assert words in " ".join(result.stdout.split())
    records = saved_records(tmp_path / "games")
    assert [record.forfeit for record in records] == [reason, reason]
    assert [record.outcome.winner for record in records] == [1, 0]  # the AI had Black, then White


def test_a_bot_that_cannot_load_stops_the_match_with_a_clear_error(tmp_path: Path) -> None:
    """A syntax error in the bot file is a usage error (exit 2), not a crash."""
    result = run_cli("match", write_bot(tmp_path, "broken"))
    assert result.returncode == 2
    assert "SyntaxError" in result.stderr and "Traceback" not in result.stderr


def test_bad_arguments_are_reported_without_a_traceback(tmp_path: Path) -> None:
    """A missing file, a missing function or a bad AI spec: exit 2 and one clear message."""
    good = write_bot(tmp_path, "good")
    for args, words in ((["nowhere.py"], "no such bot file"),
                        ([f"{good}:nothing"], "has no function 'nothing'"),
                        ([good, "--ai", "deep"], "cannot read the AI 'deep'")):
        result = run_cli("match", *args)
        assert result.returncode == 2, args
        assert words in result.stderr and "Traceback" not in result.stderr
