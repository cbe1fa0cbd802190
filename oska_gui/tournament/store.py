"""Finished tournament games in an SQLite file, one row per game, written as each ends.

Each game is committed as soon as its result arrives, in write-ahead-log mode, so a
run that is killed loses only the games still being played, and a rerun with the same
file finds every finished game by its id (see ``schedule.game_id``) and plays only the
rest. Games of other tournaments may share the file: they are simply not asked for.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType

from .result import GameResult, MoveTimes

SCHEMA = """
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
COLUMNS = ("id, white, black, winner, reason, forfeit, plies, white_moves, white_seconds, "
           "white_longest, black_moves, black_seconds, black_longest")


class StoreError(Exception):
    """The file cannot be opened or written as a tournament database."""


class Store:
    """The tournament database: ``add`` a finished game, ``results`` to read them back."""

    def __init__(self, path: str | Path) -> None:
        """Open (creating if needed) the database at ``path``; raises StoreError."""
        if not str(path).strip():
            raise StoreError("give the database a file name")
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL keeps commits atomic
            self.db.execute(SCHEMA)
            self.db.commit()
        except (sqlite3.Error, ValueError) as error:  # not a database, a folder, a NUL...
            raise StoreError(f"{self.path}: cannot use it as the tournament database "
                             f"({error})") from None

    def add(self, result: GameResult, record: str) -> None:
        """Store one finished game and its record (JSON text), committed at once."""
        row = (*_row(result), record)
        try:
            with self.db:
                self.db.execute(f"INSERT OR REPLACE INTO games ({COLUMNS}, record) "
                                f"VALUES ({', '.join('?' * len(row))})", row)
        except sqlite3.Error as error:  # a full disk, the file removed under us
            raise StoreError(f"{self.path}: cannot store a game ({error})") from None

    def results(self, ids: Iterable[str]) -> dict[str, GameResult]:
        """Return {id: result} of the finished games among ``ids``."""
        wanted = set(ids)
        found = {}
        for row in self.db.execute(f"SELECT {COLUMNS} FROM games"):
            if row[0] in wanted:
                found[row[0]] = _result(row)
        return found

    def records(self, ids: Iterable[str]) -> Iterator[tuple[str, str]]:
        """Yield (id, record JSON text) of the finished games among ``ids``, one by one."""
        wanted = set(ids)
        for game_id, record in self.db.execute("SELECT id, record FROM games"):
            if game_id in wanted:
                yield game_id, record

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def __enter__(self) -> Store:
        """Return the store itself."""
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        """Close the database."""
        self.close()


def _row(result: GameResult) -> tuple[object, ...]:
    """Return a result's column values, in the order of ``COLUMNS``."""
    white, black = result.white_times, result.black_times
    return (result.game_id, result.white, result.black, result.winner, result.reason,
            result.forfeit, result.plies, white.moves, white.total, white.longest,
            black.moves, black.total, black.longest)


def _result(row: tuple) -> GameResult:
    """Return the GameResult of a row read with ``COLUMNS``."""
    game_id, white, black, winner, reason, forfeit, plies = row[:7]
    return GameResult(game_id, white, black, winner, reason, forfeit, plies,
                      MoveTimes(*row[7:10]), MoveTimes(*row[10:13]))
