"""Settings kept as a JSON file: ``$XDG_CONFIG_HOME/oska-gui/settings.json`` (and the
game in progress beside it, in ``game.json``, as a game record in progress).

Without ``XDG_CONFIG_HOME`` the folder is ``~/.config/oska-gui``. A missing file means
no saved settings; an unreadable one is reported on stderr and ignored, and so is a
failed save: losing the saved choices must never stop the game. Saving is atomic, and
goes through symbolic links: a settings file kept elsewhere (in a dotfiles folder, say)
and linked to is the file rewritten, with its permissions, and the link stays.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from oska_gui.core.files import write_whole

APP_DIR = "oska-gui"
FILE_NAME = "settings.json"
GAME_FILE_NAME = "game.json"
MAX_BYTES = 1024 * 1024  # settings or a saved game take a few kB; a bigger file is not ours


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
        not JSON, nested too deeply, not an object) gives a one-line warning.
        """
        try:
            with open(self.path, "rb") as file:
                raw = file.read(MAX_BYTES + 1)
        except FileNotFoundError:
            return {}
        except OSError as err:
            _warn(f"cannot read {self.path}: {err}")
            return {}
        try:
            return _settings_in(raw)
        except ValueError as err:
            _warn(f"ignoring unreadable {self.what} in {self.path}: {err}")
            return {}

    def save(self, settings: dict) -> None:
        """Write ``settings`` to the file, atomically, or warn that it failed.

        ``core.files.write_whole`` writes it: through any symbolic links, into a fresh
        temporary file beside the file (a unique name, so two instances saving at once
        cannot write into each other's), synced, then renamed over it: a reader sees the
        old or the new settings, never half of them. The file keeps its permissions (a
        new one is private to the user) and a link to it stays a link. A link that leads
        round in a loop, or something there that is not a file, is warned about.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_whole(self.path, json.dumps(settings, indent=2, sort_keys=True) + "\n",
                        private=True)
        except OSError as err:
            _warn(f"cannot save {self.what} to {self.path}: {err}")


def _settings_in(raw: bytes) -> dict:
    """Return the JSON object in the file content ``raw``; raises ValueError saying why not."""
    if len(raw) > MAX_BYTES:
        raise ValueError(f"over {MAX_BYTES:,} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("it does not hold a JSON object")
    return data
