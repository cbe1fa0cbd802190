"""``oska solve --n N``: solve a whole game exactly with the tablebase; optionally a dataset,
and with ``--save`` keep the solved game in the user's data folder (``solved_file``) for
the Perfect level, the hints, reviews and ``oska analyze``.

Needs the optional numpy + numba extra; without it the command says how to install it.
The tablebase modules are imported only when the command runs, so that the rest of
the ``oska`` command never loads numpy or numba.
"""

from __future__ import annotations

import argparse
import gc
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from oska_gui.console.options import (
    CliError,
    add_subcommand,
    board_size,
    natural_int,
    positive_int,
    reason,
)
from oska_gui.console.outputs import writable_file
from oska_gui.console.signals import handling
from oska_gui.core.types import SIDE_NAMES
from oska_gui.engine import solved_file
from oska_gui.engine.solver import Solution

if TYPE_CHECKING:  # only for the annotations: the command imports numpy when it runs
    from oska_gui.engine.tablebase import Tablebase

DEFAULT_SAMPLES = 100_000
EXAMPLES = """\
examples:
  oska solve --n 4
  oska solve --n 5 --dataset data/n5_exact.npz --samples 200000 --seed 1
  oska solve --n 4 --dataset n4_uniform.npz --samples 5000 --uniform
  oska solve --n 5 --save      (keeps the solved game for the Perfect level and analyze)

The table holds one byte per possible position: about 4.5 MB for n = 4 and
5 GB for n = 5 (only the pages the search reaches are ever written). A size whose
table does not fit the memory this process may use is refused at once, with the
memory it would need.
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``solve`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "solve", "solve a whole game exactly (needs numpy and numba)",
        "Solve every position reachable from the start of Oska of size N with perfect "
        "play (the winner wins fastest, the loser loses slowest, a pass is a ply) and "
        "print the start's value, time and memory; optionally write a dataset of "
        "solved positions with the exact value of every move. Needs the optional "
        "numpy + numba extra: pip install '.[solve]'.",
        EXAMPLES)
    parser.add_argument("--n", type=board_size, required=True, help="board size (4 or 5)")
    parser.add_argument("--dataset", type=Path, metavar="FILE",
                        help="write a dataset of solved positions to FILE (.npz)")
    parser.add_argument("--save", action="store_true",
                        help="keep the solved game in the user's data folder "
                             f"({solved_file.solved_path(5).parent}), where the Perfect "
                             "level, the hints and 'oska analyze' read it")
    parser.add_argument("--samples", type=positive_int, default=DEFAULT_SAMPLES, metavar="K",
                        help=f"positions in the dataset (default {DEFAULT_SAMPLES:,})")
    parser.add_argument("--seed", type=natural_int, default=0, metavar="S",
                        help="seed of the dataset's sampling (default 0)")
    parser.add_argument("--uniform", action="store_true",
                        help="sample the dataset uniformly from all solved positions "
                             "instead of along games")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show the positions solved so far on stderr "
                             "(default: only on a terminal)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Solve the game that ``args`` names, print the figures, write the dataset; return 0."""
    try:
        from oska_gui.engine import exact_dataset, tablebase
    except ImportError as error:
        raise CliError(f"the solver needs numpy and numba ({error}): "
                       "pip install '.[solve]'") from None
    dataset = None
    if args.dataset is not None:
        dataset = writable_file(str(exact_dataset.dataset_path(args.dataset)), "--dataset",
                                folders=True)
    show = sys.stderr.isatty() if args.progress is None else args.progress
    tb = solved_table(args.n, progress_line() if show else None)
    if show:
        print(file=sys.stderr)  # end the progress line
    value = tb.start_solution
    print(f"Oska n = {args.n}: {verdict(value, tb.root.turn)} with perfect play")
    print(f"Plies to the end: {value.plies}")
    print(f"Positions solved: {tb.positions:,}")
    print(f"Time:             {tb.seconds:.1f} s (and {tb.compile_seconds:.1f} s compiling)")
    print(f"Peak memory:      {tablebase.peak_memory_bytes() / 2**20:,.0f} MiB")
    if args.save:
        save(tb)
    if dataset is not None:
        start = time.perf_counter()
        try:
            written = exact_dataset.write_dataset(tb, dataset, args.samples, args.seed,
                                                  uniform=args.uniform)
        except OSError as error:  # a full disk: the old dataset, if any, is left whole
            raise CliError(f"--dataset {str(dataset)!r:.200}: cannot write it "
                           f"({reason(error)})") from None
        print(f"Dataset:          {written:,} positions written to {dataset} "
              f"in {time.perf_counter() - start:.1f} s")
    return 0


def save(tb: Tablebase) -> None:
    """Keep ``tb`` in the user's data folder; print where, how big, how long.

    Raises CliError when the file cannot be written.
    """
    from oska_gui.engine import solved_export  # numpy, loaded by ``run`` already

    path = solved_file.solved_path(tb.rules.n)
    start = time.perf_counter()
    try:
        header = solved_export.save_solved(tb, path)
    except (OSError, solved_file.SolvedFileError) as error:
        raise CliError(f"cannot save the solved game to {path}: {error}") from None
    print(f"Saved:            {header.stored:,} positions ({SIDE_NAMES[header.turn]} to move) "
          f"in {path.stat().st_size / 2**20:,.0f} MiB to {path} "
          f"in {time.perf_counter() - start:.1f} s")


def solved_table(n: int, progress: Callable[[int], None] | None) -> Tablebase:
    """Return the solved tablebase of size ``n`` (see ``tablebase.solve_table``).

    Meanwhile SIGTERM keeps its default action and ends the process at once: the solve
    holds nothing to clean up, and a Python handler would act late or not at all (it
    runs only between two slices of compiled code, its exception is lost when it lands
    in one of numba's callbacks, and leaving Python with numba loaded took over 1 s).

    Raises CliError, saying how much memory the table needs, when it is refused before
    the solve or the memory runs out during it.
    """
    from oska_gui.engine import tablebase  # numpy and numba, loaded by ``run`` already

    try:
        with handling(signal.SIGTERM, signal.SIG_DFL):
            return tablebase.solve_table(n, progress=progress)
    except tablebase.TableTooBig as error:
        raise CliError(str(error)) from None
    except (MemoryError, OSError) as error:
        if not tablebase.out_of_memory(error):
            raise
        raise CliError(f"out of memory while solving n = {n}: the table alone needs "
                       f"{tablebase.size_text(tablebase.table_bytes(n))}") from None
    finally:
        # Compiling leaves many objects that numba keeps to the end; Python's exit then
        # spent 1-1.5 s collecting them (also after Ctrl+C). Frozen, they are skipped.
        gc.freeze()


def verdict(value: Solution, turn: int) -> str:
    """Return a Solution for the side ``turn`` to move as the game's verdict.

    E.g. 'Black wins in 37 plies' for Solution(-1, 37) with White to move.
    """
    if value.result == 0:
        return f"a draw in {value.plies} plies"
    winner = turn if value.result > 0 else 1 - turn
    return f"{SIDE_NAMES[winner]} wins in {value.plies} plies"


def progress_line() -> Callable[[int], None]:
    """Return a progress callback that redraws 'solving: N positions, m:ss' on stderr."""
    start = time.monotonic()

    def show(positions: int) -> None:
        """Redraw the line for ``positions`` solved so far."""
        elapsed = int(time.monotonic() - start)
        sys.stderr.write(f"\rsolving: {positions:,} positions, {elapsed // 60}:{elapsed % 60:02d}")
        sys.stderr.flush()

    return show
