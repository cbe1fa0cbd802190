"""Finished tournament games in an SQLite file, one row per game, written as each ends.

Each game is committed as soon as its result arrives, in write-ahead-log mode, so a
run that is killed loses only the games still being played, and a rerun with the same
file finds every finished game by its id (see ``schedule.game_id``) and plays only the
rest. Games of other tournaments may share the file: they are simply not asked for.

The file must be one of this project's databases, an older one (brought up to date) or
one that holds nothing yet; any other file is refused and left as it was (``schema``),
and so is a damaged one (SQLite finds its pages malformed). A row that cannot be
trusted in a sound file (``stored``) is not read back: the caller is told which and why,
and plays its game again. Every SQLite error after opening is a StoreError.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple

from .result import GameResult, MoveTimes
from .schema import SQLITE_ERRORS, SchemaError, check_file, file_uri, upgrade
from .stored import Unreadable, digest, read_row

WAL_SECONDS = 10
WAL_PAUSE_SECONDS = 0.02
# Ids looked up by one query: under the 999 parameters older SQLite builds allow a query
IDS_A_QUERY = 500
COLUMNS = ("id, white, black, winner, reason, forfeit, plies, white_moves, white_seconds, "
           "white_longest, black_moves, black_seconds, black_longest")


class StoreError(Exception):
    """The file cannot be opened or written as a tournament database."""


class Found(NamedTuple):
    """The stored games among those asked for: {id: result} of the rows that can be
    read, and {id: why} of those that cannot (their games are to be played again)."""

    results: dict[str, GameResult]
    unreadable: dict[str, str]


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
            self.db.text_factory = _text_or_bytes
        except (SchemaError, *SQLITE_ERRORS) as error:
            raise StoreError(self._unusable(error)) from None
        try:
            self._bring_up_to_date()
            self._use_wal()
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL keeps commits atomic
        except (SchemaError, *SQLITE_ERRORS) as error:
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
        values = (*_row(result), record)
        try:
            with self.db:
                self.db.execute(f"INSERT OR REPLACE INTO games ({COLUMNS}, record, digest) "
                                f"VALUES ({', '.join('?' * (len(values) + 1))})",
                                (*values, digest(values)))
        except SQLITE_ERRORS as error:  # a full disk, the file removed under us
            raise StoreError(f"{self.path}: cannot store a game ({error})") from None

    def results(self, ids: Iterable[str]) -> Found:
        """Return the finished games among ``ids``: those whose rows can be read, and
        why each of the others cannot.

        A row that still matches its checksum is read as it is; any other (changed
        since it was written, or written before rows had checksums) is read only when
        it passes ``stored.read_row``, which replays its record (about a millisecond a
        game at n = 4), and then gets its checksum, so that it is not replayed again.

        Raises:
            StoreError: SQLite cannot read the table (its pages were damaged) or write
                the checksums.
        """
        found = Found({}, {})
        checked = []
        for row in self._rows_of(f"SELECT {COLUMNS}, record, digest FROM games", ids):
            values = row[:-1]
            sum_of_values = digest(values)
            if row[-1] == sum_of_values:
                found.results[row[0]] = _result(values)
                continue
            try:
                found.results[row[0]] = read_row(values)
            except Unreadable as error:
                found.unreadable[row[0]] = str(error)
            else:
                checked.append((sum_of_values, row[0]))
        if checked:
            try:
                with self.db:
                    self.db.executemany("UPDATE games SET digest = ? WHERE id = ?", checked)
            except SQLITE_ERRORS as error:
                raise StoreError(f"{self.path}: cannot store the games' checksums ({error})"
                                 ) from None
        return found

    def count(self) -> int:
        """Return how many games the file holds (of every tournament in it).

        Raises:
            StoreError: SQLite cannot read the table.
        """
        try:
            return int(self.db.execute("SELECT count(*) FROM games").fetchone()[0])
        except SQLITE_ERRORS as error:
            raise StoreError(f"{self.path}: cannot read it ({error})") from None

    def records(self, ids: Iterable[str]) -> Iterator[tuple[str, str]]:
        """Yield (id, record JSON text) of the finished games among ``ids``, one by one.

        A row is checked as ``results`` checks it, so that what changed the file since
        ``results`` read it reaches no reader of records.

        Raises:
            StoreError: SQLite cannot read the table, or a row cannot be read (any more).
        """
        for row in self._rows_of(f"SELECT {COLUMNS}, record, digest FROM games", ids):
            values = row[:-1]
            if row[-1] != digest(values):
                try:
                    read_row(values)
                except Unreadable as error:
                    raise StoreError(f"{self.path}: game {row[0]} cannot be read ({error}); "
                                     "something changed the file: run the command again "
                                     "to play it again") from None
            yield row[0], values[-1]

    def add_review(self, review_id: str, game_id: str, review: str) -> None:
        """Store the review (JSON text) of game ``game_id`` under ``review_id``, at once."""
        try:
            with self.db:
                self.db.execute("INSERT OR REPLACE INTO reviews (id, game, review) "
                                "VALUES (?, ?, ?)", (review_id, game_id, review))
        except SQLITE_ERRORS as error:
            raise StoreError(f"{self.path}: cannot store a review ({error})") from None

    def reviews(self, ids: Iterable[str]) -> dict[str, str]:
        """Return {review id: review JSON text} of the stored reviews among ``ids`` (a
        review that is not text is left out: it is made again).

        Raises:
            StoreError: SQLite cannot read the table.
        """
        return {review_id: review for review_id, review
                in self._rows_of("SELECT id, review FROM reviews", ids)
                if isinstance(review, str)}

    def _rows_of(self, query: str, ids: Iterable[str]) -> Iterator[Any]:
        """Yield the rows of ``query`` (a SELECT from one table, without WHERE) whose id
        is among ``ids``, found by the ids' index ``IDS_A_QUERY`` at a time.

        Raises:
            StoreError: SQLite cannot read them (damaged pages, the file removed).
        """
        wanted = sorted(set(ids))
        try:
            for start in range(0, len(wanted), IDS_A_QUERY):
                chunk = wanted[start:start + IDS_A_QUERY]
                yield from self.db.execute(f"{query} WHERE id IN ({', '.join('?' * len(chunk))})",
                                           chunk)
        except SQLITE_ERRORS as error:
            raise StoreError(f"{self.path}: cannot read it ({error})") from None

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
    """Return a result's column values, in the order of ``COLUMNS``, as SQLite gives them
    back (times as floats: the checksum is of these values)."""
    white, black = result.white_times, result.black_times
    return (result.game_id, result.white, result.black, result.winner, result.reason,
            result.forfeit, result.plies, white.moves, float(white.total),
            float(white.longest), black.moves, float(black.total), float(black.longest))


def _text_or_bytes(data: bytes) -> str | bytes:
    """Return a text value SQLite gives as str, or as its bytes when they are not UTF-8:
    a damaged row is then refused by its reader, where SQLite's own decoding would have
    stopped the whole query at it."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def _result(values: tuple[Any, ...]) -> GameResult:
    """Return the GameResult of a row's values (``COLUMNS``) that match its checksum."""
    game_id, white, black, winner, reason, forfeit, plies = values[:7]
    return GameResult(game_id, white, black, winner, reason, forfeit, plies,
                      MoveTimes(*values[7:10]), MoveTimes(*values[10:13]))
