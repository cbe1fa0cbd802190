"""Solved-game files made without numba, from the pure-Python solver (small boards)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from oska_gui.core.types import Position
from oska_gui.engine import solved_file
from oska_gui.engine.search import run
from oska_gui.engine.solver import Solver, solution_of
from oska_gui.games.oska import oska_rules

CHUNK_BLOCKS = 64  # directory blocks per chunk: n = 4 takes several chunks


def solved_scores(n: int, root: Position | None = None) -> dict:
    """Return {position: solver score} of every position reachable from ``root`` (default:
    the start) of board size ``n``. A solver of its own: the process-wide one may answer
    from a larger table kept from an earlier solve."""
    rules = oska_rules(n)
    return run(Solver(rules).table_steps(root or rules.start(), 2_000_000)).scores


def write_from_solver(path: Path, n: int, root: Position | None = None) -> solved_file.Header:
    """Write the positions reachable from ``root`` (default: the start, the whole game)
    of board size ``n`` to ``path`` as ``oska solve --save`` would, from the pure-Python
    solver: the side to move in fewer positions, White on a tie."""
    scores = solved_scores(n, root)
    black = sum(pos.turn for pos in scores)
    turn = int(black < len(scores) - black)
    places = solved_file.Places(n)
    bitmap = bytearray(-(-places.indexes // 8))
    codes = {}
    for pos, score in scores.items():
        if pos.turn == turn:
            index = places.index(pos.white, pos.black)
            bitmap[index >> 3] |= 1 << (index & 7)
            codes[index] = solved_file.encode(solution_of(score))
    ordered = sorted(codes)
    step = CHUNK_BLOCKS * solved_file.BLOCK_BYTES

    def chunks() -> Iterator[tuple[bytes, bytes]]:
        """Yield (bitmap bytes, codes) pairs of CHUNK_BLOCKS blocks each."""
        at = 0
        for start in range(0, len(bitmap), step):
            end = (start + step) * 8
            upto = at
            while upto < len(ordered) and ordered[upto] < end:
                upto += 1
            yield bytes(bitmap[start:start + step]), bytes(codes[i] for i in ordered[at:upto])
            at = upto

    return solved_file.write_solved(path, n, turn, chunks())
