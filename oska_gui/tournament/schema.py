"""The tournament database's schema: the marks that say a file is ours, and its versions.

A database this project writes carries two marks in its SQLite header: ``PRAGMA
application_id`` is ``APPLICATION_ID`` (the bytes 'OSKA') and ``PRAGMA user_version`` is
its schema version. ``MIGRATIONS[v]`` takes a database from version ``v`` to ``v + 1``;
opening an older database applies the missing steps in order, in one transaction with
the new marks, so a file is always at one whole version. To change the schema (a new
table for another kind of tournament, a new column), append a step: never edit one.

Databases written before the marks existed (up to commit 4972aaf) are version 1 without
marks: they are recognised by their exact tables and columns. A file that holds nothing
(zero bytes, or an SQLite database without tables or marks) is a new database. Anything
else is another program's file, and is refused before anything is written to it: it is
first looked at read-only, without journal files (see ``check_file``).
"""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import closing
from functools import cache
from pathlib import Path
from urllib.parse import quote

APPLICATION_ID = 0x4F534B41  # b"OSKA" read as a big-endian 32-bit number
GAMES_TABLE = """
CREATE TABLE games (
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
REVIEWS_TABLE = """
CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    review TEXT NOT NULL
)
"""
# MIGRATIONS[v]: the statements that take a database from schema version v to v + 1.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (GAMES_TABLE,),  # 0 -> 1: one row per finished game (the schema of commit 4972aaf)
    (REVIEWS_TABLE,),  # 1 -> 2: the reviews of games (--review)
    # 2 -> 3: each game row's checksum as it was written (``stored.digest``): a row
    # that still matches is read without replaying its record; older rows have none
    ("ALTER TABLE games ADD COLUMN digest TEXT",),
)
SCHEMA_VERSION = len(MIGRATIONS)
UNMARKED_VERSION = 1  # the version of the databases written before the marks
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_BYTES = 100
APPLICATION_ID_OFFSET = 68  # where the header keeps PRAGMA application_id
WAL_MODE_OFFSET, WAL_MODE = 18, b"\x02"  # the header's read version in WAL mode
# What reading a file with SQLite may raise: its own errors, and UnicodeDecodeError when
# its error message quotes a damaged file's bytes that are not UTF-8 (Python decodes it).
SQLITE_ERRORS = (sqlite3.Error, UnicodeDecodeError)
CONFIRM_SECONDS = 0.1
NAME_MAX = 255  # bytes in a file name, where the system cannot tell
JOURNAL_SUFFIX = "-journal"  # the longest name SQLite adds to the database's ('-wal', '-shm')

Shape = tuple[tuple[str, str, tuple[tuple[object, ...], ...]], ...]


class SchemaError(Exception):
    """The file is not a tournament database of this project (the message says what it is)."""


def check_file(path: Path) -> bool:
    """Return whether there is a file at ``path``, once it is known to be or able to
    become a tournament database; raises SchemaError otherwise.

    Only reads: a missing or empty file passes at once; any other file must start as
    an SQLite database does and carry no other program's mark in its header before
    SQLite opens it, read-only and without journal files (``version_of`` decides).
    These reads take no lock, so they may catch another run of this program halfway
    through writing the file: a refusal is confirmed by a second look a moment later
    (another program's file says the same twice).

    Raises:
        SchemaError: a folder, a special file, a missing folder, an unreadable file or
            another program's file.
    """
    if "\0" in str(path):  # SQLite would cut the name there
        raise SchemaError("the name holds a NUL character")
    try:
        return _judge(path)
    except SchemaError:
        time.sleep(CONFIRM_SECONDS)
        return _judge(path)


def _judge(path: Path) -> bool:
    """Return whether there is a file at ``path`` (see ``check_file``); raises SchemaError."""
    try:
        if path.is_symlink() and not path.exists():
            raise SchemaError(f"it is a link to {os.readlink(path)!r:.200}, which does not exist")
        if not path.exists():  # Python 3.11 raises ENAMETOOLONG here, not False
            folder = path.absolute().parent
            if not folder.is_dir():
                raise SchemaError(f"there is no folder {folder}")
            _check_name_length(path)
            return False
        if path.is_dir():
            raise SchemaError("it is a folder")
        if not path.is_file():
            raise SchemaError("it is not a regular file")
        with open(path, "rb") as file:
            header = file.read(HEADER_BYTES)
        wal = Path(f"{path}-wal").exists()
    except OSError as error:
        raise SchemaError(error.strerror or str(error)) from None
    if not header and not wal:
        return True
    if not header.startswith(SQLITE_MAGIC):
        raise SchemaError("it is not an SQLite database")
    mark = int.from_bytes(header[APPLICATION_ID_OFFSET:APPLICATION_ID_OFFSET + 4], "big")
    if mark not in (0, APPLICATION_ID):
        raise SchemaError(_foreign_mark(mark))
    _look(path, immutable=header[WAL_MODE_OFFSET:WAL_MODE_OFFSET + 1] == WAL_MODE and not wal)
    return True


def _check_name_length(path: Path) -> None:
    """Raise SchemaError when the name of ``path`` leaves no room for the journal files
    SQLite writes beside it (its name and ``JOURNAL_SUFFIX``)."""
    try:
        limit = os.pathconf(path.absolute().parent, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):  # no pathconf on Windows; 255 there too
        limit = NAME_MAX
    if len(os.fsencode(path.name)) + len(JOURNAL_SUFFIX) > limit:
        raise SchemaError(f"the file name is too long: SQLite writes a file named like it, "
                          f"plus '{JOURNAL_SUFFIX}', beside it, and names here may have at "
                          f"most {limit} bytes")


def _look(path: Path, immutable: bool) -> None:
    """Open ``path`` read-only and run ``version_of``.

    A write-ahead-log database without a ``-wal`` file (nobody has it open) is read as
    ``immutable``: no lock taken, no ``-wal`` or ``-shm`` file made. With a ``-wal``
    file, SQLite makes a ``-shm`` file if there is none: when the file is refused,
    that one is removed again. Other databases are read with SQLite's usual locks.

    Raises:
        SchemaError: what ``version_of`` raises, or SQLite cannot read the file.
    """
    shared = Path(f"{path}-shm")
    had_shared = shared.exists()
    try:
        with closing(sqlite3.connect(file_uri(path, "ro", immutable), uri=True)) as db:
            # names and SQLite's reports of damage may quote bytes that are not UTF-8
            db.text_factory = lambda data: data.decode("utf-8", "replace")
            version_of(db)
            check_sound(db)
    except (SchemaError, *SQLITE_ERRORS) as error:  # another program's, damaged, locked...
        if not had_shared:
            shared.unlink(missing_ok=True)
        raise SchemaError(_refusal(error)) from None


def _refusal(error: Exception) -> str:
    """Return the reason a file is refused for ``error`` (one of ``SQLITE_ERRORS`` or a
    SchemaError), saying so when SQLite found it damaged."""
    if isinstance(error, UnicodeDecodeError):
        return _damaged("SQLite's report of it quotes bytes that are not text")
    if isinstance(error, sqlite3.Error) and error.sqlite_errorcode == sqlite3.SQLITE_CORRUPT:
        return _damaged(str(error))
    return str(error)


def check_sound(db: sqlite3.Connection) -> None:
    """Raise SchemaError when SQLite finds the pages of ``db`` damaged.

    ``PRAGMA integrity_check`` reads every page and checks each b-tree and that the
    index of game ids agrees with the table, so a damaged id is found too (0.4 to 0.8 s
    for 100,000 games, 86 MB); a row's damaged values are for its reader
    (``stored``). Found before anything is written, so a damaged file is left as it
    was. May raise sqlite3.Error (SQLITE_CORRUPT) instead.
    """
    problem = db.execute("PRAGMA integrity_check(1)").fetchone()[0]
    if problem != "ok":
        raise SchemaError(_damaged(problem))


def _damaged(problem: str) -> str:
    """Return the reason a damaged database is refused, with SQLite's first ``problem``
    (its lines joined: SQLite may put the database's name on a line of its own)."""
    lines = [line for line in problem.splitlines() if not line.startswith("*** in database")]
    first = " ".join(" ".join(lines).split()) or "no reason given"
    return (f"it is damaged: {first[:200]}; it is left as it was: restore it from a copy, "
            "or give another --db")


def file_uri(path: Path, mode: str, immutable: bool = False) -> str:
    """Return the SQLite URI that opens ``path`` in ``mode`` ('ro', 'rw' or 'rwc').

    The path is made absolute and percent-encoded byte by byte, so that '?', '#', '%'
    and bytes that are not UTF-8 in a file name reach the file system as they are.
    """
    encoded = quote(os.fsencode(os.path.abspath(path)))
    return f"file://{encoded}?mode={mode}" + ("&immutable=1" if immutable else "")


def version_of(db: sqlite3.Connection) -> int:
    """Return the schema version of the open database ``db`` (0: it holds nothing yet).

    Raises:
        SchemaError: another program's database, or one of a newer schema.
    """
    mark = _mark(db)
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if mark == APPLICATION_ID:
        if version > SCHEMA_VERSION:
            raise SchemaError(f"it was written by a newer version of this program (schema "
                              f"version {version}; this one knows up to {SCHEMA_VERSION})")
        if shape(db) != schema_shape(version):
            raise SchemaError(f"it is damaged: its tables are not those of schema version "
                              f"{version}")
        return version
    if mark != 0 or version != 0:
        raise SchemaError(_foreign_mark(mark, version))
    tables = shape(db)
    if not tables:
        return 0
    if tables == schema_shape(UNMARKED_VERSION):
        return UNMARKED_VERSION
    names = ", ".join(name for kind, name, _ in tables if kind == "table")
    raise SchemaError(f"it is another program's SQLite database (tables: {names or 'none'})")


def _foreign_mark(mark: int, version: int = 0) -> str:
    """Return the reason a database marked ``mark`` (application id) is refused."""
    return (f"it is another program's SQLite database (application id {mark:#010x}, user "
            f"version {version}; this program's is {APPLICATION_ID:#010x})")


def upgrade(db: sqlite3.Connection) -> None:
    """Bring the open database ``db`` to ``SCHEMA_VERSION``, marked as this project's.

    Nothing is written when it is there already. The caller holds the write
    transaction, so that the steps and the marks land together or not at all.

    Raises:
        SchemaError: ``db`` is not a tournament database (see ``version_of``).
    """
    version = version_of(db)
    if version == SCHEMA_VERSION and _mark(db) == APPLICATION_ID:
        return
    _run_steps(db, version, SCHEMA_VERSION)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _mark(db: sqlite3.Connection) -> int:
    """Return the application id in the header of ``db`` (0: none)."""
    return int(db.execute("PRAGMA application_id").fetchone()[0])


def shape(db: sqlite3.Connection) -> Shape:
    """Return what ``db`` holds: (kind, name, columns) of every table, index, view and
    trigger, in name order (the columns as ``PRAGMA table_info`` gives them)."""
    objects = db.execute("SELECT type, name FROM sqlite_master ORDER BY type, name").fetchall()
    return tuple((kind, name, tuple(db.execute("SELECT * FROM pragma_table_info(?)",
                                               (name,)).fetchall()) if kind == "table" else ())
                 for kind, name in objects)


@cache
def schema_shape(version: int) -> Shape:
    """Return the shape of a database at schema ``version`` (built in memory)."""
    with closing(sqlite3.connect(":memory:")) as db:
        _run_steps(db, 0, version)
        return shape(db)


def _run_steps(db: sqlite3.Connection, start: int, stop: int) -> None:
    """Run the migration steps that take ``db`` from schema version ``start`` to ``stop``."""
    for step in MIGRATIONS[start:stop]:
        for statement in step:
            db.execute(statement)
