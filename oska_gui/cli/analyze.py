"""``oska analyze BOARD PLAYER``: best move, score and line; the exact result if known.

Exact first: where the exact value is known, the Best move, the Line and the position
After it are perfect play (the fastest win, the slowest loss; ties in move order, as the
Perfect level, the hint and the review choose), and the search's own choice is printed
apart, labelled as the search's. The exact values come from a whole solved game of the
board (the user's ``oska solve --save`` file, else the one the package ships: n = 4),
else from the solver within ``--solve-limit``. Every evaluation printed says where it
comes from: the file, the solver, or the search with its depth.
"""

from __future__ import annotations

import argparse
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass

from oska_gui.cli.solve import verdict
from oska_gui.console.options import (
    add_subcommand,
    board_block,
    natural_int,
    parse_board,
    parse_player,
    positive_float,
    positive_int,
)
from oska_gui.console.table import render_table
from oska_gui.core.types import SIDE_NAMES, Position
from oska_gui.engine.evaluators import EVALUATORS, oska_evaluator
from oska_gui.engine.search import (
    Progress,
    Thinker,
    deepening_step,
    is_game_end,
    plies_to_end,
)
from oska_gui.engine.solved_file import solved_children
from oska_gui.engine.solver import Solution, TooBig, solver_for
from oska_gui.games.oska import OskaRules

DEFAULT_DEPTH = 8
DEFAULT_SOLVE_LIMIT = 200_000
MAX_DEPTH = 64
SLICE_SECONDS = 0.5
EXAMPLES = """\
examples:
  oska analyze wwww,---,--,---,bbbb w
  oska analyze '["w---", "-b-", "--", "---", "bb--"]' b --depth 12
  oska analyze ww---,----,---,--,---,----,bbbbb white --time 2 --solve-limit 0
  oska analyze wwww,---,--,---,bbbb w --solve-limit 1000000   (solves the n = 4 start)
  oska analyze .ww.,.b.,..,...,.... b        ('.' for empty: a first '-' looks like an option)
  oska analyze --depth 3 -- -ww-,-b-,--,---,---- b                   (or put it after --)
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``analyze`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "analyze", "best move, score and line of a position",
        "Search a position: the best move, its score and the principal variation "
        "at a given depth or for a given time; where the exact solver covers the "
        "position, or the board's solved game was kept ('oska solve --n 5 --save'), "
        "also the result with perfect play and the plies to the end.",
        EXAMPLES)
    parser.add_argument("board", metavar="BOARD",
                        help="rows separated by commas (wwww,---,--,---,bbbb; '.' also "
                             "means empty) or a JSON list of rows")
    parser.add_argument("player", metavar="PLAYER", help="the side to move: w or b")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--depth", type=positive_int, help=f"search depth (default {DEFAULT_DEPTH})")
    how.add_argument("--time", type=positive_float, metavar="SECONDS",
                     help="search by iterative deepening for about SECONDS instead")
    parser.add_argument("--evaluator", choices=sorted(EVALUATORS), default="strong",
                        help="static evaluator (default strong)")
    parser.add_argument("--solve-limit", type=natural_int, default=DEFAULT_SOLVE_LIMIT,
                        metavar="POSITIONS",
                        help="solve exactly when at most this many positions are reachable "
                             f"(default {DEFAULT_SOLVE_LIMIT:,}; 0: never; a kept solved "
                             "game is read in any case)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Analyse the position given in ``args`` and print the findings; return 0."""
    rules, rows = parse_board(args.board)
    player = parse_player(args.player)
    pos = rules.from_rows(rows, "wb".index(player))
    side = SIDE_NAMES[pos.turn]
    print(f"Position: n = {rules.n}, {side} to move")
    print(textwrap.indent(board_block(rules, pos), "    "))
    outcome = rules.outcome(pos)
    if outcome is not None:
        print(f"The game is over: {outcome.describe()}")
        return 0
    if not rules.has_move(pos):
        print(f"{side} has no legal move and must pass.")
    exact = exact_ranking(rules, pos, args.solve_limit)
    if exact is not None:
        print_exact(rules, pos, exact)
    search, note = run_search(rules, pos, args)
    print(f"\n{note}")
    if exact is None:
        print_choice(rules, pos, search, "")
        print_unsolved(args.solve_limit)
    else:
        print_choice(rules, pos, search, "Search's ")
    return 0


@dataclass(frozen=True)
class ExactRanking:
    """The moves of a position ranked by exact value, and where the values come from.

    Attributes:
        ranked: (child, Solution for the mover) pairs, best first.
        source: where the values come from, in words ('read from the solved file PATH').
        following: ranks the moves of a later position from the same source (None where
            it does not know them).
        seconds: how long the ranking took.
    """

    ranked: list[tuple[Position, Solution]]
    source: str
    following: Callable[[Position], list[tuple[Position, Solution]] | None]
    seconds: float


def exact_ranking(rules: OskaRules, pos: Position, limit: int) -> ExactRanking | None:
    """Return the moves of ``pos`` ranked by exact value, or None where none is known.

    A whole solved game of the board first, then the solver within ``limit`` positions
    (0: never); None as well when the side to move must pass and nothing knows it.

    Args:
        rules: the board's rules.
        pos: the position, not finished.
        limit: the most positions the solver may take on.

    Returns:
        The ranking with its source, or None.
    """
    start = time.perf_counter()
    found = solved_children(rules.n, pos)
    if found is not None:
        def from_file(later: Position) -> list[tuple[Position, Solution]] | None:
            """Rank ``later``'s moves from the solved files."""
            again = solved_children(rules.n, later)
            return again[0] if again is not None else None
        return ExactRanking(found[0], f"read from the solved file {found[1].path}", from_file,
                            time.perf_counter() - start)
    if not limit:
        return None
    solver = solver_for(rules)
    try:
        ranked = solver.ranked_children(pos, limit)
    except TooBig:
        return None

    def from_solver(later: Position) -> list[tuple[Position, Solution]] | None:
        """Rank ``later``'s moves from the table just solved (it holds every later one)."""
        return solver.ranked_children(later, limit)
    return ExactRanking(ranked, "solved by the exact solver", from_solver,
                        time.perf_counter() - start)


def perfect_line(rules: OskaRules, pos: Position, exact: ExactRanking) -> list[Position]:
    """Return the positions of perfect play from ``pos`` to the end of the game (or as far
    as the source knows), ``pos`` first."""
    line = [pos, exact.ranked[0][0]]
    while rules.outcome(line[-1]) is None:
        ranked = exact.following(line[-1])
        if not ranked:
            break
        line.append(ranked[0][0])
    return line


def print_exact(rules: OskaRules, pos: Position, exact: ExactRanking) -> None:
    """Print the exact result, the perfect move, line and position after it, and every
    move's perfect-play value."""
    side = SIDE_NAMES[pos.turn]
    best, value = exact.ranked[0]
    how = "fastest win" if value.result > 0 else "slowest loss" if value.result < 0 else \
        "draw"
    print(f"\nExact: {verdict(value, pos.turn)} with perfect play "
          f"({exact.source} in {exact.seconds:.2f} s)")
    print(f"Best move: {rules.move_text(rules.move_between(pos, best))} "
          f"(exact: the {how})")
    print(f"Score:     {solution_text(value, side)} (exact)")
    print(f"Line:      {line_text(rules, perfect_line(rules, pos, exact))} (perfect play)")
    print(f"After it:  {rules.to_rows(best)}")
    rows = [[rules.move_text(rules.move_between(pos, kid)), solution_text(kid_value, side)]
            for kid, kid_value in exact.ranked]
    print(render_table(["move", "perfect play from here"], rows))


def run_search(rules: OskaRules, pos: Position,
               args: argparse.Namespace) -> tuple[Progress, str]:
    """Run the alpha-beta search that ``args`` asks for.

    Returns:
        Its final progress, and a line saying what it was (depth, evaluator, nodes, time).
    """
    depth = MAX_DEPTH if args.time else args.depth or DEFAULT_DEPTH
    start = time.perf_counter()
    thinker = Thinker(rules, oska_evaluator(rules, args.evaluator), pos, depth, args.time,
                      step=deepening_step(args.time))
    while not thinker.advance(SLICE_SECONDS):
        pass
    seconds = time.perf_counter() - start
    progress = thinker.progress
    return progress, (f"Search: depth {progress.depth}, {args.evaluator} evaluator, "
                      f"{thinker.search.nodes:,} nodes, {seconds:.3f} s")


def print_choice(rules: OskaRules, pos: Position, progress: Progress,
                 label: str) -> None:
    """Print the search's move, score, line and the position after its move.

    Args:
        rules: the board's rules.
        pos: the position searched.
        progress: the search's final progress.
        label: put before each field's name: '' when the search's answer is the answer,
            "Search's " when exact values gave it and this is the search's own view.
    """
    width = len(label) + len("After it:  ")
    fields = (("Best move", rules.move_text(rules.move_between(pos, progress.best))),
              ("Score", score_text(progress.score, SIDE_NAMES[pos.turn], progress.depth)),
              ("Line", line_text(rules, [pos, *progress.line])),
              ("After it", str(rules.to_rows(progress.best))))
    for name, text in fields:
        print(f"{label}{name}:".ljust(width) + text)


def score_text(score: int, side: str, depth: int) -> str:
    """Return a search score in words for ``side`` (the side to move), saying it is the
    search's at ``depth``."""
    if is_game_end(score):
        verdict = "wins" if score > 0 else "loses"
        return f"{side} {verdict} in {plies_to_end(score)} plies (found by the search, " \
               f"depth {depth})"
    return f"{score:+d} for {side} (evaluation at depth {depth}, positive is good for {side})"


def line_text(rules: OskaRules, line: list[Position]) -> str:
    """Return the moves between consecutive positions of ``line`` in notation."""
    return " ".join(rules.move_text(rules.move_between(a, b))
                    for a, b in zip(line, line[1:], strict=False))


def print_unsolved(limit: int) -> None:
    """Say that no exact value is known, and why, unless solving was turned off."""
    if limit:
        print(f"\nExact: not solved, more than {limit:,} positions are reachable "
              "(raise --solve-limit to try harder)")


def solution_text(solution: Solution, side: str) -> str:
    """Return a Solution for ``side`` in words, e.g. 'White wins in 21 plies'."""
    verdict = {1: "wins", 0: "draws", -1: "loses"}[solution.result]
    return f"{side} {verdict} in {solution.plies} plies"
