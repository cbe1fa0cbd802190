"""Settings kept in the browser's ``localStorage`` as one JSON object (and, under a key
of its own, the game in progress: a game record in progress).

Implements the UI's storage protocol (``load() -> dict``, ``save(dict)``,
``set_aside()``). Losing the settings must never stop the game: private browsing, a full
quota or a hand-edited value only costs the saved choices (or game), and the reason is
reported through ``warn``. A saved game that cannot be resumed is set aside under the
key ``<key>.set-aside``.
The game runs in a Web Worker, which has no ``localStorage``: it reads and writes the
page's through ``PageStorage``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

SETTINGS_KEY = "oska.settings"
ASIDE = ".set-aside"  # after a key: where what it held is set aside


class LocalStorageSettings:
    """Settings stored under one key of a Web Storage object (``localStorage``)."""

    def __init__(self, store: Any, warn: Callable[[str], None],
                 key: str = SETTINGS_KEY, defaults: dict | None = None,
                 what: str = "settings", aside_unreadable: bool = False) -> None:
        """Use ``store`` (with ``getItem``/``setItem``), or keep nothing if it is None.

        Args:
            store: the Storage object, or None when the browser refuses access to it.
            warn: called with a sentence when settings cannot be read or written.
            key: the storage key holding the JSON text.
            defaults: settings that stand until the player chooses otherwise (e.g. no
                animation for someone who asked their system for less motion).
            what: what the key holds, for the warnings ('settings', 'saved game').
            aside_unreadable: whether a stored text that cannot be read is set aside
                (``set_aside``) before the next save would replace it (the game
                history), rather than just ignored (settings).
        """
        self.store = store
        self.warn = warn
        self.key = key
        self.defaults = dict(defaults or {})
        self.what = what
        self.aside_unreadable = aside_unreadable

    def load(self) -> dict:
        """Return the saved settings over the defaults (just the defaults if there are
        none saved or they are bad)."""
        return {**self.defaults, **self._saved()}

    def _saved(self) -> dict:
        """Return the saved settings, or an empty dict if there are none or they are bad."""
        if self.store is None:
            return {}
        try:
            text = self.store.getItem(self.key)
        except Exception as err:  # a JsException in Pyodide: storage blocked by the browser
            self.warn(f"cannot read saved {self.what}: {err}")
            return {}
        if not isinstance(text, str):  # nothing saved: JS null (``jsnull`` in Pyodide)
            return {}
        try:
            settings = json.loads(text)
        except RecursionError:  # a hand-edited value nested thousands deep
            return self._unreadable(f"ignoring saved {self.what} nested too deeply")
        except ValueError as err:
            return self._unreadable(f"ignoring unreadable saved {self.what}: {err}")
        if not isinstance(settings, dict):
            return self._unreadable(f"ignoring saved {self.what}: not a JSON object")
        return settings

    def _unreadable(self, warning: str) -> dict:
        """Give ``warning`` (the stored text cannot be read), saying where the text was
        set aside when that is asked for, and return {}."""
        if self.aside_unreadable:
            warning += f"; set aside as {self.set_aside()}"
        self.warn(warning)
        return {}

    def save(self, settings: dict) -> None:
        """Store ``settings`` (JSON-serialisable values) for the next visit."""
        if self.store is None:
            return
        self._store(self.key, json.dumps(settings, sort_keys=True))

    def set_aside(self) -> str:
        """Move the stored text to the key ``<key>.set-aside`` (replacing what an
        earlier one left there) and keep ``{}``; return that key ('' when nothing is
        stored)."""
        if self.store is None:
            return ""
        try:
            text = self.store.getItem(self.key)
        except Exception as err:  # a JsException in Pyodide: storage blocked
            self.warn(f"cannot read saved {self.what}: {err}")
            return ""
        if not isinstance(text, str):
            return ""
        aside = f"{self.key}{ASIDE}"
        self._store(aside, text)
        self._store(self.key, "{}")
        return aside

    def _store(self, key: str, text: str) -> None:
        """Store ``text`` under ``key``, or warn that it cannot be stored."""
        try:
            self.store.setItem(key, text)
        except Exception as err:  # a JsException in Pyodide: quota full or storage blocked
            self.warn(f"cannot save {self.what}: {err}")


class PageStorage:
    """The page's ``localStorage`` as the game's worker sees it (a worker has none).

    The page sends its stored values when the game starts; reading answers from them,
    and writing keeps the new value and asks the page to store it (``{"kind": "store",
    "key": key, "text": text}`` by ``post``), which reports any failure itself.
    """

    def __init__(self, values: dict[str, str], post: Callable[[dict], None]) -> None:
        """Start from ``values`` (key -> stored text), sending writes by ``post``."""
        self.values = dict(values)
        self.post = post

    def getItem(self, key: str) -> str | None:  # noqa: N802 (the Web Storage name)
        """Return the text stored under ``key``, or None."""
        return self.values.get(key)

    def setItem(self, key: str, text: str) -> None:  # noqa: N802 (the Web Storage name)
        """Store ``text`` under ``key``, here and in the page."""
        self.values[key] = text
        self.post({"kind": "store", "key": key, "text": text})
