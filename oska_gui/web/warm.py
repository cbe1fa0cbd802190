"""What the page does before it touches the browser, so it can be kept in a snapshot.

The loader calls ``prepare()`` right after Pyodide starts, then takes a memory snapshot
of the interpreter (``pyodide.makeMemorySnapshot``) and keeps it in the browser's cache
storage. A repeat visit restores that snapshot instead of starting Python, importing
the game and parsing the learned evaluator's weights again. Nothing imported here may
hold a browser object (``js``, ``pyodide.ffi``): a snapshot cannot keep those, which is
why ``page`` itself is imported only after the snapshot is taken.
"""

from __future__ import annotations

from ..engine.learned import shipped_models
from ..ui import app
from . import canvas2d, dom_events, record, storage

PREPARED = (app, canvas2d, dom_events, record, storage)  # imported for the snapshot


def prepare() -> None:
    """Import the game's modules and parse the learned evaluator's weights (cached)."""
    shipped_models()
