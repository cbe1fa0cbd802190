"""The files the commands write (``--save``, ``--json``, ``--html``, ``--report``, ...).

Every output is checked before the long run that makes it, and written at its end, by
the functions here; each problem is one line naming the option, the file and why
(``CliError``: exit code 2). The rules, the same for every command:

- A file is written whole or not at all (``core.files``): into a temporary file beside
  it, then renamed over it, so a full disk or an interruption leaves the old file as it
  was, and no empty or half-written file.
- A symbolic link is written through: the file it leads to gets the content and the
  link stays (as the settings file does). A link to a file not there yet creates that
  file, in the folder the link names, which must exist.
- An output that exists and is not a regular file (through its links) is refused: a
  folder, a named pipe, a device. Nothing that could block is opened to find out. The
  exception: ``--json -`` or ``--json /dev/stdout`` writes the JSON to standard output,
  wherever that goes (a terminal, a pipe, a file), and what the command would print
  there goes to stderr instead (``printing_aside``), so that standard output holds the
  JSON alone.
- No output may be an input of the same command (a bot's file, a game record, the
  tournament's database) or lie inside one (a bot's folder), nor may two outputs be
  the same file: refused before anything is run.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from oska_gui.core.files import (
    NotAFile,
    check_folder,
    check_writable,
    make_folders,
    remove_folders,
    write_whole,
)

from .options import CliError, reason

STDOUT = Path("-")  # where an output that goes to standard output is said to go
STDOUT_NAMES = ("-", "/dev/stdout")


def writable_file(path: str, option: str, stdout: bool = False,
                  folders: bool = False) -> Path:
    """Return ``path`` once a file can be written there; raises CliError saying why not.

    Checked before a long run, so that it does not fail at its end; nothing is written
    (``core.files.check_writable``).

    Args:
        path: the file the run will write.
        option: the option that named it, e.g. '--save', for the message.
        stdout: '-' and '/dev/stdout' mean standard output (returned as ``STDOUT``).
        folders: the run makes the file's folder if missing (the check makes it to
            try, then removes it again).
    """
    if stdout and path in STDOUT_NAMES:
        return STDOUT
    try:
        made = make_folders(Path(path).parent) if folders else []
        try:
            check_writable(path)
        finally:
            remove_folders(made)
    except (OSError, ValueError) as error:  # ValueError: a NUL character in the path
        raise CliError(f"{option} {path!r:.200}: cannot write there "
                       f"({_why(path, error, stdout)})") from None
    return Path(path)


def _why(path: str, error: Exception, stdout: bool) -> str:
    """Return why ``path`` cannot be written, for ``writable_file``'s message: the reason,
    where a link leads, and how to write to standard output where that is allowed."""
    words = reason(error)
    with contextlib.suppress(OSError, ValueError):  # not a link
        words = f"a link to {os.readlink(path)!r:.200}: {words}"
    if stdout and isinstance(error, NotAFile) and error.errno != errno.EISDIR:
        words += "; give - for standard output"
    return words


def writable_folder(path: str, option: str) -> Path:
    """Return the folder ``path`` once files can be written in it; raises CliError
    saying why not.

    Checked before a long run, like ``writable_file``: folders made to try it (the
    folder, missing parents) are removed again, so a run that stops early leaves none.
    """
    folder = Path(path)
    try:
        made = make_folders(folder)
        try:
            check_folder(folder)
        finally:
            remove_folders(made)
    except (OSError, ValueError) as error:
        raise CliError(f"{option} {path!r:.200}: cannot write files there "
                       f"({reason(error)})") from None
    return folder


@contextlib.contextmanager
def printing_aside(output: Path | None) -> Iterator[None]:
    """Send what is printed within the block to stderr when ``output`` is ``STDOUT``,
    so that standard output holds that output alone; else change nothing."""
    if output != STDOUT:
        yield
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield


def write_text(path: Path, text: str, option: str) -> None:
    """Write ``text`` to the output ``path`` (``STDOUT``: standard output) whole.

    Raises:
        CliError: it cannot be written (the old file, if any, is left as it was).
    """
    if path == STDOUT:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        write_whole(path, text)
    except (OSError, ValueError) as error:
        raise CliError(f"{option} {str(path)!r:.200}: cannot write it "
                       f"({reason(error)})") from None


def write_json(path: Path, document: object, option: str) -> None:
    """Write ``document`` to the output ``path`` as indented JSON text (see ``write_text``)."""
    write_text(path, json.dumps(document, indent=2) + "\n", option)


def real(path: str | Path) -> str:
    """Return ``path`` with every link and '..' resolved (as given when it holds a NUL,
    which the checks of the file itself refuse)."""
    try:
        return os.path.realpath(path)
    except ValueError:
        return str(path)


def check_apart(outputs: Mapping[str, Path | str | None], inputs: Mapping[str, str]) -> None:
    """Raise CliError when an output is an input or lies inside one, or two outputs are
    the same file: found before the run, not after it.

    Paths are compared where their links lead, as the outputs are written.

    Args:
        outputs: {option: path} in the order given; None for one not asked for.
            ``STDOUT`` is no file. A folder of outputs counts as an output.
        inputs: {path: what it is, e.g. 'the bot team:oskaplayer.oskaplayer'}.
    """
    read = {real(path): what for path, what in inputs.items()}
    taken: dict[str, str] = {}
    for option, path in outputs.items():
        if path is None or path == STDOUT:
            continue
        written = real(path)
        if written in taken:
            raise CliError(f"{option} and {taken[written]} name the same file, "
                           f"{str(path)!r:.200}")
        for source, what in read.items():
            if written == source:
                raise CliError(f"{option} {str(path)!r:.200} would overwrite {what}")
            if within(written, source):
                raise CliError(f"{option} {str(path)!r:.200} would write inside {what}")
        taken[written] = option


def within(path: str, folder: str) -> bool:
    """Return True when the resolved ``path`` lies below the resolved ``folder``."""
    return path.startswith(folder.rstrip(os.sep) + os.sep)
