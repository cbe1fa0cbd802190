"""Speed benchmarks of the Oska engine: ``python -m tools.bench [--n N ...] [--quick]``.

For each board size it prints tables, from the start position and from a fixed set of
midgame positions kept in ``bench_positions.json`` (made once by a seeded script:
``python -m tools.bench --write-positions``):

1. move generation calls per second on the spec's string boards (``movegen``);
2. search speed: nodes per second, evaluator calls and the share of time spent in the
   evaluator, and the cost of the generator-based search against the same algorithm
   run as plain recursion;
3. ``oskaplayer`` time and search nodes at depths 1 to 10;
4. nodes visited by alpha-beta and by plain minimax at the same depth, and the time of
   plain minimax over that of ``oskaplayer``;
5. the depth ``Thinker`` completes within one second;
6. the first call in a fresh process: ``import oska_gui``, then
   ``oskaplayer(start, 'w', 1)`` on n = 4..8, each in a new Python process, as the spec's
   graders call it (the rules, the evaluator's tables and its weights file are built or
   read then). ``--first-call`` prints this table alone.

Times are medians of several runs; measurements are capped so that the whole run stays
within a few minutes (``--quick``: well under one).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import random
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from oska_gui.core.types import BLACK, SIDE_LETTERS, WHITE, Evaluator, Position
from oska_gui.engine import search
from oska_gui.engine.evaluators import DEFAULT_EVALUATOR, oska_evaluator
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.spec.oska import movegen, oskaplayer

POSITIONS_FILE = Path(__file__).with_name("bench_positions.json")
SIZES = (4, 5, 6, 8)
MIDGAMES_PER_SIZE = 5
POSITIONS_SEED = 2024
MAX_OSKAPLAYER_DEPTH = 10
THINK_SECONDS = 1.0
FIRST_CALL_SIZES = (4, 5, 6, 7, 8)
# run in a fresh process with the board size and the start board's rows (comma-separated):
# prints the wall and CPU seconds of ``import oska_gui``, then those of the first call
FIRST_CALL = """
import sys, time
wall, cpu = time.perf_counter(), time.process_time()
import oska_gui
imported = time.perf_counter() - wall, time.process_time() - cpu
board = sys.argv[2].split(",")
wall, cpu = time.perf_counter(), time.process_time()
oska_gui.oskaplayer(board, "w", 1)
print(*imported, time.perf_counter() - wall, time.process_time() - cpu)
"""


@dataclass(frozen=True)
class Budget:
    """How long measurements may take, in seconds."""

    repeat_for: float  # keep repeating a measurement for about this long
    runs: int  # the number of runs a median is taken over
    depth_cap: float  # stop deepening once one search takes longer than this
    minimax_cap: float  # plain minimax searches no deeper than expected to fit this
    think_runs: int  # the number of one-second Thinker runs per position
    midgames: int  # how many of the stored midgame positions to use
    search_seconds: float  # the longest search measured for nodes per second
    fresh_runs: int = 3  # fresh processes per board size for the first call


FULL = Budget(repeat_for=0.02, runs=3, depth_cap=0.15, minimax_cap=2.0, think_runs=3,
              midgames=MIDGAMES_PER_SIZE, search_seconds=0.1, fresh_runs=15)
QUICK = Budget(repeat_for=0.01, runs=3, depth_cap=0.05, minimax_cap=0.3, think_runs=1,
               midgames=2, search_seconds=0.05, fresh_runs=5)


# -- positions ---------------------------------------------------------------------


def random_midgame(rules: OskaRules, rng: random.Random) -> Position:
    """Return a position after a random number of random plies from the start.

    The game is still on in it and the side to move has at least three moves.
    """
    while True:
        pos = rules.start()
        for _ in range(rng.randint(rules.n, 3 * rules.n)):
            kids = rules.children(pos)
            if not kids or rules.terminal(pos) is not None:
                break
            pos = rng.choice(kids)
        if rules.terminal(pos) is None and len(rules.real_children(pos)) >= 3:
            return pos


def write_positions(path: Path = POSITIONS_FILE, seed: int = POSITIONS_SEED) -> None:
    """Generate the midgame set (seeded, ``MIDGAMES_PER_SIZE`` per size) into ``path``."""
    data = {}
    for n in SIZES:
        rules, rng = oska_rules(n), random.Random(seed * 100 + n)
        data[str(n)] = [
            {"rows": rules.to_rows(pos), "turn": SIDE_LETTERS[pos.turn]}
            for pos in (random_midgame(rules, rng) for _ in range(MIDGAMES_PER_SIZE))
        ]
    sizes = (f'"{n}": [\n' + ",\n".join(f"  {json.dumps(item)}" for item in items) + "]"
             for n, items in data.items())
    path.write_text("{" + ",\n ".join(sizes) + "}\n")  # one line per position


def midgames(n: int, path: Path = POSITIONS_FILE) -> list[Position]:
    """Return the stored midgame positions of size ``n`` ([] if there are none)."""
    rules = oska_rules(n)
    stored = json.loads(path.read_text()).get(str(n), [])
    return [rules.from_rows(item["rows"], SIDE_LETTERS.index(item["turn"])) for item in stored]


# -- measuring ---------------------------------------------------------------------


def cpu_time(action: Callable[[], Any], repeat_for: float) -> float:
    """Return the CPU seconds of one call of ``action``, averaged over calls.

    ``action`` is repeated for about ``repeat_for`` CPU seconds (at least once). CPU
    time of this process, not wall time: other work on the shared machine then
    disturbs the figures far less.
    """
    calls, start = 0, time.process_time()
    while True:
        action()
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= repeat_for:
            return elapsed / calls


def median_times(actions: list[Callable[[], Any]], budget: Budget) -> list[float]:
    """Return each action's median ``cpu_time`` over ``budget.runs`` runs.

    The actions take turns run after run, so that a change of the machine's state hits
    them alike.
    """
    runs = [[cpu_time(action, budget.repeat_for) for action in actions]
            for _ in range(budget.runs)]
    return [statistics.median(column) for column in zip(*runs, strict=True)]


def median_time(action: Callable[[], Any], budget: Budget) -> float:
    """Return the median ``cpu_time`` of ``action`` over ``budget.runs`` runs."""
    return median_times([action], budget)[0]


def search_once(rules: OskaRules, root: Position, depth: int,
                evaluate: Evaluator | None = None) -> search.AlphaBeta:
    """Run iterative deepening to ``depth`` from ``root`` as ``oskaplayer`` does (two
    plies at a time: ``search.ANALYSE_STEP``); return the spent searcher."""
    searcher = search.AlphaBeta(rules, evaluate or oska_evaluator(rules, DEFAULT_EVALUATOR))
    search.run(searcher.deepen(root, depth, search.Progress(), search.ANALYSE_STEP))
    return searcher


def recursive_alpha_beta() -> type:
    """Return ``search.AlphaBeta`` rebuilt as plain recursion, to price the generators.

    The class's source is compiled again with every ``yield from call`` replaced by the
    call and every bare ``yield`` (a pause) removed: the same algorithm, visiting the
    same nodes, without generator objects.
    """

    class Unyield(ast.NodeTransformer):
        """Turns ``yield from x`` into ``x`` and drops pause statements."""

        def visit_YieldFrom(self, node: ast.YieldFrom) -> ast.AST:
            """Return the delegated call itself."""
            return self.visit(node.value)

        def visit_Expr(self, node: ast.Expr) -> ast.AST:
            """Return a ``pass`` for a bare ``yield`` statement, else the statement."""
            if isinstance(node.value, ast.Yield):
                return ast.Pass()
            return self.generic_visit(node)

    tree = Unyield().visit(ast.parse(textwrap.dedent(inspect.getsource(search.AlphaBeta))))
    namespace = dict(vars(search))
    exec(compile(ast.fix_missing_locations(tree), "<recursive AlphaBeta>", "exec"), namespace)
    return namespace["AlphaBeta"]


class MinimaxCounter:
    """Plain minimax without pruning or table, counting the nodes it visits."""

    def __init__(self, rules: OskaRules, evaluate: Evaluator) -> None:
        """Prepare to search ``rules``' game with ``evaluate`` at the horizon."""
        self.rules, self.evaluate, self.nodes = rules, evaluate, 0

    def value(self, pos: Position, depth: int, ply: int = 0) -> int:
        """Return the minimax score of ``pos`` searched ``depth`` plies deep."""
        self.nodes += 1
        result = self.rules.terminal(pos)
        if result is not None:
            return result * (search.WIN - ply)
        if depth == 0:
            return self.evaluate(pos)
        kids = self.rules.children(pos)
        if not kids:
            return self.rules.stuck_result * (search.WIN - ply)
        return max(-self.value(kid, depth - 1, ply + 1) for kid in kids)


# -- tables ------------------------------------------------------------------------


def print_table(title: str, header: Iterable[str], rows: Iterable[Iterable[Any]]) -> None:
    """Print a titled table with right-aligned columns."""
    lines = [[str(cell) for cell in header]] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    print(f"\n{title}")
    for i, line in enumerate(lines):
        print("  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)))
        if i == 0:
            print("  ".join("-" * width for width in widths))


def labelled(n: int, budget: Budget) -> list[tuple[str, Position]]:
    """Return the positions benchmarked for size ``n``: the start and the midgames."""
    rules = oska_rules(n)
    return [("start", rules.start())] + [
        (f"mid{i + 1}", pos) for i, pos in enumerate(midgames(n)[:budget.midgames])
    ]


def movegen_table(n: int, budget: Budget) -> dict[str, str]:
    """Print ``movegen`` calls per second on string boards, per position and side.

    Returns the median rate for the summary.
    """
    rules, rows, rates = oska_rules(n), [], []
    for label, pos in labelled(n, budget):
        board = rules.to_rows(pos)
        for side in (WHITE, BLACK):
            player = SIDE_LETTERS[side]
            seconds = median_time(partial(movegen, board, player), budget)
            kids = len(movegen(board, player))
            rates.append(1 / seconds)
            rows.append((label, player, kids, f"{rates[-1]:,.0f}"))
    print_table(f"n = {n}: movegen on string boards", ("position", "side", "boards", "calls/s"),
                rows)
    return {"movegen/s": f"{statistics.median(rates):,.0f}"}


def deepest_within(n: int, pos: Position, seconds: float) -> int:
    """Return the deepest depth ``search_once`` completes from ``pos`` within ``seconds``."""
    rules, depth = oska_rules(n), 1
    while depth < 64:
        start = time.process_time()
        searcher = search_once(rules, pos, depth + 1)
        if time.process_time() - start > seconds or searcher.table[pos][0] < depth + 1:
            break
        depth += 1
    return depth


def recording(evaluate: Evaluator, seen: list[Position]) -> Evaluator:
    """Return ``evaluate`` that also appends every position it scores to ``seen``."""

    def record(pos: Position) -> int:
        """Note ``pos`` and return its score."""
        seen.append(pos)
        return evaluate(pos)

    return record


def fresh_search(searcher: type, rules: OskaRules, evaluate: Evaluator,
                 pos: Position, depth: int) -> None:
    """Search ``pos`` to ``depth`` with a new ``searcher`` (empty tables), for timing.

    Args:
        searcher: an ``AlphaBeta``-like class (``recursive_alpha_beta()``'s).
        rules: the rules of the game.
        evaluate: the static evaluator.
        pos: the position to search.
        depth: the exact depth.
    """
    searcher(rules, evaluate).deepen(pos, depth, search.Progress(), search.ANALYSE_STEP)


def evaluate_all(evaluate: Evaluator, positions: list[Position]) -> list[int]:
    """Return the scores of ``positions``, to time the evaluator alone.

    Args:
        evaluate: the static evaluator.
        positions: the positions to score.

    Returns:
        Their scores, in order.
    """
    return [evaluate(pos) for pos in positions]


def search_table(n: int, budget: Budget) -> dict[str, str]:
    """Print search nodes/s, evaluator calls and time share, and the generator overhead.

    Each position is searched to the deepest depth that takes at most
    ``search_seconds``. The evaluator's share is the time to evaluate, once more and
    alone, exactly the positions the search evaluated, over the search's time. The
    generator overhead compares the search with ``recursive_alpha_beta``'s. Returns the
    medians over the positions for the summary.
    """
    rules, rows = oska_rules(n), []
    evaluate = oska_evaluator(rules, DEFAULT_EVALUATOR)
    recursive = recursive_alpha_beta()
    rates, shares, overheads = [], [], []
    for label, pos in labelled(n, budget):
        depth = deepest_within(n, pos, budget.search_seconds)
        evaluated: list[Position] = []
        searched = search_once(rules, pos, depth, recording(evaluate, evaluated))
        gen_time, plain_time, eval_time = median_times([
            partial(search_once, rules, pos, depth),
            partial(fresh_search, recursive, rules, evaluate, pos, depth),
            partial(evaluate_all, evaluate, evaluated),
        ], budget)
        rates.append(searched.nodes / gen_time)
        shares.append(eval_time / gen_time)
        overheads.append(gen_time / plain_time - 1)
        rows.append((label, depth, f"{searched.nodes:,}", f"{rates[-1]:,.0f}",
                     f"{len(evaluated):,}", f"{100 * shares[-1]:.0f}%",
                     f"{1000 * gen_time:.1f}", f"{1000 * plain_time:.1f}",
                     f"{100 * overheads[-1]:+.1f}%"))
    print_table(f"n = {n}: alpha-beta search ({DEFAULT_EVALUATOR} evaluator)",
                ("position", "depth", "nodes", "nodes/s", "evals", "in eval", "ms",
                 "recursive ms", "generators"), rows)
    return {"nodes/s": f"{statistics.median(rates):,.0f}",
            "in eval": f"{100 * statistics.median(shares):.0f}%",
            "generators": f"{100 * statistics.median(overheads):+.1f}%"}


def oskaplayer_table(n: int, budget: Budget) -> dict[str, str]:
    """Print ``oskaplayer``'s time (median ms) and search nodes per depth, per position.

    A position's row stops at the first depth whose search took longer than
    ``depth_cap`` seconds. Returns the start position's depth-5 time for the summary.
    """
    rules, times, nodes = oska_rules(n), [], []
    for label, pos in labelled(n, budget):
        board, player = rules.to_rows(pos), SIDE_LETTERS[pos.turn]
        times.append([label])
        nodes.append([label])
        for depth in range(1, MAX_OSKAPLAYER_DEPTH + 1):
            start = time.process_time()
            searcher = search_once(rules, pos, depth)
            if time.process_time() - start > budget.depth_cap:
                break
            seconds = median_time(partial(oskaplayer, board, player, depth),
                                  budget)
            times[-1].append(f"{1000 * seconds:.2f}")
            nodes[-1].append(f"{searcher.nodes:,}")
    header = ["position"] + [f"d{depth}" for depth in range(1, MAX_OSKAPLAYER_DEPTH + 1)]
    for what, rows in (("ms", times), ("search nodes", nodes)):
        print_table(f"n = {n}: oskaplayer {what} per depth ({DEFAULT_EVALUATOR} evaluator)",
                    header, [row + [""] * (len(header) - len(row)) for row in rows])
    return {"start d5 ms": times[0][5] if len(times[0]) > 5 else "> cap"}


def minimax_table(n: int, budget: Budget) -> dict[str, str]:
    """Print nodes and times of alpha-beta and of plain minimax per depth, start and
    first midgame.

    Alpha-beta's count includes its iterative deepening (d - 4, d - 2, d, as in
    ``oskaplayer``); its time is ``oskaplayer``'s (median), against one run of plain
    minimax with the same rules and evaluator. Plain minimax stops before a depth
    expected (from the growth of the last depth) to take longer than ``minimax_cap``
    seconds. Returns the start's node and time ratios at the deepest depth compared,
    for the summary.
    """
    rules, rows = oska_rules(n), []
    evaluate = oska_evaluator(rules, DEFAULT_EVALUATOR)
    summary = {}
    for label, pos in labelled(n, budget)[:2]:
        expected, last_nodes = 0.0, 1
        board, player = rules.to_rows(pos), SIDE_LETTERS[pos.turn]
        for depth in range(1, MAX_OSKAPLAYER_DEPTH + 1):
            if expected > budget.minimax_cap:
                break
            counter, start = MinimaxCounter(rules, evaluate), time.process_time()
            counter.value(pos, depth)
            elapsed = time.process_time() - start
            nodes = search_once(rules, pos, depth).nodes
            player_time = median_time(partial(oskaplayer, board, player, depth), budget)
            rows.append((label, depth, f"{nodes:,}", f"{counter.nodes:,}",
                         f"{counter.nodes / nodes:.1f}", f"{1000 * elapsed:.1f}",
                         f"{1000 * player_time:.2f}", f"{elapsed / player_time:.1f}"))
            expected = elapsed * counter.nodes / last_nodes
            last_nodes = counter.nodes
            if label == "start":
                summary = {"minimax/ab nodes": f"{counter.nodes / nodes:.0f}x at d{depth}",
                           "minimax/oskaplayer time": f"{elapsed / player_time:.0f}x at d{depth}"}
    print_table(f"n = {n}: nodes and time, alpha-beta (with deepening) vs plain minimax",
                ("position", "depth", "alpha-beta nodes", "minimax nodes", "ratio",
                 "minimax ms", "oskaplayer ms", "time ratio"), rows)
    return summary


def think_table(n: int, budget: Budget) -> dict[str, str]:
    """Print the depth ``Thinker`` completes in ``THINK_SECONDS`` of wall time.

    Median, min and max over ``budget.think_runs`` runs, the share of the time this
    process got the CPU (below 100%: the machine was busy with other work) and the
    result when the search proved a win or a loss (and so stopped deepening). Returns
    the start's and the midgames' median depths for the summary.
    """
    rules, rows, medians = oska_rules(n), [], []
    evaluate = oska_evaluator(rules, DEFAULT_EVALUATOR)
    for label, pos in labelled(n, budget):
        depths, shares = [], []
        for _ in range(budget.think_runs):
            cpu_start = time.process_time()
            thinker = search.Thinker(rules, evaluate, pos, time_limit=THINK_SECONDS)
            while not thinker.advance(0.02):
                pass
            depths.append(thinker.progress.depth)
            shares.append((time.process_time() - cpu_start) / thinker.clock.elapsed)
        medians.append(statistics.median(depths))
        rows.append((label, medians[-1], min(depths), max(depths),
                     f"{100 * statistics.median(shares):.0f}%",
                     describe_score(thinker.progress.score)))
    print_table(f"n = {n}: depth completed by Thinker in {THINK_SECONDS:g} s",
                ("position", "median", "min", "max", "cpu", "proven"), rows)
    return {"start depth 1 s": f"{medians[0]:g}",
            "midgame depth 1 s": f"{statistics.median(medians[1:]):g}" if medians[1:] else ""}


def describe_score(score: int) -> str:
    """Return 'win in k' or 'loss in k' (plies) for a game-end score, else ''."""
    if not search.is_game_end(score):
        return ""
    return f"{'win' if score > 0 else 'loss'} in {search.plies_to_end(score)}"


def first_call_times(n: int) -> tuple[float, float, float, float]:
    """Return, from one new Python process, the wall and CPU seconds of ``import oska_gui``
    and then those of ``oskaplayer(start, 'w', 1)`` on board size ``n``."""
    board = ",".join(oska_rules(n).to_rows(oska_rules(n).start()))
    out = subprocess.run([sys.executable, "-c", FIRST_CALL, str(n), board], check=True,
                         capture_output=True, text=True).stdout
    import_wall, import_cpu, call_wall, call_cpu = map(float, out.split())
    return import_wall, import_cpu, call_wall, call_cpu


def first_call_table(sizes: Iterable[int], budget: Budget) -> dict[int, str]:
    """Print the first call's times in fresh processes (``FIRST_CALL``) per board size.

    Medians and minimums (ms) over ``budget.fresh_runs`` processes a size, taken in
    turns across the sizes; CPU time is what the call costs, wall time also holds
    the waits of a busy machine. Returns each size's median CPU ms for the summary.
    """
    sizes = tuple(sizes)
    runs: dict[int, list[tuple[float, float, float, float]]] = {n: [] for n in sizes}
    for _ in range(budget.fresh_runs):
        for n in sizes:
            runs[n].append(first_call_times(n))
    rows, summary = [], {}
    for n, times in runs.items():
        columns = [[1000 * run[k] for run in times] for k in range(4)]
        rows.append((n, *(f"{statistics.median(column):.2f} / {min(column):.2f}"
                          for column in (columns[3], columns[2], columns[1], columns[0]))))
        summary[n] = f"{statistics.median(columns[3]):.2f}"
    print_table(f"first call in a fresh process: oskaplayer(start, 'w', 1), median / min ms "
                f"over {budget.fresh_runs} processes",
                ("n", "call cpu", "call wall", "import oska_gui cpu", "import wall"), rows)
    return summary


TABLES = (movegen_table, search_table, oskaplayer_table, minimax_table, think_table)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark command (see the module docstring) with ``argv``."""
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", choices=SIZES, default=list(SIZES),
                        help="board sizes to benchmark (default: all)")
    parser.add_argument("--quick", action="store_true", help="short measurements")
    parser.add_argument("--write-positions", action="store_true",
                        help=f"regenerate {POSITIONS_FILE.name} (seed {POSITIONS_SEED}) and exit")
    parser.add_argument("--first-call", action="store_true",
                        help="print only the first call in fresh processes, n = 4..8")
    args = parser.parse_args(argv)
    if args.write_positions:
        write_positions()
        return
    budget = QUICK if args.quick else FULL
    if args.first_call:
        first_call_table(FIRST_CALL_SIZES, budget)
        return
    first_calls = first_call_table(args.n, budget)
    summary: dict[int, dict[str, str]] = {}
    for n in args.n:
        summary[n] = {}
        for table in TABLES:
            summary[n].update(table(n, budget))
        summary[n]["first call ms"] = first_calls[n]
    header = list(summary[args.n[0]])
    print_table("Summary (medians; times are CPU time except Thinker's wall-clock second)",
                ["n", *header], [[n, *(figures[key] for key in header)]
                                 for n, figures in summary.items()])


if __name__ == "__main__":
    main()
