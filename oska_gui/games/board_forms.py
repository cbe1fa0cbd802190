"""The spec's board forms for Oska: validation, reading and writing.

A board is either a list of 2n-3 strings over 'w', 'b', '-' or (the Prolog-style form)
a list of 2n-3 lists of one-character strings where 'e' or '-' marks an empty cell.
``read_board`` checks everything the contract asks for and raises a precise error;
``BoardForm`` remembers the input's form so results come back in the same one.
"""

from __future__ import annotations

from dataclasses import dataclass

from oska_gui.core.types import BLACK, WHITE
from oska_gui.games.oska import SIZES, OskaRules, oska_rules

_PLAYERS = {"w": WHITE, "b": BLACK}


@dataclass(frozen=True)
class BoardForm:
    """How a board was written: as strings or as lists, and which empty character."""

    as_lists: bool
    empty: str

    def write(self, rows: list[str]) -> list:
        """Return a board given as row strings (a rules object's ``to_rows``) in this form."""
        if not self.as_lists:
            return rows
        return [[self.empty if ch == "-" else ch for ch in row] for row in rows]


def read_player(player: object) -> int:
    """Return WHITE or BLACK for 'w' or 'b'; raises TypeError/ValueError otherwise."""
    if not isinstance(player, str):
        raise TypeError(f"player must be the string 'w' or 'b', not {type(player).__name__}")
    if player not in _PLAYERS:
        raise ValueError(f"player must be 'w' or 'b', got {player!r:.80}")
    return _PLAYERS[player]


def read_int(value: object, name: str, least: int, rule: str) -> int:
    """Return ``value`` if it is an int (not a bool) >= ``least``.

    Args:
        value: the argument to check.
        name: its name, for the error message.
        least: the smallest allowed value.
        rule: how the message states the rule, e.g. 'a positive int'.

    Raises TypeError for another type and ValueError for a smaller int.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be {rule}, not {type(value).__name__}")
    if value < least:
        raise ValueError(f"{name} must be {rule}, got {value}")
    return value


def read_depth(depth: object) -> int:
    """Return ``depth`` if it is a positive int; raises TypeError/ValueError otherwise."""
    return read_int(depth, "depth", 1, "a positive int")


def row_text(row: object, index: int, as_lists: bool) -> str:
    """Return one row as a string over 'w', 'b', '-'; raises on a wrong type or char."""
    if as_lists:
        if not isinstance(row, list):
            raise TypeError(f"row {index} must be a list like the other rows, not "
                            f"{type(row).__name__}")
        chars = []
        for col, cell in enumerate(row):
            if not isinstance(cell, str):
                raise TypeError(f"row {index}, column {col}: cells must be one-character "
                                f"strings, not {type(cell).__name__}")
            if cell not in ("w", "b", "e", "-"):
                raise ValueError(f"row {index}, column {col}: unknown cell {cell!r} "
                                 "(expected 'w', 'b', 'e' or '-')")
            chars.append("-" if cell == "e" else cell)
        return "".join(chars)
    if not isinstance(row, str):
        raise TypeError(f"row {index} must be a string like the other rows, not "
                        f"{type(row).__name__}")
    for col, ch in enumerate(row):
        if ch not in "wb-":
            raise ValueError(f"row {index}, column {col}: unknown character {ch!r} "
                             "(expected 'w', 'b' or '-')")
    return row


def empty_char(board: list) -> str:
    """Return the empty-cell character a list-of-lists board uses ('e' unless it uses '-')."""
    for row in board:
        for cell in row:
            if cell in ("e", "-"):
                return cell
    return "e"


def check_board_list(board: object) -> list:
    """Return ``board`` if it is a list (of rows); raises TypeError otherwise."""
    if not isinstance(board, list):
        raise TypeError(f"board must be a list of rows, not {type(board).__name__}")
    return board


def read_rows(board: list) -> tuple[list[str], BoardForm]:
    """Return the rows of a non-empty list of strings or of lists of characters, and its form.

    Every row must have the first row's type; cells must be 'w', 'b' or '-' (or 'e' in
    the list form). Raises TypeError/ValueError naming the row and column at fault.
    """
    as_lists = isinstance(board[0], list)
    rows = [row_text(row, i, as_lists) for i, row in enumerate(board)]
    return rows, BoardForm(as_lists, empty_char(board) if as_lists else "-")


def check_piece_counts(rows: list[str], n: int, piece: str = "pieces") -> None:
    """Raise ValueError when the rows hold more than ``n`` pieces of one colour."""
    text = "".join(rows)
    for letter, word in (("w", "white"), ("b", "black")):
        if text.count(letter) > n:
            raise ValueError(f"the board has {text.count(letter)} {word} {piece} ('{letter}'); "
                             f"at most n = {n} are allowed")


def read_board(board: object) -> tuple[OskaRules, list[str], BoardForm]:
    """Validate an Oska spec board and return its rules, its row strings and its form.

    Raises TypeError for a value of the wrong type and ValueError for a malformed board
    (row count, row length, n outside ``oska.SIZES``, unknown character, more than n
    pieces of a colour), with a message that says where the problem is. The row count
    is checked first, so a huge board is refused at once. The input is not modified.
    """
    board_rows = check_board_list(board)
    count = len(board_rows)
    n, odd = divmod(count + 3, 2)
    if odd or n not in SIZES:
        raise ValueError(f"board has {count} rows; an Oska board has 2n-3 rows and the "
                         f"supported sizes are n = {SIZES[0]} to {SIZES[-1]}, so 5, 7, 9, "
                         f"... up to {2 * SIZES[-1] - 3} rows")
    rows, form = read_rows(board_rows)
    rules = oska_rules(n)
    for i, (row, length) in enumerate(zip(rows, rules.lengths, strict=True)):
        if len(row) != length:
            raise ValueError(f"row {i} has {len(row)} cells; row {i} of the n = {rules.n} "
                             f"board must have {length}")
    check_piece_counts(rows, rules.n)
    return rules, rows, form
