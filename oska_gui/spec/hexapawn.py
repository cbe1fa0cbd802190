"""The classic Hexapawn / miniChess assignment functions (the rules are in docs/rules.md).

- ``hexapawn(board, n, player, depth)``: the board after the best move by minimax
  exactly ``depth`` plies deep; the board is n strings over 'w', 'b', '-' (or, as for
  Oska, lists of one-character strings with 'e' or '-' for empty).
- ``move_maker(board, color)``: every board after one move by ``color``; boards are
  lists of lists of ints, 0 empty, 1 white, 2 black.
- ``move_chooser(boards, color)``: the best of the given boards for ``color``.

All of them validate their input with precise errors, never modify it, return new
lists and are deterministic. The rules are ``pawns.PawnRules``; the search is the
project's shared alpha-beta and the exact ``solver``.
"""

from __future__ import annotations

from oska_gui.core.types import BLACK, WHITE, Position
from oska_gui.engine.search import WIN, analyse, best_child
from oska_gui.engine.solver import TooBig, solve_all
from oska_gui.games.board_forms import (
    BoardForm,
    check_board_list,
    check_piece_counts,
    read_depth,
    read_int,
    read_player,
    read_rows,
)
from oska_gui.games.pawns import SIZES, PawnRules, pawn_evaluator, pawn_rules

CHOOSER_MAX_POSITIONS = 25_000  # the whole 4 x 4 game (20,286 positions) fits
CHOOSER_DEPTH = 4  # plies of alpha-beta for a candidate too big to solve
MOVES_PER_PAWN = 3  # a step and two captures: n pawns have at most 3n moves
_COLORS = {1: WHITE, 2: BLACK}
_CELL_CODES = {0: "-", 1: "w", 2: "b"}
_CODE_OF = {"-": 0, "w": 1, "b": 2}


def read_size(n: object) -> int:
    """Return ``n`` if it is a supported board size (``pawns.SIZES``); raises otherwise."""
    rule = f"an int from {SIZES[0]} to {SIZES[-1]}"
    n = read_int(n, "n", SIZES[0], rule)
    if n not in SIZES:
        raise ValueError(f"n must be {rule}, got {n}")
    return n


def read_color(color: object) -> int:
    """Return WHITE or BLACK for the color 1 or 2; raises TypeError/ValueError otherwise."""
    if isinstance(color, bool) or not isinstance(color, int):
        raise TypeError(f"color must be the int 1 (white) or 2 (black), not "
                        f"{type(color).__name__}")
    if color not in _COLORS:
        raise ValueError(f"color must be 1 (white) or 2 (black), got {color}")
    return _COLORS[color]


def read_square_board(board: object, n: int) -> tuple[list[str], BoardForm]:
    """Validate an n x n board of strings (or lists of characters) for ``hexapawn``.

    Returns its row strings over 'w', 'b', '-' and its form; raises TypeError or
    ValueError saying what is wrong and where.
    """
    board_rows = check_board_list(board)
    if len(board_rows) != n:
        raise ValueError(f"board has {len(board_rows)} rows but n = {n}: it must be {n} x {n}")
    rows, form = read_rows(board_rows)
    for i, row in enumerate(rows):
        if len(row) != n:
            raise ValueError(f"row {i} has {len(row)} cells but n = {n}")
    check_piece_counts(rows, n, "pawns")
    return rows, form


def read_grid(board: object, name: str = "board") -> tuple[PawnRules, list[str]]:
    """Validate a square board of ints (0 empty, 1 white, 2 black), n in ``pawns.SIZES``.

    Returns its rules and its row strings over 'w', 'b', '-'; raises TypeError or
    ValueError naming ``name``, the row and the column of the problem.
    """
    if not isinstance(board, list):
        raise TypeError(f"{name} must be a list of lists of ints, not {type(board).__name__}")
    n = len(board)
    if n not in SIZES:
        raise ValueError(f"{name} has {n} rows; a board is n x n with n >= {SIZES[0]} and "
                         f"n <= {SIZES[-1]}")
    rows = []
    for r, row in enumerate(board):
        if not isinstance(row, list):
            raise TypeError(f"{name}, row {r} must be a list of ints, not {type(row).__name__}")
        if len(row) != n:
            raise ValueError(f"{name}, row {r} has {len(row)} cells but the board has {n} rows: "
                             f"it must be {n} x {n}")
        rows.append("".join(_cell_code(cell, f"{name}, row {r}, column {c}")
                            for c, cell in enumerate(row)))
    check_piece_counts(rows, n, "pawns")
    return pawn_rules(n), rows


def _cell_code(cell: object, where: str) -> str:
    """Return 'w', 'b' or '-' for the cell value 1, 2 or 0; raises on anything else."""
    if isinstance(cell, bool) or not isinstance(cell, int):
        raise TypeError(f"{where}: cells must be the ints 0, 1 or 2, not {type(cell).__name__}")
    if cell not in _CELL_CODES:
        raise ValueError(f"{where}: unknown cell {cell} (expected 0 empty, 1 white, 2 black)")
    return _CELL_CODES[cell]


def write_grid(rules: PawnRules, pos: Position) -> list[list[int]]:
    """Return ``pos`` as a new list of lists of ints (0 empty, 1 white, 2 black)."""
    return [[_CODE_OF[ch] for ch in row] for row in rules.to_rows(pos)]


def hexapawn(board: list, n: int, player: str, depth: int) -> list:
    """Return the board after ``player``'s best move by minimax ``depth`` plies deep.

    Args:
        board: n row strings over 'w', 'b', '-' (row 0 is White's home, at the top),
            or n lists of one-character strings with 'e' or '-' for empty.
        n: the board size, an int >= 3.
        player: 'w' or 'b', the side to move.
        depth: how many plies to look ahead, exactly; >= 1.

    Returns:
        A new board in the input's form; an unchanged copy of the input when the game
        is already over or ``player`` has no legal move.
    """
    n = read_size(n)
    rows, form = read_square_board(board, n)
    rules = pawn_rules(n)
    pos = rules.from_rows(rows, read_player(player))
    depth = read_depth(depth)
    if rules.terminal(pos) is not None:  # won, lost, or the player cannot move
        return form.write(rules.to_rows(pos))
    return form.write(rules.to_rows(best_child(rules, pawn_evaluator(rules), pos, depth)))


def move_maker(board: list, color: int) -> list[list[list[int]]]:
    """Return every board reachable in one move by ``color``.

    Args:
        board: an n x n list of lists of ints (0 empty, 1 white, 2 black), n >= 3;
            white starts on row 0 and moves down.
        color: 1 (white) or 2 (black).

    Returns:
        A new list of new boards (winning moves, then captures, then steps); [] when
        ``color`` has no legal move. It does not check whether the game is over.
    """
    rules, rows = read_grid(board)
    pos = rules.from_rows(rows, read_color(color))
    return [write_grid(rules, child) for child in rules.children(pos)]


def move_chooser(boards: list, color: int) -> list[list[int]]:
    """Return (a copy of) the best of ``boards``, the candidate moves of ``color``.

    Each candidate is scored by the value of the game for the opponent, who moves
    next: exact when at most ``CHOOSER_MAX_POSITIONS`` positions are reachable from the
    candidates together (every 3 x 3 and 4 x 4 game), else by ``CHOOSER_DEPTH``-ply
    alpha-beta with the evaluator. Faster wins and slower losses are preferred; ties go
    to the earliest candidate.

    Args:
        boards: a non-empty list of n x n boards of ints (0 empty, 1 white, 2 black).
        color: 1 (white) or 2 (black), the side that made the candidate moves.

    Returns:
        A new board equal to the chosen candidate.
    """
    side = read_color(color)
    rules, candidates = read_candidates(boards)
    positions = [rules.from_rows(rows, 1 - side) for rows in candidates]
    scores = _opponent_scores(rules, positions)
    return write_grid(rules, positions[scores.index(min(scores))])


def read_candidates(boards: object) -> tuple[PawnRules, list[list[str]]]:
    """Validate ``move_chooser``'s candidates: 1 to 3n boards of one size n.

    Returns their rules and each board's row strings; raises TypeError/ValueError naming
    the board (``boards[i]``), row and column at fault. The count is checked before the
    boards themselves, so an absurdly long list is refused at once.
    """
    if not isinstance(boards, list):
        raise TypeError(f"boards must be a list of boards, not {type(boards).__name__}")
    if not boards:
        raise ValueError("boards is empty: there is no candidate to choose from")
    rules, _ = read_grid(boards[0], "boards[0]")
    if len(boards) > MOVES_PER_PAWN * rules.n:
        raise ValueError(f"boards has {len(boards)} candidates; one move on an n = {rules.n} "
                         f"board has at most {MOVES_PER_PAWN * rules.n}")
    candidates = []
    for i, board in enumerate(boards):
        other, rows = read_grid(board, f"boards[{i}]")
        if other is not rules:
            raise ValueError(f"boards[{i}] is {other.n} x {other.n} but boards[0] is "
                             f"{rules.n} x {rules.n}")
        candidates.append(rows)
    return rules, candidates


def _opponent_scores(rules: PawnRules, positions: list[Position]) -> list[int]:
    """Return the value of each position for its side to move, on the search's scale.

    One exact solve covers all the positions when they fit the budget together (one
    attempt, not one per candidate: a big board gives up once); else each is searched.
    """
    try:
        solutions = solve_all(rules, positions, CHOOSER_MAX_POSITIONS)
    except TooBig:
        return [_searched_score(rules, pos) for pos in positions]
    return [exact.result * (WIN - exact.plies) for exact in solutions]


def _searched_score(rules: PawnRules, pos: Position) -> int:
    """Return the ``CHOOSER_DEPTH``-ply alpha-beta value of ``pos`` for its side to move."""
    result = rules.terminal(pos)
    if result is not None:
        return result * WIN
    return analyse(rules, pawn_evaluator(rules), pos, CHOOSER_DEPTH).score
