"""Moves as people see them, shared by the Oska and the Hexapawn rules.

Both rules modules keep a position as (white bitboard, black bitboard, side to move) and
name a cell by its row letter from the top and its column from 1 ('b2'), so reading a
move off two positions and writing it in notation work the same way for both. This
module imports neither rules module, so that each of them can use it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from oska_gui.core.types import Move

_WHITE_BITS = str.maketrans("wb-", "100")
_BLACK_BITS = str.maketrans("wb-", "010")


def move_cells(before: Sequence[int], after: Sequence[int]) -> tuple[int, int, int]:
    """Return the cells of the move that turns ``before`` into its child ``after``.

    Args:
        before: a position (white bitboard, black bitboard, side to move).
        after: a position one move (or a pass) later.

    Returns:
        (from cell, to cell, captured cell or -1); (-1, -1, -1) for a pass.
    """
    mover = before[2]
    frm = before[mover] & ~after[mover]
    to = after[mover] & ~before[mover]
    gone = before[1 - mover] & ~after[1 - mover]
    return frm.bit_length() - 1, to.bit_length() - 1, gone.bit_length() - 1


def check_size(game: str, n: int, sizes: range) -> int:
    """Return the board size ``n`` if ``sizes`` holds it; raise ValueError otherwise.

    Args:
        game: the game's name, for the message ('Oska', 'Hexapawn').
        n: the board size asked for.
        sizes: the supported sizes, a range of ints.

    The message states the supported range, e.g. 'Oska needs n >= 4 and supports
    n <= 24, got n = 100'.
    """
    if n not in sizes:
        raise ValueError(f"{game} needs n >= {sizes[0]} and supports n <= {sizes[-1]}, "
                         f"got n = {n}")
    return n


def cell_label(row: int, column: int) -> str:
    """Return the name of the cell in ``row`` (from the top) and ``column``: 'b2'."""
    return f"{chr(ord('a') + row)}{column + 1}"


def notation(move: Move, cell_name: Callable[[int], str]) -> str:
    """Return ``move`` in notation: 'b2-c1' (a step), 'b2xd3' (a capture) or 'pass'.

    Args:
        move: the move.
        cell_name: the rules' name of a cell index.
    """
    if move.is_pass:
        return "pass"
    sep = "x" if move.is_capture else "-"
    return f"{cell_name(move.frm)}{sep}{cell_name(move.to)}"


def cells_text(white: int, black: int, size: int) -> str:
    """Return one character per cell, in reading order: 'w', 'b' or '-'.

    Args:
        white: the white bitboard (bit i is cell i).
        black: the black bitboard.
        size: the number of cells on the board.
    """
    chars = ["-"] * size
    for letter, mask in (("w", white), ("b", black)):
        while mask:
            low = mask & -mask
            mask ^= low
            chars[low.bit_length() - 1] = letter
    return "".join(chars)


def split_rows(text: str, lengths: Sequence[int]) -> list[str]:
    """Return ``text`` (one character per cell) cut into rows of the given lengths."""
    rows, start = [], 0
    for length in lengths:
        rows.append(text[start:start + length])
        start += length
    return rows


def bitboards(text: str) -> tuple[int, int]:
    """Return the (white, black) bitboards of one character per cell over 'w', 'b', '-'."""
    bits = text[::-1]  # the last cell is the highest bit
    return int(bits.translate(_WHITE_BITS), 2), int(bits.translate(_BLACK_BITS), 2)
