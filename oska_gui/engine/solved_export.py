"""Writing a solved tablebase as a ``solved_file`` (``oska solve --n N --save``).

Needs numpy, like ``tablebase``; the file it writes is read without it. The table is
walked in chunks of CHUNK places, so the export adds a few hundred MB at most to the
table's own memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from oska_gui.engine.solved_file import BLOCK_BITS, SPAN, Header, SolvedFileError, write_solved
from oska_gui.engine.tablebase import Tablebase, decode

CHUNK = 1 << 28  # places per chunk: a whole number of directory blocks of either turn
assert CHUNK % (2 * BLOCK_BITS) == 0


def _one_byte(codes: np.ndarray, span: int) -> np.ndarray:
    """Return nonzero ``codes`` of span ``span`` as the file's one-byte codes.

    Raises:
        SolvedFileError: when some value needs more plies than a byte holds.
    """
    if span == SPAN:
        return codes.astype(np.uint8)
    results, plies = decode(codes, span)
    if plies.size and int(plies.max()) >= SPAN:
        raise SolvedFileError(f"a value of {int(plies.max())} plies does not fit the "
                              f"file's {SPAN - 1}-ply codes")
    out = np.where(results < 0, 1 + plies, np.where(results == 0, 1 + SPAN + plies,
                                                    3 * SPAN - plies))
    return out.astype(np.uint8)


def _chunks(tb: Tablebase, turn: int) -> Iterator[tuple[bytes, bytes]]:
    """Yield (bitmap bytes, codes) of the positions with ``turn`` to move, chunk by chunk."""
    codes = tb.codes
    for start in range(0, codes.shape[0], CHUNK):
        cells = codes[start + turn:start + CHUNK:2]
        stored = cells != 0
        yield (np.packbits(stored, bitorder="little").tobytes(),
               _one_byte(cells[stored], tb.span).tobytes())


def fewer_turn(tb: Tablebase) -> int:
    """Return the side to move in fewer of the table's positions (White on a tie)."""
    counts = [0, 0]
    codes = tb.codes
    for start in range(0, codes.shape[0], CHUNK):
        chunk = codes[start:start + CHUNK]
        for turn in (0, 1):
            counts[turn] += int(np.count_nonzero(chunk[turn::2]))
    return int(counts[1] < counts[0])


def save_solved(tb: Tablebase, path: Path) -> Header:
    """Write the positions of ``tb`` (solved from its board size's start) to ``path``.

    Keeps the side to move in fewer positions (see ``solved_file``). ``tb`` must hold
    what ``solve_table`` put in it and no more: a position asked about later
    (``Tablebase.solution``) would be stored too.

    Raises:
        ValueError: when ``tb`` was solved from another root: the file is for games
            from the start.
        SolvedFileError: when a value does not fit the file's codes.
    """
    if tb.root != tb.rules.start():
        raise ValueError("only a table solved from the start can be saved")
    turn = fewer_turn(tb)
    return write_solved(path, tb.rules.n, turn, _chunks(tb, turn))
