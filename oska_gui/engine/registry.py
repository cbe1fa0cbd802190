"""The game registry: one descriptor per game, read by everything that is not the rules.

Each game the project plays registers a frozen ``GameInfo``: its kind and title, the
board sizes the rules support and those the start screen offers, how its rows are laid
out, its static evaluators, the boards the exact solver covers from the start, and how
its board sizes and cells are written. The UI (layout, drawing, start screen, settings,
players) asks the descriptor instead of switching on the game's kind, so a new game is
one new entry here (and a look in ``ui/board/looks.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from oska_gui.core.types import Evaluator, Position, Rules
from oska_gui.games import oska, pawns

from .evaluators import EVALUATORS, oska_evaluator
from .learned import chance_evaluator
from .solved_file import SolvedFile, SolvedRanking, saved_solution, solved_children

HEX_ROW_STEP = math.sqrt(3) / 2  # staggered rows: a cell's six neighbours one pitch away


class GameKind(StrEnum):
    """The games the project plays (the values are what settings and records store)."""

    OSKA = "oska"
    HEXAPAWN = "hexapawn"


@dataclass(frozen=True)
class GameInfo:
    """What the program knows about one game besides its rules.

    Attributes:
        kind: the game's key.
        title: its name for people.
        sizes: every board size the rules support.
        offered: the classic board sizes the start screen lists, the default first (the
            other supported sizes are picked under its 'More' choice).
        rules: the rules object of a board size (shared: built once per size).
        row_lengths: the number of cells of each row, top to bottom, of a board size.
        staggered: True when neighbouring rows are offset by half a cell (a hexagonal
            grid, Oska), False for a square grid (Hexapawn).
        evaluators: the names of the computer's static evaluators, the best first.
        evaluator: the evaluator of a board size and a name (ValueError if unknown).
        chance_evaluator: the evaluator of a board size whose scores the game review
            reads as win chances (``play.review.chances``).
        perfect_sizes: the boards whose whole game the exact solver handles at once.
        saved_solution: the whole solved game of a board size, kept by ``oska solve
            --save`` or shipped with the package, or None (see ``solved_file``).
        solved_children: the moves of a position of a board size ranked by a whole
            solved game, with the file that ranked them, or None (see
            ``solved_file.solved_children``).
        size_format: how a board size is written, with ``{n}`` for the size.
        cell_word: what a cell a piece moves to is called ('hole', 'square').
        external_bots: True when external programs (the spec's ``oskaplayer``) can play it.
    """

    kind: GameKind
    title: str
    sizes: range
    offered: tuple[int, ...]
    rules: Callable[[int], Rules]
    row_lengths: Callable[[int], tuple[int, ...]]
    staggered: bool
    evaluators: tuple[str, ...]
    evaluator: Callable[[int, str], Evaluator]
    chance_evaluator: Callable[[int], Evaluator]
    perfect_sizes: tuple[int, ...]
    saved_solution: Callable[[int], SolvedFile | None]
    solved_children: Callable[[int, Position], SolvedRanking | None]
    size_format: str
    cell_word: str
    external_bots: bool

    def check(self, n: object) -> int:
        """Return the board size ``n`` if the rules support it.

        Args:
            n: the board size asked for.

        Returns:
            ``n``.

        Raises:
            ValueError: for a size the rules do not support (or not an int).
        """
        if type(n) is not int or n not in self.sizes:
            raise ValueError(f"{self.title} needs n >= {self.sizes[0]} and supports "
                             f"n <= {self.sizes[-1]}, got n = {n!r}")
        return n

    def size_text(self, n: int) -> str:
        """Return the board size ``n`` as people read it: 'n = 5' or '4 × 4'.

        Args:
            n: the board size.

        Returns:
            The text.
        """
        return self.size_format.format(n=n)


def _oska_evaluator(n: int, name: str) -> Evaluator:
    """Return the Oska evaluator called ``name`` for board size ``n``.

    Args:
        n: the board size.
        name: one of ``evaluators.EVALUATORS``.

    Returns:
        The evaluator (cached per board size and name).
    """
    return oska_evaluator(oska.oska_rules(n), name)


LARGEST_CLASSIC = 8  # the largest size listed by itself; larger ones sit under 'More'
PAWN_EVALUATOR = "strong"  # the one pawn evaluator, under the name the settings know


def _pawn_evaluator(n: int, name: str) -> Evaluator:
    """Return the Hexapawn evaluator for board size ``n``; ``name`` must be 'strong'.

    Args:
        n: the board size.
        name: the evaluator's name.

    Returns:
        The evaluator.

    Raises:
        ValueError: for any other name.
    """
    if name != PAWN_EVALUATOR:
        raise ValueError(f"unknown evaluator {name!r} for Hexapawn; use {PAWN_EVALUATOR!r}")
    return pawns.pawn_evaluator(pawns.pawn_rules(n))


def _oska_chance_evaluator(n: int) -> Evaluator:
    """Return the learned evaluator of Oska board size ``n`` with its calibrated model
    (``learned.chance_evaluator``)."""
    return chance_evaluator(oska.oska_rules(n))


def _pawn_chance_evaluator(n: int) -> Evaluator:
    """Return Hexapawn's evaluator of board size ``n``, its only one."""
    return _pawn_evaluator(n, PAWN_EVALUATOR)


def _no_saved_solution(n: int) -> None:
    """Return None: no solved game of board size ``n`` is ever saved for this game."""


def _no_solved_children(n: int, pos: Position) -> None:
    """Return None: no solved game of board size ``n`` ranks the moves of ``pos``."""


def offered_sizes(sizes: range) -> tuple[int, ...]:
    """Return the classic board sizes the start screen lists out of the supported
    ``sizes``: the smallest up to ``LARGEST_CLASSIC``.

    Args:
        sizes: the sizes the rules support.

    Returns:
        The offered sizes, smallest (the default) first.
    """
    return tuple(n for n in sizes if n <= LARGEST_CLASSIC)


def _square_rows(n: int) -> tuple[int, ...]:
    """Return the row lengths of the ``n`` x ``n`` board: n rows of n."""
    return (n,) * n


GAMES: dict[GameKind, GameInfo] = {
    GameKind.OSKA: GameInfo(
        kind=GameKind.OSKA, title="Oska", sizes=oska.SIZES, offered=offered_sizes(oska.SIZES),
        rules=oska.oska_rules, row_lengths=oska.row_lengths, staggered=True,
        evaluators=tuple(EVALUATORS), evaluator=_oska_evaluator,
        chance_evaluator=_oska_chance_evaluator, perfect_sizes=(4,),
        saved_solution=saved_solution, solved_children=solved_children, size_format="n = {n}",
        cell_word="hole", external_bots=True),
    GameKind.HEXAPAWN: GameInfo(
        kind=GameKind.HEXAPAWN, title="Hexapawn", sizes=pawns.SIZES,
        offered=offered_sizes(pawns.SIZES), rules=pawns.pawn_rules, row_lengths=_square_rows,
        staggered=False, evaluators=(PAWN_EVALUATOR,), evaluator=_pawn_evaluator,
        chance_evaluator=_pawn_chance_evaluator,
        # the whole 4 x 4 game is about 20,000 positions
        perfect_sizes=(3, 4), saved_solution=_no_saved_solution,
        solved_children=_no_solved_children, size_format="{n} × {n}",
        cell_word="square", external_bots=False),
}


def game_info(kind: object) -> GameInfo:
    """Return the descriptor of the game ``kind``.

    Args:
        kind: a ``GameKind`` or its value ('oska', 'hexapawn').

    Returns:
        The game's ``GameInfo``.

    Raises:
        ValueError: for an unknown game.
    """
    known = tuple(game.value for game in GAMES)
    if kind not in known:
        raise ValueError(f"unknown game {kind!r}; choose one of {known}")
    return GAMES[GameKind(kind)]


@lru_cache(maxsize=64)
def grid_points(kind: str, n: int) -> tuple[tuple[float, float], ...]:
    """Return each cell's centre in pitch units (u right, v down), in cell order.

    Cell c of a row of length L is at u = (n - L) / 2 + c (rows are centred), and v is
    the row times the row step: one pitch on a square grid, ``HEX_ROW_STEP`` on a
    staggered one. The top-left cell centre is at u = 0 or more.

    Raises:
        ValueError: for an unknown game or a size its rules do not support.
    """
    info = game_info(kind)
    info.check(n)
    step = HEX_ROW_STEP if info.staggered else 1.0
    return tuple(((n - length) / 2 + c, r * step)
                 for r, length in enumerate(info.row_lengths(n)) for c in range(length))
