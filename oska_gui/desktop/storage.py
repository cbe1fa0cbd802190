"""Settings kept as a JSON file: ``$XDG_CONFIG_HOME/oska-gui/settings.json`` (and the
game in progress beside it, in ``game.json``, as a game record in progress); the kept
games in ``history.json`` in the data folder (``HistoryFileStorage``).

Without ``XDG_CONFIG_HOME`` the folder is ``~/.config/oska-gui``. A missing file means
no saved settings; an unreadable one is reported on stderr and ignored, and so is a
failed save: losing the saved choices must never stop the game. Saving is atomic, and
goes through symbolic links: a settings file kept elsewhere (in a dotfiles folder, say)
and linked to is the file rewritten, with its permissions, and the link stays.

Only a regular file is read or written through. Anything else at the path, or where its
links lead (a FIFO, whose reading would wait for a writer for ever; a folder; a device
such as /dev/null), is set aside: the name at the path (the link, if it is one) is
renamed to ``<name>.set-aside`` (or ``-2``, ``-3``...), with a note on stderr, and a
fresh file is written in its place. A saved game that cannot be resumed is set aside
the same way (``set_aside``).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

from oska_gui.core.files import NotAFile, link_target, open_regular, write_whole
from oska_gui.play.kept_games import MAX_BYTES as MAX_HISTORY_BYTES
from oska_gui.play.kept_games import history_path, history_text

APP_DIR = "oska-gui"
FILE_NAME = "settings.json"
GAME_FILE_NAME = "game.json"
MAX_BYTES = 1024 * 1024  # settings or a saved game take a few kB; a bigger file is not ours
ASIDE = ".set-aside"  # added to the name of a file set aside
MAX_ASIDE = 100  # set-aside names tried before giving up
KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
         (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def default_path() -> Path:
    """Return the settings file's path under the user's configuration folder."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    return Path(base) / APP_DIR / FILE_NAME


def game_path() -> Path:
    """Return the path of the file that keeps the game in progress."""
    return default_path().with_name(GAME_FILE_NAME)


def _warn(message: str) -> None:
    """Print a one-line warning about a file of the program to stderr."""
    print(f"Oska: {message}", file=sys.stderr)


class JsonFileStorage:
    """The UI's storage protocol on a JSON file."""

    max_bytes = MAX_BYTES  # a bigger file is not ours: it is not read
    # whether a file that cannot be read (not JSON, too big...) is set aside before the
    # next save would replace it: settings are cheap to lose, a history of games is not
    aside_unreadable = False

    def __init__(self, path: Path | None = None, what: str = "settings") -> None:
        """Keep a JSON object in a file.

        Args:
            path: the file (default: ``default_path()``, the settings file).
            what: what the file holds, for the warnings ('settings', 'saved game').
        """
        self.path = Path(path) if path is not None else default_path()
        self.what = what

    def load(self) -> dict:
        """Return the saved settings, or {} when there are none or they cannot be read.

        Every way a file can be unreadable (an OS error, over ``MAX_BYTES``, not UTF-8,
        not JSON, nested too deeply, not an object) gives a one-line warning; one that
        is not a regular file is set aside, with a note.
        """
        try:
            raw = _read_regular(self.path, self.max_bytes)
        except FileNotFoundError:
            return {}
        except NotRegular as err:
            self._set_aside_unreadable(err)
            return {}
        except OSError as err:
            _warn(f"cannot read {self.path}: {err}")
            return {}
        try:
            return _settings_in(raw, self.max_bytes)
        except ValueError as err:
            if self.aside_unreadable:
                where = self.set_aside()
                _warn(f"unreadable {self.what} in {self.path} ({err}): "
                      + (f"set aside as {where}" if where else "ignored"))
            else:
                _warn(f"ignoring unreadable {self.what} in {self.path}: {err}")
            return {}

    def save(self, settings: dict) -> None:
        """Write ``settings`` to the file, atomically, or warn that it failed.

        ``core.files.write_whole`` writes it: through any symbolic links, into a fresh
        temporary file beside the file (a unique name, so two instances saving at once
        cannot write into each other's), synced, then renamed over it: a reader sees the
        old or the new settings, never half of them. The file keeps its permissions (a
        new one is private to the user) and a link to it stays a link. A link that leads
        round in a loop is warned about. What is not a regular file is set aside first
        (never written through: the link to /dev/null of someone who wants no settings
        file must not replace the device).
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            kind = _kind_of(link_target(self.path))
            if kind is not None:
                self._set_aside_unreadable(NotRegular(kind))
                if os.path.lexists(self.path):  # it could not be moved: leave it be
                    return
            write_whole(self.path, self.text(settings), private=True)
        except OSError as err:
            _warn(f"cannot save {self.what} to {self.path}: {err}")

    def text(self, data: dict) -> str:
        """Return the file's text for ``data``: JSON, indented, keys sorted."""
        return json.dumps(data, indent=2, sort_keys=True) + "\n"

    def set_aside(self) -> str:
        """Move the file out of the way, keeping it for a person to look at: the name at
        the path (a link itself, not what it leads to) is renamed to the first free one
        of ``<name>.set-aside``, ``<name>.set-aside-2``, ...

        Returns:
            The new name, or '' when there was nothing to move or it could not be moved
            (then why is warned about).
        """
        for count in range(1, MAX_ASIDE + 1):
            aside = self.path.with_name(f"{self.path.name}{ASIDE}"
                                        + (f"-{count}" if count > 1 else ""))
            if os.path.lexists(aside):
                continue
            try:
                os.rename(self.path, aside)
            except FileNotFoundError:
                return ""
            except OSError as err:
                _warn(f"cannot set {self.path} aside: {err}")
                return ""
            return str(aside)
        _warn(f"cannot set {self.path} aside: {MAX_ASIDE} files are set aside already")
        return ""

    def _set_aside_unreadable(self, err: NotRegular) -> None:
        """Set aside what is at the path, which is not a regular file, with a note."""
        where = self.set_aside()
        done = f"set aside as {where}" if where else "ignored"
        _warn(f"{self.path} ({self.what}) is {err.kind}, not a regular file: {done}")


class HistoryFileStorage(JsonFileStorage):
    """The game history (``play.kept_games``) in its file, one game a line; a file that
    cannot be read is set aside before the next game is kept, never written over."""

    max_bytes = MAX_HISTORY_BYTES
    aside_unreadable = True

    def __init__(self, path: Path | None = None) -> None:
        """Keep the history in ``path`` (default: ``kept_games.history_path()``)."""
        super().__init__(path if path is not None else history_path(), "game history")

    def text(self, data: dict) -> str:
        """Return the history file's text: JSON, one game a line."""
        return history_text(data)


class NotRegular(OSError):
    """What is at a path (or where its links lead) is not a regular file."""

    def __init__(self, kind: str) -> None:
        """Say what it is instead: 'a FIFO', 'a folder', 'a device', 'a socket'."""
        super().__init__(f"it is {kind}, not a regular file")
        self.kind = kind


def _kind_of(path: Path) -> str | None:
    """Return what ``path`` (through its links) is when it is there and not a regular
    file ('a FIFO', 'a folder', ...), else None."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # nothing there yet, or a loop of links: writing says so
        return None
    return _kind(mode)


def _kind(mode: int) -> str | None:
    """Return what a file of ``mode`` is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in KINDS if test(mode)), "a special file")


def _read_regular(path: Path, limit: int = MAX_BYTES) -> bytes:
    """Return the first ``limit + 1`` bytes of the regular file at ``path``.

    Nothing else is opened: what the path leads to is looked at first (opening a device
    may act on it), and the file opened is checked again (it may have been swapped in
    between), opened so that a FIFO does not wait for a writer.

    Raises:
        FileNotFoundError: nothing is there.
        NotRegular: it is not a regular file.
        OSError: it cannot be read.
    """
    try:
        descriptor = open_regular(path)
    except NotAFile:
        raise NotRegular(_kind(os.stat(path).st_mode) or "a special file") from None
    with open(descriptor, "rb") as file:
        return file.read(limit + 1)


def _settings_in(raw: bytes, limit: int = MAX_BYTES) -> dict:
    """Return the JSON object in the file content ``raw`` (at most ``limit`` bytes);
    raises ValueError saying why not."""
    if len(raw) > limit:
        raise ValueError(f"over {limit:,} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("it does not hold a JSON object")
    return data
