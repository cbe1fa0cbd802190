"""A damaged tournament database (issue 37, item 5): a file SQLite finds damaged is
refused in one line and left as it was; a row that cannot be trusted in a sound file
(an edited column, a record that is not a legal game, bytes that are not text) is
named and its game played again; nothing from either reaches the standings."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest
from database_files import OLD_GAMES, database_4972aaf, fingerprint
from tournament_helpers import games_line, played, run_tournament

from oska_gui.play.review.budget import Budget
from oska_gui.play.review.result import FORMAT as REVIEW_FORMAT
from oska_gui.play.review.result import VERSION as REVIEW_VERSION
from oska_gui.tournament import reviews
from oska_gui.tournament import store as store_module
from oska_gui.tournament.result import GameResult, MoveTimes
from oska_gui.tournament.store import Store, StoreError
from oska_gui.tournament.stored import read_row

GAMES = {f"g{i}": played(f"g{i}", seed=i, forfeit=i == 3) for i in range(6)}
BUDGET = Budget(nodes=2_000)  # the reviews here are stored and read, not made
SCRIBBLER = """
from oska_gui import oskaplayer as ours

def oskaplayer(board, player, depth):
    with open({db!r}, "r+b") as database:  # its pages after the first, as junk
        database.seek(4096)
        database.write(b"\\xff" * 8192)
    return ours(board, player, 1)
"""


def database(path: Path) -> Path:
    """Write the games ``GAMES`` into a new tournament database at ``path``; return it."""
    with Store(path) as store:
        for game, record in GAMES.values():
            store.add(game, record)
    return path


def edit(path: Path, change: str, game_id: str = "g1") -> None:
    """Run ``UPDATE games SET change`` on the row of ``game_id``, as another program may."""
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(f"UPDATE games SET {change} WHERE id = ?", (game_id,))


@pytest.mark.parametrize(("change", "reason"), [
    ("record = '{x'", "its record: not JSON"),
    ("winner = 7", "its winner is 7, its record says 0"),
    ("winner = 1 - winner", "its winner is 1, its record says 0"),
    ("plies = 'many'", "its plies is 'many', its record says"),
    ("white_seconds = 'x'", "its white_seconds is 'x', its record says"),
    ("black_moves = black_moves + 1", "its black_moves is"),
    ("forfeit = 'crash'", "its forfeit is 'crash', its record says None"),
    ("reason = CAST(x'ff' AS TEXT)", "its reason is b'\\xff'"),
    ("record = CAST(x'7bff' AS TEXT)", "its record: not UTF-8 text"),
    ("record = replace(record, '\"moves\": [\"', '\"moves\": [\"a1-a1')",
     "its record: move 1"),
    ("record = replace(record, '\"n\": 4', '\"n\": 5')", "its record: move"),
])
def test_a_row_that_disagrees_with_its_record_is_named_and_the_others_are_read(
        tmp_path: Path, change: str, reason: str) -> None:
    """One row edited: it alone is unreadable, with the reason; every other game is
    read back exactly as it was added, its record too."""
    path = database(tmp_path / "t.sqlite")
    assert GAMES["g1"][0].winner == 0  # the reasons above expect it
    edit(path, change)
    with Store(path) as store:
        found = store.results(GAMES)
        assert list(found.unreadable) == ["g1"]
        assert found.unreadable["g1"].startswith(reason)
        assert found.results == {game_id: game for game_id, (game, _) in GAMES.items()
                                 if game_id != "g1"}
        assert dict(store.records(found.results)) == {
            game_id: record for game_id, (_, record) in GAMES.items() if game_id != "g1"}


def test_a_row_stored_again_replaces_the_unreadable_one(tmp_path: Path) -> None:
    """The game of an unreadable row, stored again (as the tournament does once it is
    played again), is read back."""
    path = database(tmp_path / "t.sqlite")
    edit(path, "winner = 7")
    with Store(path) as store:
        store.add(*GAMES["g1"])
    with Store(path) as store:
        assert store.results(["g1"]) == ({"g1": GAMES["g1"][0]}, {})


def test_a_row_without_its_checksum_is_replayed_once_then_read_by_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows of a database of commit 4972aaf have no checksum: the first read replays
    their records and gives them one, so the next read replays nothing."""
    path = tmp_path / "old.sqlite"
    database_4972aaf(path)
    checked = []
    monkeypatch.setattr(store_module, "read_row",
                        lambda values: checked.append(values[0]) or read_row(values))
    for _ in range(2):
        with Store(path) as store:
            assert set(store.results([*OLD_GAMES, "other"]).results) == set(OLD_GAMES)
    assert checked == sorted(OLD_GAMES)


def test_a_record_changed_during_the_run_is_not_handed_on(tmp_path: Path) -> None:
    """A record that was read back, then changed in the file by someone else: reading
    the records gives a StoreError saying so, not the changed record."""
    path = database(tmp_path / "t.sqlite")
    with Store(path) as store:
        assert store.results(GAMES).unreadable == {}
        edit(path, "record = replace(record, '\"moves\": [\"', '\"moves\": [\"a1-a1')")
        with pytest.raises(StoreError, match="game g1 cannot be read .*changed the file"):
            dict(store.records(GAMES))


def test_our_database_with_tables_not_of_its_version_is_refused_as_it_was(
        tmp_path: Path) -> None:
    """A marked database whose games table lost a column (its schema text edited):
    refused as damaged in one line before anything is read or written."""
    path = database(tmp_path / "t.sqlite")
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'plies', 'pliez') "
                   "WHERE name = 'games'")
        db.commit()
    before = fingerprint(tmp_path)
    with pytest.raises(StoreError, match="it is damaged: its tables are not those of schema"):
        Store(path)
    assert fingerprint(tmp_path) == before


@pytest.mark.slow
def test_flipped_bytes_are_refused_or_named_never_read_as_another_game(tmp_path: Path) -> None:
    """200 copies of a database, each with 1 to 10 bits flipped past its header: each is
    either refused at once in one line and left byte for byte as it was, or opened;
    then every game is read back as it was added (times within their rounding) or
    named unreadable, and its records are handed on; no other exception."""
    good = database(tmp_path / "good.sqlite")
    size = good.stat().st_size
    rng = random.Random(37)
    refused = named = 0
    for _ in range(200):
        path = tmp_path / "flipped" / "t.sqlite"
        path.parent.mkdir(exist_ok=True)
        shutil.copyfile(good, path)
        data = bytearray(path.read_bytes())
        for _ in range(rng.choice([1, 3, 10])):
            data[rng.randrange(100, size)] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        before = fingerprint(path.parent)
        try:
            store = Store(path)
        except StoreError as error:
            assert "\n" not in str(error)
            assert fingerprint(path.parent) == before
            refused += 1
            continue
        with store:
            found = store.results(GAMES)
            assert set(found.results) | set(found.unreadable) == set(GAMES)
            for game_id, game in found.results.items():
                assert _without_times(game) == _without_times(GAMES[game_id][0])
            assert set(dict(store.records(found.results))) == set(found.results)
        named += bool(found.unreadable)
    assert refused > 20 and named > 20  # both ways were taken


def _without_times(game: GameResult) -> GameResult:
    """Return ``game`` without its move times (a flipped low bit may change them)."""
    return replace(game, white_times=MoveTimes(), black_times=MoveTimes())


def test_a_damaged_stored_review_is_named_and_made_again(tmp_path: Path) -> None:
    """Of two stored reviews, the readable one is reused and the damaged one made
    again (named, with why); the report gets the new one."""
    path = database(tmp_path / "t.sqlite")
    chosen = [GAMES["g0"][0], GAMES["g1"][0]]
    ids = {game.game_id: reviews.review_id(game.game_id, BUDGET) for game in chosen}
    fresh = {game.game_id: _empty_review(GAMES[game.game_id][1]) for game in chosen}
    made = []

    def runs(tasks: list[reviews.ReviewTask]) -> Iterator[tuple[str, str, str]]:
        """Stand for the workers: yield each task's review (an empty one: what a review
        says is not the point here)."""
        for task in tasks:
            made.append(task.game_id)
            yield task.review_id, task.game_id, fresh[task.game_id]

    with Store(path) as store:
        store.add_review(ids["g0"], "g0", fresh["g0"])
        store.add_review(ids["g1"], "g1", fresh["g1"].replace('"moves": [', '"moves": [1, '))
        found, count, unreadable = reviews.review_games(store, chosen, BUDGET, runs, False)
    assert made == ["g1"] and count == 1
    assert list(unreadable) == ["g1"] and "another game" in unreadable["g1"]
    assert found == fresh


def _empty_review(record: str) -> str:
    """Return a review of the game ``record`` with no assessments yet (one that loads)."""
    data = json.loads(record)
    return json.dumps({"format": REVIEW_FORMAT, "version": REVIEW_VERSION, "game": "oska",
                       "n": data["n"], "moves": data["moves"], "assessments": []})


@pytest.mark.slow
def test_a_bot_that_scribbles_on_the_database_gets_one_line_each_run(tmp_path: Path) -> None:
    """A bot overwrites the database's pages during its game: the run stops with one
    line (exit 2); a rerun refuses the damaged file in one line (exit 2), leaving it and
    its folder as they were."""
    db = tmp_path / "t.sqlite"
    bot = tmp_path / "scribbler.py"
    bot.write_text(SCRIBBLER.format(db=str(db)), encoding="utf-8")
    first = run_tournament(bot, "--ai", 1, 2, "--db", db, "--depth", 1, "--workers", 1)
    assert first.returncode == 2 and first.stderr.count("\n") == 1, first.stderr
    before = fingerprint(tmp_path)
    again = run_tournament(bot, "--ai", 1, 2, "--db", db, "--depth", 1, "--workers", 1)
    assert again.returncode == 2, again.stderr
    assert again.stderr.startswith(f"oska tournament: error: {db}: cannot use it as the "
                                   "tournament database (it is damaged: ")
    assert again.stderr.count("\n") == 1
    assert fingerprint(tmp_path) == before


@pytest.mark.slow
def test_edited_rows_are_named_their_games_played_again_and_then_reused(
        tmp_path: Path) -> None:
    """Three rows edited as in the issue (record '{x', winner 7, plies 'many'): the rerun
    names the three, plays them again and exits 0; the run after reuses every game."""
    db = tmp_path / "t.sqlite"
    args = ("--ai", 1, 2, 3, "--db", db, "--depth", 1, "--workers", 1)
    assert run_tournament(*args).returncode == 0
    with closing(sqlite3.connect(db)) as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM games ORDER BY id")]
    for game_id, change in zip(ids, ("record = '{x'", "winner = 7", "plies = 'many'"),
                               strict=False):
        edit(db, change, game_id)
    again = run_tournament(*args)
    assert again.returncode == 0 and again.stderr == ""
    assert f"3 stored games in {db} could not be read, so they were played again:" \
        in again.stdout
    for game_id, reason in zip(ids, ("its record: not JSON", "its winner is 7",
                                     "its plies is 'many'"), strict=False):
        assert f"  game {game_id}: {reason}" in again.stdout
    assert games_line(again.stdout) == f"games: 3 played now, 3 reused from {db}"
    third = run_tournament(*args)
    assert "could not be read" not in third.stdout
    assert games_line(third.stdout) == f"games: 0 played now, 6 reused from {db}"
