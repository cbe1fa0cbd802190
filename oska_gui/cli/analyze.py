"""``oska analyze BOARD PLAYER``: best move, score and line; the exact result if solvable.

The exact result comes from the board's solved game when ``oska solve --save`` kept it
(every position of a game of that size, at once), else from the solver within
``--solve-limit``.
"""

from __future__ import annotations

import argparse
import textwrap
import time

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
from oska_gui.engine.search import Thinker, deepening_step, is_game_end, plies_to_end
from oska_gui.engine.solved_file import saved_solution
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
    print_search(rules, pos, args)
    print_exact(rules, pos, args.solve_limit)
    return 0


def print_search(rules: OskaRules, pos: Position, args: argparse.Namespace) -> None:
    """Run the alpha-beta search that ``args`` asks for and print its best line."""
    depth = MAX_DEPTH if args.time else args.depth or DEFAULT_DEPTH
    start = time.perf_counter()
    thinker = Thinker(rules, oska_evaluator(rules, args.evaluator), pos, depth, args.time,
                      step=deepening_step(args.time))
    while not thinker.advance(SLICE_SECONDS):
        pass
    seconds = time.perf_counter() - start
    progress = thinker.progress
    print(f"\nSearch: depth {progress.depth}, {args.evaluator} evaluator, "
          f"{thinker.search.nodes:,} nodes, {seconds:.3f} s")
    print(f"Best move: {rules.move_text(rules.move_between(pos, progress.best))}")
    print(f"Score:     {score_text(progress.score, SIDE_NAMES[pos.turn])}")
    print(f"Line:      {line_text(rules, [pos, *progress.line])}")
    print(f"After it:  {rules.to_rows(progress.best)}")


def score_text(score: int, side: str) -> str:
    """Return a search score in words for ``side`` (the side to move)."""
    if is_game_end(score):
        verdict = "wins" if score > 0 else "loses"
        return f"{side} {verdict} in {plies_to_end(score)} plies (found by the search)"
    return f"{score:+d} for {side} (evaluation, positive is good for {side})"


def line_text(rules: OskaRules, line: list[Position]) -> str:
    """Return the moves between consecutive positions of ``line`` in notation."""
    return " ".join(rules.move_text(rules.move_between(a, b))
                    for a, b in zip(line, line[1:], strict=False))


def print_exact(rules: OskaRules, pos: Position, limit: int) -> None:
    """Print the exact result and every move's perfect-play value, from the kept solved
    game if it knows the position, else if the solver can within ``limit`` positions
    (0: do not solve)."""
    start = time.perf_counter()
    saved = saved_solution(rules.n)
    ranked = saved.ranked_children(pos) if saved is not None else None
    source = "read from the saved solved game"
    if ranked is None:
        if not limit:
            return
        try:
            ranked = solver_for(rules).ranked_children(pos, limit)
        except TooBig:
            print(f"\nExact: not solved, more than {limit:,} positions are reachable "
                  "(raise --solve-limit to try harder)")
            return
        source = "solved"
    side = SIDE_NAMES[pos.turn]
    print(f"\nExact: {verdict(ranked[0][1], pos.turn)} with perfect play "
          f"({source} in {time.perf_counter() - start:.2f} s)")
    rows = [[rules.move_text(rules.move_between(pos, kid)), solution_text(value, side)]
            for kid, value in ranked]
    print(render_table(["move", "perfect play from here"], rows))


def solution_text(solution: Solution, side: str) -> str:
    """Return a Solution for ``side`` in words, e.g. 'White wins in 21 plies'."""
    verdict = {1: "wins", 0: "draws", -1: "loses"}[solution.result]
    return f"{side} {verdict} in {solution.plies} plies"
