"""Finished tournament games in an SQLite file, one row per game, written as each ends.

Each game is committed as soon as its result arrives, in write-ahead-log mode, so a
run that is killed loses only the games still being played, and a rerun with the same
file finds every finished game by its id (see ``schedule.game_id``) and plays only the
rest. Games of other tournaments may share the file: they are simply not asked for.

The file must be one of this project's databases, an older one (brought up to date) or
one that holds nothing yet; any other file is refused and left as it was (``schema``).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType

from .result import GameResult, MoveTimes
from .schema import SchemaError, check_file, file_uri, upgrade

WAL_SECONDS = 10
WAL_PAUSE_SECONDS = 0.02
COLUMNS = ("id, white, black, winner, reason, forfeit, plies, white_moves, white_seconds, "
           "white_longest, black_moves, black_seconds, black_longest")


class StoreError(Exception):
    """The file cannot be opened or written as a tournament database."""


class Store:
    """The tournament database: ``add`` a finished game, ``results`` to read them back."""

    def __init__(self, path: str | Path) -> None:
        """Open the tournament database at ``path``, created (or brought to the current
        schema) and marked as this project's if needed.

        Raises:
            StoreError: the path is unusable, or the file is not a tournament database
                (then it is left byte for byte as it was).
        """
        if not str(path).strip():
            raise StoreError("give the database a file name")
        self.path = Path(path)
        try:
            existed = check_file(self.path)
            self.db = sqlite3.connect(file_uri(self.path, "rwc"), uri=True)
        except (SchemaError, sqlite3.Error) as error:
            raise StoreError(self._unusable(error)) from None
        try:
            self._bring_up_to_date()
            self._use_wal()
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL keeps commits atomic
        except (SchemaError, sqlite3.Error) as error:
            self.db.close()
            if not existed:  # e.g. its journal's name is too long: leave no file
                self.path.unlink(missing_ok=True)
            raise StoreError(self._unusable(error)) from None

    def _bring_up_to_date(self) -> None:
        """Migrate and mark the database unless it is at the current schema already.

        The file is judged again inside the write transaction: another run may have
        migrated it since ``check_file`` looked, or another program written it.
        Raises SchemaError (nothing written) or sqlite3.Error.
        """
        self.db.execute("BEGIN IMMEDIATE")
        try:
            upgrade(self.db)
        except BaseException:
            self.db.rollback()
            raise
        self.db.commit()

    def _use_wal(self) -> None:
        """Put the database in write-ahead-log mode, unless it is already (ours are).

        Only a new database is switched; that needs every other connection to it out
        of the way, and SQLite does not wait for them there: several runs that start on
        one new file at once try again for up to ``WAL_SECONDS``. Raises sqlite3.Error.
        """
        deadline = time.monotonic() + WAL_SECONDS
        while self.db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
            except sqlite3.OperationalError:  # 'database is locked': another run is in it
                if time.monotonic() > deadline:
                    raise
                time.sleep(WAL_PAUSE_SECONDS)

    def _unusable(self, error: Exception) -> str:
        """Return the one-line message refusing the file, with the reason ``error``."""
        return f"{self.path}: cannot use it as the tournament database ({error})"

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

    def add_review(self, review_id: str, game_id: str, review: str) -> None:
        """Store the review (JSON text) of game ``game_id`` under ``review_id``, at once."""
        try:
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO reviews (id, game, review) "
                                "VALUES (?, ?, ?)", (review_id, game_id, review))
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot store a review ({error})") from None

    def reviews(self, ids: Iterable[str]) -> dict[str, str]:
        """Return {review id: review JSON text} of the stored reviews among ``ids``."""
        wanted = set(ids)
        return {review_id: review for review_id, review
                in self.db.execute("SELECT id, review FROM reviews") if review_id in wanted}

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
