"""What the page does before it touches the browser, so it can be kept in a snapshot.

The loader calls ``prepare()`` right after Pyodide starts, then takes a memory snapshot
of the interpreter (``pyodide.makeMemorySnapshot``) and keeps it in the browser's cache
storage. A repeat visit restores that snapshot instead of starting Python, importing
the game and parsing the general model's weights again. The boards' own models (n = 4
and 5, their pattern tables 2 to 4 MB each) are read when their board is first played,
not here: Pyodide restores a snapshot into its starting heap of 30 MB, which a snapshot
holding every model (10.5 MB of them) overflows ("offset is out of bounds"), and every
visit would start Python afresh. Nothing imported here may hold a browser object
(``js``, ``pyodide.ffi``): a snapshot cannot keep those, which is why ``page`` itself
is imported only after the snapshot is taken.
"""

from __future__ import annotations

from ..engine.learned import shipped_model
from ..ui import app
from ..ui.kit.sounds import Cue, samples
from . import canvas2d, dom_events, record, recorder, speaker, storage

# imported for the snapshot
PREPARED = (app, canvas2d, dom_events, record, recorder, speaker, storage)


def prepare() -> None:
    """Import the game's modules, parse the general model's weights and render the
    sounds (all cached, so the snapshot keeps them)."""
    shipped_model()
    for cue in Cue:
        samples(cue)
