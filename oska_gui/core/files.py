"""Writing files whole or not at all: the one way this program writes a file it keeps.

Every file written for the user (game records, reports, review pages, JSON results,
settings, solved games, models, the web build's files) goes through ``replacing`` or
``write_whole``: the content goes to a fresh temporary file beside its target (a hidden
name, unique, so two writers never write into each other's), is flushed to the disk,
then renamed over the target. A reader, or the next run after a full disk or a crash,
sees the old file or the new one, never a part; a failed write leaves nothing behind.

The rules every writer shares:

- A symbolic link is written through: the file it leads to is replaced (created, when
  the link leads to no file yet, in the folder the link names, which must exist) and
  the link stays a link. A loop of links is an error.
- A target that exists and is not a regular file (through its links) is refused with
  ``NotAFile``: a folder, a named pipe, a device, a socket. Nothing is opened to find
  out, so a named pipe with no reader cannot block the check.
- A file written over keeps its permissions; a new one gets the usual ones (the umask
  applies), or is private to the user when asked.

``check_writable`` and ``check_folder`` tell, before a long run, whether a path can be
written so, without writing it; ``filling`` writes files into a folder it makes if
needed, and removes what it made when the writing fails.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

TEMP_SUFFIX = ".tmp"
NAME_KEPT = 40  # characters of the target's name in a temporary name: room for the rest
NAME_TRIES = 100
KINDS = ((stat.S_ISDIR, os.strerror(errno.EISDIR)), (stat.S_ISFIFO, "a named pipe"),
         (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
         (stat.S_ISSOCK, "a socket"))


# Opening never waits (a FIFO with no writer) nor takes a terminal as controlling one.
OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
              | getattr(os, "O_CLOEXEC", 0))


class NotAFile(OSError):
    """The path exists and is not a regular file: a folder, a named pipe, a device."""


def link_target(path: str | Path) -> Path:
    """Return the file that writing ``path`` writes: where its symbolic links lead.

    That is ``path`` itself when no link is on the way; a link to no file yet leads to
    where that file would be. Raises OSError for a loop of links, an empty path and a
    path that ends in a slash, which names no file (ValueError for a NUL character).
    """
    text = os.fspath(path)
    if not text:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), text)
    if text.endswith(os.sep):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), text)
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        return Path(os.path.realpath(path))


def regular_mode(path: str | Path) -> int | None:
    """Return the permission bits of the regular file at ``path`` (links followed), None
    when there is no file there yet.

    Raises:
        NotAFile: something else is there; its reason says what ('a named pipe, not a
            regular file', or 'Is a directory').
        OSError: the path cannot be looked up (a loop of links, a name too long, a
            file where a folder should be).
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISREG(mode):
        return stat.S_IMODE(mode)
    kind = next((words for test, words in KINDS if test(mode)), "not a regular file")
    reason = kind if stat.S_ISDIR(mode) else f"{kind}, not a regular file"
    raise NotAFile(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL, reason, str(path))


def open_regular(path: str | Path) -> int:
    """Open the regular file at ``path`` for reading without ever waiting on it.

    What the path leads to is looked at first (opening a device may act on it), the
    file is opened so that a FIFO does not wait for a writer, and the descriptor is
    checked again (the file may have been swapped in between).

    Returns:
        The open descriptor; the caller closes it.

    Raises:
        FileNotFoundError: nothing is there.
        NotAFile: something other than a regular file is there.
        OSError: it cannot be opened.
    """
    if regular_mode(path) is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    handle = os.open(path, OPEN_FLAGS)
    try:
        _check_descriptor(handle, path)
    except BaseException:
        os.close(handle)
        raise
    return handle


def _check_descriptor(handle: int, path: str | Path) -> None:
    """Raise NotAFile unless the open descriptor ``handle`` (of ``path``) is a regular file."""
    mode = os.fstat(handle).st_mode
    if not stat.S_ISREG(mode):
        kind = next((words for test, words in KINDS if test(mode)), "not a regular file")
        raise NotAFile(errno.EINVAL, f"{kind}, not a regular file", str(path))


def check_writable(path: str | Path) -> None:
    """Raise OSError unless ``replacing`` could write ``path`` now; write nothing.

    The target must be a regular file or missing (``regular_mode``), a file there must
    open for writing (without blocking, and without changing it), and its folder must
    take a new file (a temporary one is made and removed again).

    Raises:
        OSError: saying why not (NotAFile for a folder, a named pipe or a device).
        ValueError: the path holds a NUL character.
    """
    if regular_mode(path) is not None:
        # O_NONBLOCK: should a named pipe have replaced the file meanwhile, this fails at
        # once (no reader) rather than waiting for one
        handle = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        os.close(handle)
    _try_beside(link_target(path))


def check_folder(folder: str | Path) -> None:
    """Raise OSError unless a new file can be written in ``folder`` now; write nothing."""
    _try_beside(Path(folder, "probe"))


def _try_beside(target: Path) -> None:
    """Create the temporary file that writing ``target`` would, and remove it again;
    raises OSError (a missing or read-only folder) as creating it does."""
    handle, temporary = _create_beside(target, private=True)
    os.close(handle)
    os.unlink(temporary)


@contextlib.contextmanager
def replacing(path: str | Path, private: bool = False) -> Iterator[BinaryIO]:
    """Yield a binary file whose content replaces the file ``path`` when the block ends.

    The content goes to a temporary file beside the target (``link_target``), which is
    synced to the disk and renamed over the target only if the block ends normally;
    otherwise (an exception, a full disk) it is removed and the target is left as it was.

    Args:
        path: the file to write; its folder must exist.
        private: a new file is readable by its owner only (default: as the umask says).
            A file written over keeps its own permissions either way.

    Raises:
        NotAFile: the target exists and is not a regular file.
        OSError: the file cannot be written (the disk is full, the folder is missing).
    """
    target = link_target(path)
    mode = regular_mode(target)
    handle, temporary = _create_beside(target, private)
    try:
        if mode is not None:
            os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as file:
            yield file
            file.flush()
            os.fsync(file.fileno())  # on the disk before the rename makes it the file
        os.replace(temporary, target)
    except BaseException:  # also Ctrl+C in the middle: no temporary file stays
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_whole(path: str | Path, content: str | bytes, private: bool = False) -> None:
    """Write ``content`` (text as UTF-8) to the file ``path`` whole or not at all.

    See ``replacing`` for the arguments and the errors.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    with replacing(path, private) as file:
        file.write(data)


def _create_beside(target: Path, private: bool) -> tuple[int, Path]:
    """Create a new, empty, hidden temporary file in the folder of ``target``.

    Returns:
        Its open descriptor (for writing) and its path.

    Raises:
        OSError: the folder is missing, read-only or full.
    """
    permissions = 0o600 if private else 0o666  # the umask takes its share of the latter
    for _ in range(NAME_TRIES):
        name = f".{target.name[:NAME_KEPT]}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
        temporary = target.with_name(name)
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
            return os.open(temporary, flags, permissions), temporary
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file", str(target.parent))


def make_folders(folder: Path) -> list[Path]:
    """Make ``folder`` and whichever of its parents are missing.

    Returns:
        The folders made here, outermost first (empty when ``folder`` was there).

    Raises:
        OSError: one cannot be made; those made before it are removed again.
    """
    missing = []
    current = folder
    while not os.path.lexists(current) and current.parent != current:
        missing.append(current)
        current = current.parent
    made: list[Path] = []
    try:
        for new in reversed(missing):
            try:
                new.mkdir()
            except FileExistsError:  # made by someone else meanwhile: not ours to remove
                continue
            made.append(new)
    except BaseException:
        remove_folders(made)
        raise
    return made


def remove_folders(made: list[Path]) -> None:
    """Remove the folders ``make_folders`` made, innermost first, those left empty only."""
    for folder in reversed(made):
        with contextlib.suppress(OSError):  # something else was put there: it stays
            folder.rmdir()


@contextlib.contextmanager
def filling(folder: Path) -> Iterator[Callable[[str, str | bytes], Path]]:
    """Yield a function that writes a file in ``folder`` whole (``write_whole``).

    The folder and its missing parents are made first. If the block fails, the files
    it created (not those it wrote over, which stay whole) and the folders made are
    removed: a failed run leaves no empty folder and no part of a set of files that
    was not there before.

    Yields:
        ``write(name, content)``, which writes the file ``name`` in the folder and
        returns its path.
    """
    made = make_folders(folder)
    created: list[Path] = []

    def write(name: str, content: str | bytes) -> Path:
        """Write the file ``name`` of the folder; return its path."""
        path = folder / name
        new = not os.path.lexists(path)
        write_whole(path, content)
        if new:
            created.append(path)
        return path

    try:
        yield write
    except BaseException:
        for path in created:
            with contextlib.suppress(OSError):
                path.unlink()
        remove_folders(made)
        raise
