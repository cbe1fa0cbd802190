"""Hexapawn and miniChess rules on an n x n board, any n >= 3 (the rules are in docs/rules.md).

Each side has n pawns on its home row; White starts on row 0 (the top), moves first and
moves down; Black starts on row n-1 and moves up. A pawn steps straight forward onto an
empty square or captures diagonally forward onto an opponent's pawn. A side wins when
one of its pawns reaches the far row, when the opponent has no pawns left, or when the
opponent is to move and has no legal move (there is no passing: ``stuck_result = -1``).

Cells are numbered row by row from the top (cell = row * n + column) and a position is
the Oska module's ``Position(white, black, turn)`` of two bitboards, so the same search
and solver play both games. Moves for people (``move_between``, ``move_text``,
``parse_move``, cell names as in Oska: 'b2') come from ``core.moves.PeopleMoves``, which
``OskaRules`` shares, and the game's end with its reason (``outcome``) has the same form
as Oska's, so a front end treats both games alike. ``pawn_rules(n)`` builds the
per-n tables once.
"""

from __future__ import annotations

from functools import cache

from oska_gui.core.moves import PeopleMoves, bitboards, cells_text, check_size, split_rows
from oska_gui.core.types import (
    BLACK,
    SIDE_WORDS,
    WHITE,
    Evaluator,
    Outcome,
    Position,
    Termination,
    pieces,
)

_new_tuple = tuple.__new__
# The supported board sizes: ``move_chooser`` takes about a second at n = 24, and its
# fixed-depth search grows with about n**4 (16 s at n = 50).
SIZES = range(3, 25)


def check_n(n: int) -> int:
    """Return ``n`` if it is a supported Hexapawn board size (in ``SIZES``); else ValueError."""
    return check_size("Hexapawn", n, SIZES)


class PawnRules(PeopleMoves):
    """Precomputed tables and the rules of Hexapawn for one board size ``n``.

    Use ``pawn_rules(n)`` rather than the constructor so that tables are shared. It is
    a ``Game`` for the search and the solver (``children``, ``terminal``); cell names,
    notation and reading moves come from ``PeopleMoves``.
    """

    game = "hexapawn"  # the game's key in the registry (``engine.registry.GameKind``)
    stuck_result = -1  # the side to move has no legal move: it has lost

    def __init__(self, n: int) -> None:
        """Build the tables for an ``n`` x ``n`` board; raises ValueError unless n is in SIZES."""
        self.n = check_n(n)
        self.size = n * n
        self.full = (1 << self.size) - 1
        self.cells = tuple(divmod(cell, n) for cell in range(self.size))  # (row, column)
        self.index = {rc: cell for cell, rc in enumerate(self.cells)}
        self.row_masks = tuple(((1 << n) - 1) << (r * n) for r in range(n))
        # goal[side]: the far row, where a pawn of that side wins.
        self.goal = (self.row_masks[n - 1], self.row_masks[0])
        self.start_position = Position(self.row_masks[0], self.row_masks[n - 1], WHITE)
        # advance[side][cell]: rows that side's pawn on cell has come from its home row.
        self.advance = (tuple(c // n for c in range(self.size)),
                        tuple(n - 1 - c // n for c in range(self.size)))
        # rows_to_go[side][cell]: rows that side's pawn on cell still has to its far row.
        self.rows_to_go = (tuple(n - 1 - rows for rows in self.advance[WHITE]),
                           tuple(n - 1 - rows for rows in self.advance[BLACK]))
        files = [sum(1 << (r * n + c) for r in range(n)) for c in (0, n - 1)]
        self.not_first_file, self.not_last_file = self.full ^ files[0], self.full ^ files[1]
        self.steps = (self._targets(+1, (0,)), self._targets(-1, (0,)))
        self.captures = (self._targets(+1, (-1, 1)), self._targets(-1, (-1, 1)))

    def _targets(self, dr: int, dcs: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Return, per cell, the bitboards of the cells one row ``dr`` and ``dcs`` away."""
        n, table = self.n, []
        for cell in range(self.size):
            r, c = divmod(cell, n)
            table.append(tuple(1 << ((r + dr) * n + c + dc) for dc in dcs
                               if 0 <= r + dr < n and 0 <= c + dc < n))
        return tuple(table)

    def start(self) -> Position:
        """Return the starting position: full home rows, White to move."""
        return self.start_position

    def children(self, pos: Position) -> list[Position]:
        """Return every position after one move: winning moves, captures, then steps.

        An empty list means the side to move is stuck (and has lost). Game-over
        positions are not special here: ask ``terminal`` first.
        """
        white, black, turn = pos
        own, opp = (white, black) if turn == WHITE else (black, white)
        empty = self.full ^ (white | black)
        goal, steps, captures = self.goal[turn], self.steps[turn], self.captures[turn]
        nxt = 1 - turn
        wins: list[Position] = []
        takes: list[Position] = []
        quiet: list[Position] = []
        for cell in pieces(own):
            low = 1 << cell
            for to in captures[cell]:
                if opp & to:
                    o, p = own ^ low ^ to, opp ^ to
                    (wins if to & goal else takes).append(
                        _new_tuple(Position, (o, p, nxt) if turn == WHITE else (p, o, nxt)))
            for to in steps[cell]:
                if empty & to:
                    o = own ^ low ^ to
                    (wins if to & goal else quiet).append(
                        _new_tuple(Position, (o, opp, nxt) if turn == WHITE else (opp, o, nxt)))
        return wins + takes + quiet

    def has_move(self, pos: Position) -> bool:
        """Return True when the side to move has a legal move (whole-board shifts)."""
        white, black, turn = pos
        n, empty = self.n, self.full ^ (white | black)
        if turn == WHITE:  # down the board: towards higher cells
            return bool((white << n) & empty
                        or ((white & self.not_last_file) << (n + 1)) & black
                        or ((white & self.not_first_file) << (n - 1)) & black)
        return bool((black >> n) & empty
                    or ((black & self.not_last_file) >> (n - 1)) & white
                    or ((black & self.not_first_file) >> (n + 1)) & white)

    def terminal(self, pos: Position) -> int | None:
        """Return the finished game's result for the side to move, or None if not over.

        +1 means the side to move has won, -1 lost. A side has won when one of its
        pawns is on its far row or the opponent has no pawns; should both sides have
        won (no game gets there), the side that just moved is credited. Otherwise the
        side to move has lost when it has no legal move: checked here too, so a search
        sees such a win at its depth limit.
        """
        white, black, turn = pos
        won = (bool(white & self.goal[WHITE]) or not black,
               bool(black & self.goal[BLACK]) or not white)
        if won[1 - turn]:
            return -1
        if won[turn]:
            return 1
        return None if self.has_move(pos) else -1

    def outcome(self, pos: Position) -> Outcome | None:
        """Return how the game ended in ``pos`` (winner and reason), or None if it goes on.

        The reasons: a pawn reached the far row, all enemy pawns were captured, or the
        side to move cannot move. The side that just moved is credited first, as in
        ``terminal``.
        """
        turn = pos[2]
        for side in (1 - turn, turn):
            won = self._win(pos, side)
            if won is not None:
                return won
        if not self.has_move(pos):
            return Outcome(1 - turn, f"{SIDE_WORDS[turn]} cannot move", Termination.NO_MOVE)
        return None

    def _win(self, pos: Position, side: int) -> Outcome | None:
        """Return ``side``'s win in ``pos`` (a pawn home, or no enemy left), or None."""
        if pos[side] & self.goal[side]:
            return Outcome(side, f"a {SIDE_WORDS[side]} pawn reached the far row",
                           Termination.HOME)
        if not pos[1 - side]:
            return Outcome(side, f"all {SIDE_WORDS[1 - side]} pawns captured",
                           Termination.CAPTURED)
        return None

    # -- text form --------------------------------------------------------------

    def to_rows(self, pos: Position) -> list[str]:
        """Return the board as n row strings over 'w', 'b', '-' (row 0 first)."""
        return split_rows(cells_text(pos.white, pos.black, self.size), (self.n,) * self.n)

    def from_rows(self, rows: list[str], turn: int) -> Position:
        """Return the position of well-formed row strings with ``turn`` to move."""
        return Position(*bitboards("".join(rows)), turn)


@cache
def pawn_rules(n: int) -> PawnRules:
    """Return the shared ``PawnRules`` for board size ``n`` (built once per n)."""
    return PawnRules(n)


@cache
def pawn_evaluator(rules: PawnRules) -> Evaluator:
    """Return a static evaluator for ``rules``' board size, scored for the side to move.

    Terms per pawn: 100 for material, 12 a row advanced, and for a passed pawn (no
    enemy pawn ahead of it on its own or a neighbouring file) 30 plus 20 a row.
    """
    n = rules.n
    advance = rules.advance
    ahead = tuple(_ahead_masks(n, side) for side in (WHITE, BLACK))

    def side_score(own: int, opp: int, side: int) -> int:
        """Return one side's material, advancement and passed-pawn terms."""
        score, table, spans = 0, advance[side], ahead[side]
        for cell in pieces(own):
            rows = table[cell]
            score += 100 + 12 * rows
            if not opp & spans[cell]:
                score += 30 + 20 * rows
        return score

    def evaluate(pos: Position) -> int:
        """Score ``pos`` for the side to move (positive: good for it)."""
        white, black, turn = pos
        score = side_score(white, black, WHITE) - side_score(black, white, BLACK)
        return score if turn == WHITE else -score

    return evaluate


def _ahead_masks(n: int, side: int) -> tuple[int, ...]:
    """Return, per cell, the cells ahead of a ``side`` pawn there on its and nearby files."""
    masks = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        rows = range(r + 1, n) if side == WHITE else range(r)
        masks.append(sum(1 << (row * n + col) for row in rows
                         for col in (c - 1, c, c + 1) if 0 <= col < n))
    return tuple(masks)
