"""Files to give ``oska tournament --db``: databases of this project's past (commit 4972aaf,
before the marks) and other programs' SQLite files, and a fingerprint of a folder to see
that a refused file was left exactly as it was."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from tournament_helpers import played

from oska_gui.tournament.store import COLUMNS

# The schema exactly as commit 4972aaf's oska_gui/tournament/store.py created it: a frozen
# copy of history, which must not follow the schema in the code when that changes.
SCHEMA_4972AAF = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    winner INTEGER,
    reason TEXT NOT NULL,
    forfeit TEXT,
    plies INTEGER NOT NULL,
    white_moves INTEGER NOT NULL, white_seconds REAL NOT NULL, white_longest REAL NOT NULL,
    black_moves INTEGER NOT NULL, black_seconds REAL NOT NULL, black_longest REAL NOT NULL,
    record TEXT NOT NULL
)
"""
OLD_GAMES = ("g1", "g2")


def fingerprint(folder: Path) -> dict[str, str]:
    """Return {file name: SHA-256 of its bytes} of every file in ``folder``."""
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.iterdir()) if path.is_file()}


def database_4972aaf(path: Path, *, killed: bool = False) -> None:
    """Write at ``path`` a tournament database as commit 4972aaf wrote it (write-ahead
    log, no marks) holding the games ``OLD_GAMES`` (real games, as it stored them).

    With ``killed``, the files are left as a writer killed outright leaves them: the
    last game only in the ``-wal`` file, beside its ``-shm``.
    """
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(SCHEMA_4972AAF)
    db.commit()
    for seed, game_id in enumerate(OLD_GAMES):
        game, record = played(game_id, seed)
        white, black = game.white_times, game.black_times
        row = (game.game_id, game.white, game.black, game.winner, game.reason, game.forfeit,
               game.plies, white.moves, white.total, white.longest, black.moves, black.total,
               black.longest, record)
        with db:
            db.execute(f"INSERT INTO games ({COLUMNS}, record) VALUES "
                       f"({', '.join('?' * len(row))})", row)
    if killed:
        _copy_while_open(path, db)
    db.close()


def _copy_while_open(path: Path, db: sqlite3.Connection) -> None:
    """Replace ``path`` and its ``-wal`` and ``-shm`` files by copies taken while ``db``
    is still open on them (as a killed writer leaves them)."""
    copy = path.with_name(f"{path.name}.copy")
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    db.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy}{suffix}").replace(f"{path}{suffix}")


def _sqlite_file(path: Path, *statements: str, wal: bool = False) -> None:
    """Write an SQLite database at ``path`` made by ``statements`` (in WAL mode if ``wal``)."""
    with closing(sqlite3.connect(path)) as db:
        if wal:
            db.execute("PRAGMA journal_mode=WAL")
        for statement in statements:
            db.execute(statement)
        db.commit()


def _live_wal_without_shm(path: Path) -> None:
    """Write another program's WAL database whose last change is only in its ``-wal``
    file, with no ``-shm`` file beside it (reading it makes one)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE notes (text TEXT)")
    db.commit()
    _copy_while_open(path, db)
    Path(f"{path}-shm").unlink()


FOREIGN: dict[str, Callable[[Path], None]] = {
    "its own games table": lambda path: _sqlite_file(
        path, "CREATE TABLE games (id INTEGER PRIMARY KEY, player TEXT, score REAL)",
        "INSERT INTO games (player, score) VALUES ('ann', 3.5)"),
    "other tables, write-ahead log": lambda path: _sqlite_file(
        path, "CREATE TABLE notes (text TEXT)", "INSERT INTO notes VALUES ('keep me')",
        wal=True),
    "a change only in its -wal file": _live_wal_without_shm,
    "our games table and one more column": lambda path: _sqlite_file(
        path, SCHEMA_4972AAF.replace("record TEXT NOT NULL", "record TEXT NOT NULL, x REAL")),
    "our games table and one more table": lambda path: _sqlite_file(
        path, SCHEMA_4972AAF, "CREATE TABLE notes (text TEXT)"),
    "empty, another program's mark": lambda path: _sqlite_file(
        path, "PRAGMA application_id = 305419896"),
    "empty, a user_version": lambda path: _sqlite_file(path, "PRAGMA user_version = 3"),
    "ours, of a newer schema": lambda path: _sqlite_file(
        path, SCHEMA_4972AAF, "PRAGMA application_id = 1330858817", "PRAGMA user_version = 99"),
}
