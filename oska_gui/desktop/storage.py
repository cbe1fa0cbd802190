"""Settings kept as a JSON file: ``$XDG_CONFIG_HOME/oska-gui/settings.json``.

Without ``XDG_CONFIG_HOME`` the folder is ``~/.config/oska-gui``. A missing file means
no saved settings; an unreadable one is reported on stderr and ignored, and so is a
failed save: losing the saved choices must never stop the game.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

APP_DIR = "oska-gui"
FILE_NAME = "settings.json"


def default_path() -> Path:
    """Return the settings file's path under the user's configuration folder."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(Path.home(), ".config")
    return Path(base) / APP_DIR / FILE_NAME


def _warn(message: str) -> None:
    """Print a one-line warning about the settings file to stderr."""
    print(f"Oska: {message}", file=sys.stderr)


class JsonFileStorage:
    """The UI's storage protocol on a JSON file."""

    def __init__(self, path: Path | None = None) -> None:
        """Keep settings in ``path`` (default: ``default_path()``)."""
        self.path = Path(path) if path is not None else default_path()

    def load(self) -> dict:
        """Return the saved settings, or {} when there are none or they cannot be read."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as err:
            _warn(f"cannot read {self.path}: {err}")
            return {}
        try:
            data = json.loads(text)
        except ValueError as err:
            _warn(f"ignoring unreadable settings in {self.path}: {err}")
            return {}
        if not isinstance(data, dict):
            _warn(f"ignoring {self.path}: it does not hold a JSON object")
            return {}
        return data

    def save(self, settings: dict) -> None:
        """Write ``settings`` to the file (atomically: a temporary file, then a rename)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp = self.path.with_suffix(".tmp")
            temp.write_text(json.dumps(settings, indent=2, sort_keys=True) + "\n",
                            encoding="utf-8")
            temp.replace(self.path)
        except OSError as err:
            _warn(f"cannot save settings to {self.path}: {err}")
