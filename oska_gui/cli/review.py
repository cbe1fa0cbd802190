"""``oska review RECORD``: every move of a recorded game marked, the better moves, a summary.

The analysis is ``play.review`` (the rules and thresholds are in its modules and
docs/review.md); this command runs it to the end, prints the moves with
their marks (?!, ?, ??) and the better move after each bad one, then each side's
accuracy and counts, and with ``--html`` writes the page of ``console.review_page``.
``--last`` reviews the last game the window kept (``oska games``' newest) instead of a
record file.
"""

from __future__ import annotations

import argparse

from oska_gui.console.options import (
    CliError,
    add_subcommand,
    positive_float,
    positive_int,
    reason,
)
from oska_gui.console.outputs import check_apart, writable_file
from oska_gui.console.progress import ProgressBar
from oska_gui.console.review_page import heading, write_page
from oska_gui.console.table import plain, render_table
from oska_gui.core.types import SIDE_NAMES, WHITE
from oska_gui.play.kept_games import history_path, read_file
from oska_gui.play.records import Record, RecordError, load
from oska_gui.play.review.budget import DEFAULT_NODES, Budget
from oska_gui.play.review.job import ReviewJob, exact_source
from oska_gui.play.review.marks import Mark
from oska_gui.play.review.result import Review, SideSummary

from .games import print_notes

SLICE_SECONDS = 0.1
EXAMPLES = f"""\
examples:
  oska review game.json                      ({DEFAULT_NODES:,} nodes a position)
  oska review game.json --nodes 200000 --html review.html
  oska review game.json --depth 6            (to depth 6, however long it takes)
  oska review game.json --time 1             (1 s a position: not reproducible)
  oska review game.json --no-exact           (search everywhere, even where solved)
  oska review --last                         (the last game played in the window)
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``review`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "review", "mark every move of a recorded game, with the better moves",
        "Analyse every position of a game record (any game, any board size): the win "
        "chance of the side to move, the best move, and a mark for the move played "
        "(best, good, inaccuracy ?!, mistake ?, blunder ??), exact where the solver "
        "covers the position; then each side's accuracy and counts.", EXAMPLES)
    parser.add_argument("record", metavar="RECORD", nargs="?",
                        help="a game record (JSON) to review")
    parser.add_argument("--last", action="store_true",
                        help="review the last game played in the window (the newest of "
                             "'oska games') instead of a RECORD")
    parser.add_argument("--nodes", type=positive_int, metavar="N",
                        help=f"the most nodes a position's search visits (default "
                             f"{DEFAULT_NODES:,} when no --depth or --time is given): the "
                             "same review on any machine")
    parser.add_argument("--depth", type=positive_int, help="the deepest search a position")
    parser.add_argument("--time", type=positive_float, metavar="SECONDS",
                        help="the most wall-clock seconds a position; the review then "
                             "depends on the machine's speed and load (not reproducible)")
    parser.add_argument("--exact", action=argparse.BooleanOptionalAction, default=True,
                        help="use exact values where the solver covers a position "
                             "(default yes)")
    parser.add_argument("--html", metavar="FILE",
                        help="also write one self-contained page to step through the "
                             "game: a board with the marks and better moves, the graph and "
                             "the moves")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: only on a terminal)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Review the record ``args`` names, print the review (and write the page); return 0."""
    if (args.record is None) == (not args.last):
        raise CliError("give a game record to review, or --last (not both)")
    source = str(history_path()) if args.last else args.record
    page = None
    if args.html:
        page = writable_file(args.html, "--html")
        what = "the window's game history" if args.last else "the game record"
        check_apart({"--html": page}, {source: f"{what} {source!r:.200}"})
    record = last_record() if args.last else read_record(args.record)
    budget = Budget.chosen(args.nodes, args.depth, args.time)
    job = ReviewJob(record, budget, args.exact)
    with ProgressBar(len(job.review.positions), "reviewing", args.progress) as bar:
        while not job.advance(SLICE_SECONDS):
            bar.advance(len(job.review.assessments) - bar.done, solving_note(job))
    review = job.review
    lines = heading(record, budget, exact_source(record, args.exact))
    print("\n".join(lines), end="\n\n")
    print(moves_table(review))
    print()
    for side in (WHITE, 1 - WHITE):
        print(summary_line(record, review.summary(side)))
    if page is not None:
        write_page(page, review, lines)
        print(f"\nReview page written to {plain(str(page))}")
    return 0


def solving_note(job: ReviewJob) -> str:
    """Return the progress bar's note while the exact solver works, which can take
    seconds before a position is assessed ('solving: 2,560 positions', short enough
    for the bar's line), else ''."""
    return "" if job.solving is None else f"solving: {job.solver.building:,} positions"


def last_record() -> Record:
    """Return the record of the last game the window kept; raises CliError when it
    kept none (damaged entries are skipped with a note on stderr)."""
    listing = read_file(history_path())
    print_notes(listing, "review")
    if not listing.games:
        raise CliError(f"no game kept by the window yet (in {history_path()})")
    return listing.games[-1].record


def read_record(path: str) -> Record:
    """Return the record in file ``path``; raises CliError saying why it does not load."""
    try:
        return load(path)
    except RecordError as error:
        raise CliError(f"{path}: {error}") from None
    except (OSError, ValueError) as error:  # ValueError: a NUL character in the path
        raise CliError(f"cannot read {path!r:.200}: {reason(error)}") from None


def moves_table(review: Review) -> str:
    """Return the moves as a table: mark, White's win chance before and after (each
    position's own value, so one row's after is the next row's before), the points the
    mover lost and the better move."""
    rows = []
    for ply in review.plies:
        before, after = review.white_around(ply)
        rows.append([ply.ply, SIDE_NAMES[ply.side], ply.annotated, ply.mark_word,
                     f"{100 * before:.0f}", "" if after is None else f"{100 * after:.0f}",
                     f"{ply.drop:.1f}", ply.better, "exact" if ply.exact else "search"])
    return render_table(["ply", "side", "move", "mark", "White % before", "after", "lost",
                         "better move", "by"], rows)


def summary_line(record: Record, summary: SideSummary) -> str:
    """Return one side's accuracy and the number of each mark, e.g. 'White (A): ...'."""
    name = record.white if summary.side == WHITE else record.black
    counts = ", ".join(f"{summary.counts[mark]} {mark.value}" for mark in Mark)
    return plain(f"{SIDE_NAMES[summary.side]} ({name}): accuracy {summary.accuracy_text()}; "
                 f"{counts}")
