"""``oska tournament``: every bot (and AI level) against every other, rated and reported.

This module reads the command line; ``oska_gui.tournament.command`` runs the tournament.
"""

from __future__ import annotations

import argparse
import os

from oska_gui.console.options import (
    add_bot_options,
    add_opening_options,
    add_subcommand,
    board_size,
    positive_float,
    positive_int,
)
from oska_gui.play.bot_loader import SPEC_FORMS
from oska_gui.play.levels import ai_help
from oska_gui.play.review.budget import DEFAULT_NODES
from oska_gui.tournament.formats import FORMATS, ROUND_ROBIN
from oska_gui.tournament.reviews import ALL, CHOICES

MAX_WORKERS = 1024  # each is a process; far more than cores only costs memory
EXAMPLES = """\
examples:
  oska tournament bots/*.py --ai 2 4 --games 4 --db class.sqlite --report class.html
  oska tournament --bots submissions/ --ai 3 --db class.sqlite --report class.html
  oska tournament a.py b.py:play --n 5 --depth 3 --time-limit 2 --db t.sqlite --workers 2
  oska tournament bots/*.py --db t.sqlite --scheduler tcp://10.0.0.5:8786
  oska tournament bots/*.py --ai 1 2 3 --format swiss --rounds 7 --db class.sqlite
  oska tournament bots/*.py --ai 3 --db class.sqlite --report class.html --review losses

Run the same command again with the same --db to continue: finished games are reused.
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``tournament`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "tournament", "rank many bots: every pair plays, Elo ratings, a report",
        "Play every entrant (external oskaplayer files, and this project's AI at the "
        "levels given with --ai) against every other, GAMES games a pair with colours "
        "alternating on shared seeded openings, each bot in its own process as in "
        "'oska match'. Games run in parallel on every core, or on a Dask cluster; each "
        "finished game is stored at once in the --db file, and running the command "
        "again continues where it stopped. Prints standings with Bradley-Terry Elo "
        "ratings and a crosstable; --report writes them as one HTML file. With "
        "--format swiss, R rounds pair entrants of equal or near score instead, for "
        "fields too large for every pair to play.",
        EXAMPLES + "\n" + ai_help())
    parser.add_argument("bots", nargs="*", metavar="BOT",
                        help=f"{SPEC_FORMS}: a file alone, or a folder or zip holding the "
                             "bot's modules (defaults: oskaplayer, oskaplayer.oskaplayer)")
    parser.add_argument("--bots", dest="bots_dir", metavar="DIR",
                        help="a folder of submissions: each Python file, folder and zip in "
                             "it is an entrant named after it")
    parser.add_argument("--ai", nargs="+", action="extend", default=[], metavar="LEVEL",
                        help="this project's AI at these levels as extra entrants (the "
                             "levels run to the next option: give the bots before --ai)")
    parser.add_argument("--n", type=board_size, default=4, help="board size (default 4)")
    parser.add_argument("--games", type=positive_int, default=2,
                        help="games per pair (per pairing in a Swiss round), colours "
                             "alternating (default 2)")
    parser.add_argument("--format", choices=FORMATS, default=ROUND_ROBIN,
                        help="round-robin: every pair plays (the default); swiss: each "
                             "round pairs entrants of equal or near score that have not "
                             "met, for hundreds of entrants")
    parser.add_argument("--rounds", type=positive_int, metavar="R",
                        help="rounds of a Swiss tournament (default: log2 of the entrants "
                             "plus 2, at most one fewer than the entrants)")
    add_opening_options(parser)
    parser.add_argument("--depth", type=positive_int, default=4,
                        help="the depth passed to the bots' oskaplayer (default 4)")
    parser.add_argument("--db", required=True, metavar="FILE",
                        help="SQLite file of finished games; reused by a rerun (only "
                             "this program's: another program's file is refused)")
    parser.add_argument("--report", metavar="FILE.html",
                        help="write an HTML report, with the game records in "
                             "FILE-games/ beside it (needs the report extra: matplotlib)")
    parser.add_argument("--review", nargs="?", const=ALL, choices=CHOICES,
                        help="with --report, also review every game (or only the games a "
                             "bot lost: --review losses) on the same workers and link each "
                             "review page from the report; reviews are stored in --db")
    parser.add_argument("--review-nodes", type=positive_int, metavar="N",
                        help=f"the most nodes a position of a review (default "
                             f"{DEFAULT_NODES:,}): the same reviews on any worker")
    parser.add_argument("--review-time", type=positive_float, metavar="SECONDS",
                        help="the most wall-clock seconds a position of a review instead "
                             "(not reproducible)")
    parser.add_argument("--json", metavar="FILE",
                        help="also write the standings and every game as JSON to FILE, "
                             "for graders (its fields are listed in docs/tournaments.md)")
    parser.add_argument("--workers", type=worker_count, default=os.cpu_count() or 1,
                        metavar="W", help="local processes playing games (default: one "
                                          f"per core, {os.cpu_count() or 1} here)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="send the games to the Dask scheduler at ADDRESS instead "
                             "(needs the cluster extra)")
    add_bot_options(parser, "move of an external bot", "the bots")
    parser.set_defaults(run=run)


def worker_count(text: str) -> int:
    """Return ``text`` as a number of local worker processes, 1 to ``MAX_WORKERS``."""
    count = positive_int(text)
    if count > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"expected at most {MAX_WORKERS} workers, got {count}")
    return count


def run(args: argparse.Namespace) -> int:
    """Run the tournament described by ``args``; return the exit code (0)."""
    # Imported here: the tournament plays games with this package's players, and a
    # worker process imports it first, which must not find this module half-imported.
    from oska_gui.tournament.command import run_tournament

    return run_tournament(args)
