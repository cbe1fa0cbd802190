"""Moves as people see them, shared by the Oska and the Hexapawn rules.

Both rules modules keep a position as (white bitboard, black bitboard, side to move) and
name a cell by its row letters from the top and its column from 1 ('b2'), so reading a
move off two positions, writing it in notation and reading notation back work the same
way for both: ``PeopleMoves`` is the part of a rules class that does it. Rows 0 to 25 are
'a' to 'z'; further rows go on as spreadsheet columns do ('aa', 'ab', ...), so every
board up to 26 rows keeps the one-letter names. A move is read with one pattern
(letters, digits, '-' or 'x', letters, digits), so a row called 'x' is no problem:
'b2xx3' is b2 capturing to x3. This module imports neither rules module, so that each
of them can use it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from oska_gui.core.types import PASS, SIDE_NAMES, Move, Position

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


LETTERS = 26
# Letters and digits are capped far above any supported board (45 rows, 24 columns), so
# hostile text never turns into a huge number.
_MOVE = re.compile(r"([a-z]{1,3})([0-9]{1,3})([-x])([a-z]{1,3})([0-9]{1,3})")
_CELL = re.compile(r"([a-z]{1,3})([0-9]{1,3})")
SHOWN = 30  # characters of a text that an error message quotes


def row_letters(row: int) -> str:
    """Return the letters of ``row`` (0 at the top): 'a' to 'z', then 'aa', 'ab', ...

    Args:
        row: the row index, 0 or more.

    Returns:
        The row's name, as spreadsheet columns are named.
    """
    letters = ""
    number = row + 1
    while number:
        number, rest = divmod(number - 1, LETTERS)
        letters = chr(ord("a") + rest) + letters
    return letters


def letters_row(letters: str) -> int:
    """Return the row named ``letters`` (lower case a-z, at least one): the inverse of
    ``row_letters``."""
    number = 0
    for letter in letters:
        number = number * LETTERS + ord(letter) - ord("a") + 1
    return number - 1


def cell_label(row: int, column: int) -> str:
    """Return the name of the cell in ``row`` (from the top) and ``column``: 'b2', 'aa3'."""
    return f"{row_letters(row)}{column + 1}"


def quoted(text: str) -> str:
    """Return ``text`` quoted for an error message: control characters escaped, at most
    ``SHOWN`` characters of the quoted form, '...' marking a cut."""
    shown = repr(text[:SHOWN])
    if len(text) <= SHOWN and len(shown) <= SHOWN + 2:  # two quotes
        return shown
    return shown[:SHOWN + 1] + "..."


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


class PeopleMoves:
    """Moves for people, the part every rules class shares: cell names, notation,
    reading notation back and playing a move.

    A rules class that inherits it provides ``n``, ``cells`` (each cell's (row,
    column)), ``index`` (the cell of a (row, column)) and ``children``.
    """

    n: int
    cells: tuple[tuple[int, int], ...]
    index: dict[tuple[int, int], int]
    children: Callable[[Position], list[Position]]
    to_rows: Callable[[Position], list[str]]

    def picture(self, pos: Position) -> str:
        """Return a small centred text picture of the board, one line per row.

        Args:
            pos: the position.

        Returns:
            The rows' cells apart by spaces, each row centred on the widest (2n - 1).
        """
        width = 2 * self.n - 1
        return "\n".join(" ".join(row).center(width).rstrip() for row in self.to_rows(pos))

    def move_between(self, before: Position, after: Position) -> Move:
        """Return the move that turns ``before`` into its child ``after``."""
        return Move(*move_cells(before, after))

    def moves(self, pos: Position) -> list[Move]:
        """Return the legal moves of the side to move (``[PASS]`` if it must pass)."""
        return [self.move_between(pos, child) for child in self.children(pos)]

    def play(self, pos: Position, move: Move) -> Position:
        """Return the position after ``move`` in ``pos``; raises ValueError if it is not
        legal there."""
        for child in self.children(pos):
            if self.move_between(pos, child) == move:
                return child
        raise ValueError(f"illegal move {self.move_text(move)} for {SIDE_NAMES[pos.turn]}")

    def cell_name(self, cell: int) -> str:
        """Return a cell's name: row letters from the top, column from 1 ('b2')."""
        return cell_label(*self.cells[cell])

    def move_text(self, move: Move) -> str:
        """Return the notation of ``move``: 'b2-c1' (a step), 'b2xd3' (a capture) or 'pass'."""
        return notation(move, self.cell_name)

    def parse_cell(self, text: str) -> int:
        """Return the cell named ``text`` ('b2', case and spaces around ignored).

        Raises:
            ValueError: saying that no cell of this board has that name.
        """
        found = _CELL.fullmatch(text.strip().lower())
        if found is not None:
            cell = self._cell(found[1], found[2])
            if cell is not None:
                return cell
        raise ValueError(f"no cell named {quoted(text)} on the n = {self.n} board")

    def _cell(self, letters: str, digits: str) -> int | None:
        """Return the cell of row ``letters`` and column ``digits`` (from 1), or None."""
        return self.index.get((letters_row(letters), int(digits) - 1))

    def parse_move(self, text: str, pos: Position) -> Move:
        """Return the legal move of the side to move in ``pos`` written ``text``.

        Args:
            text: a move in notation, 'b2-c1', 'b2xd3' or 'pass' (case and spaces
                around ignored).
            pos: the position it is played in.

        Returns:
            The move.

        Raises:
            ValueError: saying why: unreadable, a cell the board lacks, or not legal.
        """
        cleaned = text.strip().lower()
        legal = self.moves(pos)
        side = SIDE_NAMES[pos.turn]
        if cleaned == "pass":
            if legal == [PASS]:
                return PASS
            raise ValueError(f"{side} has a move and may not pass" if legal
                             else f"{side} has no move here, not even a pass")
        found = _MOVE.fullmatch(cleaned)
        if found is None:
            raise ValueError(f"cannot read move {quoted(text)}: write it like 'b2-c1', "
                             f"'b2xd3' or 'pass'")
        frm, to = (self._cell(found[first], found[first + 1]) for first in (1, 4))
        for cell, name in ((frm, found[1] + found[2]), (to, found[4] + found[5])):
            if cell is None:
                raise ValueError(f"no cell named {quoted(name)} on the n = {self.n} board")
        capture = found[3] == "x"
        for move in legal:
            if (move.frm, move.to, move.is_capture) == (frm, to, capture):
                return move
        raise ValueError(f"{quoted(text)} is not a legal move for {side}")
