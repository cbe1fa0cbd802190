"""A slow, deliberately plain reference implementation of the Oska rules.

Written straight from the rules (docs/rules.md states them) and sharing no
code with ``oska_gui``, so that the fast bitboard module can be checked against an
independent reading of the rules.
Nothing here is clever: a board is the spec's list of row strings over 'w', 'b', '-',
and every neighbour is found by searching the neighbouring row for the cell with the
wanted doubled x-coordinate X = (n - L) + 2c.

Rule summary:

- 2n-3 rows of lengths n, n-1, ..., 3, 2, 3, ..., n-1, n; White moves down, Black up.
- A step goes one row forward to X +/- 1 onto an empty cell.
- A jump goes two rows forward to X +/- 2 over the cell one row forward at X +/- 1, which
  must hold an opponent piece (captured), onto an empty cell. Captures are optional.
- A side with no move passes; if neither side can move the game is a draw.
- End of game, in this order: (1) a side with no pieces has lost; (2) if both sides have
  all their pieces on the opponent's back row, more pieces wins, equal is a draw;
  (3) a side whose pieces are all on the opponent's back row has won.
"""

from __future__ import annotations

EMPTY = "-"
PLAYERS = ("w", "b")


def ref_row_lengths(n: int) -> list[int]:
    """Return the row lengths n, n-1, ..., 2, ..., n-1, n of the size-``n`` board."""
    return list(range(n, 1, -1)) + list(range(3, n + 1))


def ref_board_size(board: list[str]) -> int:
    """Return n for ``board`` and check its shape; raises ValueError if it is malformed."""
    rows = len(board)
    if rows < 5 or rows % 2 == 0:
        raise ValueError(f"an Oska board has 2n-3 >= 5 rows, got {rows}")
    n = (rows + 3) // 2
    lengths = [len(row) for row in board]
    if lengths != ref_row_lengths(n):
        raise ValueError(f"row lengths {lengths} are not {ref_row_lengths(n)}")
    for r, row in enumerate(board):
        for ch in row:
            if ch not in "wb-":
                raise ValueError(f"unknown character {ch!r} in row {r}")
    return n


def opponent(player: str) -> str:
    """Return the other player: 'b' for 'w' and 'w' for 'b'."""
    return "b" if player == "w" else "w"


def forward(player: str) -> int:
    """Return the row direction ``player`` moves in: +1 (down) for White, -1 for Black."""
    return 1 if player == "w" else -1


def doubled_x(n: int, length: int, column: int) -> int:
    """Return X = (n - L) + 2c for column ``column`` of a row of length ``length``."""
    return (n - length) + 2 * column


def column_at(board: list[str], row: int, x: int) -> int | None:
    """Return the column of row ``row`` whose doubled x-coordinate is ``x``, or None.

    None also when ``row`` is off the board. The row is searched cell by cell.
    """
    if not 0 <= row < len(board):
        return None
    n = (len(board) + 3) // 2
    length = len(board[row])
    for column in range(length):
        if doubled_x(n, length, column) == x:
            return column
    return None


def with_changes(board: list[str], changes: dict[tuple[int, int], str]) -> list[str]:
    """Return a new board equal to ``board`` except for ``changes`` {(row, col): char}."""
    rows = [list(row) for row in board]
    for (r, c), ch in changes.items():
        rows[r][c] = ch
    return ["".join(row) for row in rows]


def ref_movegen(board: list[str], player: str) -> list[list[str]]:
    """Return the boards after every real move (step or jump) of ``player``.

    Pure move generation: whether the game is already over is not looked at, and a
    player without a move gets an empty list (passing is ``ref_successors``' business).
    """
    n = ref_board_size(board)
    d = forward(player)
    opp = opponent(player)
    results: list[list[str]] = []
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            if ch != player:
                continue
            x = doubled_x(n, len(row), c)
            for dx in (-1, 1):
                step = column_at(board, r + d, x + dx)
                if step is not None and board[r + d][step] == EMPTY:
                    results.append(with_changes(board, {(r, c): EMPTY, (r + d, step): player}))
                over = column_at(board, r + d, x + dx)
                land = column_at(board, r + 2 * d, x + 2 * dx)
                if (
                    over is not None
                    and land is not None
                    and board[r + d][over] == opp
                    and board[r + 2 * d][land] == EMPTY
                ):
                    results.append(
                        with_changes(
                            board, {(r, c): EMPTY, (r + d, over): EMPTY, (r + 2 * d, land): player}
                        )
                    )
    return results


def count_pieces(board: list[str], player: str) -> int:
    """Return how many pieces ``player`` has on ``board``."""
    return sum(row.count(player) for row in board)


def all_home(board: list[str], player: str) -> bool:
    """Return True when every piece of ``player`` is on the opponent's back row.

    White's goal is the last row, Black's is row 0. True also for a side with no pieces
    (``ref_result`` checks rule 1 first, so that never matters).
    """
    goal = len(board) - 1 if player == "w" else 0
    return all(row.count(player) == 0 for r, row in enumerate(board) if r != goal)


def ref_result(board: list[str]) -> tuple[str, str] | None:
    """Return ('w' | 'b' | 'draw', reason) when the game on ``board`` is over, else None.

    The rules are applied in docs/rules.md's order ("The end"): all captured, both
    home (count), one side home, then the deadlock draw (neither side can move). The empty
    board (no pieces at all) is no position of any game and docs/rules.md gives no
    verdict: ValueError.
    """
    white, black = count_pieces(board, "w"), count_pieces(board, "b")
    if white == 0 and black == 0:
        raise ValueError("a board without pieces has no result under the rules")
    if white == 0:
        return ("b", "captured")
    if black == 0:
        return ("w", "captured")
    white_home, black_home = all_home(board, "w"), all_home(board, "b")
    if white_home and black_home:
        if white == black:
            return ("draw", "both home")
        return ("w" if white > black else "b", "both home")
    if white_home:
        return ("w", "home")
    if black_home:
        return ("b", "home")
    if not ref_movegen(board, "w") and not ref_movegen(board, "b"):
        return ("draw", "deadlock")
    return None


def ref_successors(board: list[str], player: str) -> list[tuple[list[str], str]]:
    """Return (board, player to move next) for every legal continuation.

    Real moves when ``player`` has any; otherwise, if the opponent can move, the single
    pass (same board, opponent to move); otherwise (deadlock) nothing. Like the fast
    module's ``children``, this does not ask whether the game is already over.
    """
    opp = opponent(player)
    boards = ref_movegen(board, player)
    if boards:
        return [(b, opp) for b in boards]
    if ref_movegen(board, opp):
        return [(list(board), opp)]
    return []


def ref_start(n: int) -> list[str]:
    """Return the starting board of size ``n``: White fills row 0, Black the last row."""
    lengths = ref_row_lengths(n)
    rows = [EMPTY * length for length in lengths]
    rows[0] = "w" * n
    rows[-1] = "b" * n
    return rows


def ref_prove(board: list[str], to_move: str, depth: int, me: str) -> int:
    """Return +1 / -1 if ``me`` is proven to win / lose within ``depth`` plies, else 0.

    A three-valued minimax that knows only finished games: 0 means a draw or "not known
    within the horizon". A pass is a ply, like a move.
    """
    result = ref_result(board)
    if result is not None:
        if result[0] == "draw":
            return 0
        return 1 if result[0] == me else -1
    if depth == 0:
        return 0
    values = [ref_prove(b, nxt, depth - 1, me) for b, nxt in ref_successors(board, to_move)]
    return max(values) if to_move == me else min(values)


def ref_board_from_cells(n: int, white: list[int], black: list[int]) -> list[str]:
    """Return the size-``n`` board with pieces on the given cells (reading-order indices)."""
    chars = [EMPTY] * sum(ref_row_lengths(n))
    for cell in white:
        chars[cell] = "w"
    for cell in black:
        chars[cell] = "b"
    rows, start = [], 0
    for length in ref_row_lengths(n):
        rows.append("".join(chars[start : start + length]))
        start += length
    return rows
