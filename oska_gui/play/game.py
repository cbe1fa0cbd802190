"""One face for every game the UI plays: Oska and Hexapawn behind the same small class.

The UI never calls a rules module directly. A ``GameAdapter`` gives it what a board
game front end needs: the start position, the legal moves (each with the position it
leads to), whether the side to move must pass, the end of the game with a sentence for
people, move notation, which piece stands on a cell, and the evaluators and solver the
computer players may use. The rules object itself (``adapter.rules``) is the ``Game``
the search and the solver run on.

Every rules object has the ``Rules`` protocol (``core.types``) and every game a
descriptor in the registry (``engine.registry``), so one adapter class serves all
games: it binds a descriptor and a board size.
"""

from __future__ import annotations

from dataclasses import dataclass

from oska_gui.core.types import BLACK, WHITE, Evaluator, Move, Outcome, Position, Rules
from oska_gui.engine.registry import GameInfo, GameKind, game_info
from oska_gui.engine.solved_file import SolvedFile, SolvedRanking


@dataclass(frozen=True)
class LegalMove:
    """A legal move of the side to move and the position it leads to."""

    move: Move
    child: Position


class GameAdapter:
    """The UI's view of one game on one board size."""

    def __init__(self, info: GameInfo, n: int) -> None:
        """Bind the rules of the game ``info`` for board size ``n``.

        Args:
            info: the game's descriptor.
            n: the board size.

        Raises:
            ValueError: for a size the game's rules do not support.
        """
        self.info = info
        self.n = info.check(n)
        self.rules: Rules = info.rules(n)

    @property
    def kind(self) -> GameKind:
        """Return which game this is."""
        return self.info.kind

    @property
    def title(self) -> str:
        """Return a short title such as 'Oska · n = 5' or 'Hexapawn · 4 × 4'."""
        return f"{self.info.title} · {self.info.size_text(self.n)}"

    @property
    def cell_count(self) -> int:
        """Return the number of cells of the board."""
        return self.rules.size

    @property
    def solver_covers(self) -> bool:
        """Return True when the exact solver handles this board's whole game at once."""
        return self.n in self.info.perfect_sizes

    @property
    def saved_solution(self) -> SolvedFile | None:
        """Return this board's solved game kept on this computer (``oska solve --save``),
        or None."""
        return self.info.saved_solution(self.n)

    def solved_children(self, pos: Position) -> SolvedRanking | None:
        """Return the moves of ``pos`` ranked by a whole solved game of this board, best
        first (fastest win, slowest loss), with the file that ranked them; None where no
        such file knows them (``solved_file.solved_children``)."""
        return self.info.solved_children(self.n, pos)

    @property
    def perfect_available(self) -> bool:
        """Return True when perfect play is at hand from the start: the exact solver
        covers this board, or its solved game is kept on this computer."""
        return self.solver_covers or self.saved_solution is not None

    def start(self) -> Position:
        """Return the starting position."""
        return self.rules.start()

    def children(self, pos: Position) -> list[Position]:
        """Return the positions after each legal move (a pass included)."""
        if self.rules.terminal(pos) is not None:
            return []
        return self.rules.children(pos)

    def legal_moves(self, pos: Position) -> list[LegalMove]:
        """Return the real (non-pass) moves of the side to move with their positions."""
        return [LegalMove(self.move_between(pos, kid), kid) for kid in self.children(pos)
                if kid[pos[2]] != pos[pos[2]]]

    def pass_child(self, pos: Position) -> Position | None:
        """Return the position after a forced pass if the side to move must pass, else None."""
        kids = self.children(pos)
        if len(kids) == 1 and kids[0][pos[2]] == pos[pos[2]]:
            return kids[0]
        return None

    def outcome(self, pos: Position) -> Outcome | None:
        """Return how the game ended in ``pos`` (winner and reason), or None while it goes on."""
        return self.rules.outcome(pos)

    def move_between(self, before: Position, after: Position) -> Move:
        """Return the move that turns ``before`` into its child ``after``."""
        return self.rules.move_between(before, after)

    def cell_name(self, cell: int) -> str:
        """Return the notation name of ``cell``: row letter from the top, column from 1."""
        return self.rules.cell_name(cell)

    def move_text(self, move: Move) -> str:
        """Return the notation of ``move``: 'b2-c1', 'b2xd3' (capture) or 'pass'."""
        return self.rules.move_text(move)

    def board_rows(self, pos: Position) -> list[str]:
        """Return the board of ``pos`` as row strings, as external bots read and write it."""
        return self.rules.to_rows(pos)

    def piece_at(self, pos: Position, cell: int) -> int | None:
        """Return WHITE or BLACK for the piece on ``cell`` in ``pos``, or None if empty."""
        bit = 1 << cell
        if pos[0] & bit:
            return WHITE
        if pos[1] & bit:
            return BLACK
        return None

    def count(self, pos: Position, side: int) -> int:
        """Return how many pieces ``side`` has in ``pos``."""
        return pos[side].bit_count()

    def race_length(self, pos: Position) -> int:
        """Return how many rows all pieces of both sides still have to travel."""
        total = 0
        for side in (WHITE, BLACK):
            to_go, mask = self.rules.rows_to_go[side], pos[side]
            while mask:
                low = mask & -mask
                mask ^= low
                total += to_go[low.bit_length() - 1]
        return total

    def evaluator_names(self) -> tuple[str, ...]:
        """Return the names of the evaluators the computer may use, the best first."""
        return self.info.evaluators

    def evaluator(self, name: str) -> Evaluator:
        """Return the static evaluator called ``name``; raises ValueError if unknown."""
        return self.info.evaluator(self.n, name)

    def chance_evaluator(self) -> Evaluator:
        """Return the evaluator whose scores the game review reads as win chances."""
        return self.info.chance_evaluator(self.n)


def make_game(kind: str, n: int) -> GameAdapter:
    """Return the adapter for game ``kind`` ('oska' or 'hexapawn') on board size ``n``.

    Raises ValueError for an unknown game or size.
    """
    return GameAdapter(game_info(kind), n)
