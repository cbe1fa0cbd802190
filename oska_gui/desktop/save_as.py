"""Save as in the window: a kept game's record written to a file the player can find.

pygame has no file dialog, so Save as (the Games screen's S) picks the place itself:
the folder ``Oska games`` in the user's Documents folder (``$XDG_DOCUMENTS_DIR``, else
``~/Documents`` when it exists), or in the program's data folder when there is none.
The file gets a clear name (``play.share.file_name``: the game, its size, when it was
kept and the result; never a player's name) and, when that name is taken, ``-2``,
``-3``... before ``.json``, so no file is written over. The record is written whole or
not at all (``core.files.write_whole``), and the screen says where it went, or why not.
"""

from __future__ import annotations

import os
from pathlib import Path

from oska_gui.core.files import write_whole
from oska_gui.core.text import drawable
from oska_gui.engine.solved_file import data_folder
from oska_gui.play.kept_games import KeptGame
from oska_gui.play.records import record_text
from oska_gui.play.share import file_name

FOLDER_NAME = "Oska games"
MAX_TRIES = 1000  # names tried before giving up (name-2 ... name-1000)


def games_folder() -> Path:
    """Return the folder Save as writes to (see the module text); it may not exist yet."""
    documents = os.environ.get("XDG_DOCUMENTS_DIR") or str(Path.home() / "Documents")
    base = Path(documents) if os.path.isdir(documents) else data_folder()
    return base / FOLDER_NAME


def free_path(folder: Path, name: str) -> Path:
    """Return ``folder / name``, or with '-2', '-3'... before its suffix, whichever is
    not taken by anything (a file, a folder, a link, even a broken one).

    Raises:
        FileExistsError: when ``MAX_TRIES`` names are all taken.
    """
    path = folder / name
    for number in range(2, MAX_TRIES + 2):
        if not os.path.lexists(path):
            return path
        path = folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
    raise FileExistsError(f"{MAX_TRIES} files named like {name} are already there")


def save_copy(kept: KeptGame, folder: Path | None = None) -> str:
    """Write ``kept``'s record to a new file in ``folder`` (made if missing).

    Args:
        kept: the game chosen on the Games screen.
        folder: where to write (None: ``games_folder()``).

    Returns:
        What was done, in one line to show: 'Saved to <path>' or 'Cannot save the
        game: <why>'.
    """
    folder = games_folder() if folder is None else folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = free_path(folder, file_name(kept.record, kept.kept))
        write_whole(path, record_text(kept.record))
    except OSError as error:
        return drawable(f"Cannot save the game: {error.strerror or error}")
    return drawable(f"Saved to {path}")
