"""The ``oska`` command (also ``python -m oska_gui``): subcommands for people and bots.

- ``selfplay``: the AI against itself, printed as a transcript (optionally saved).
- ``match``: external ``oskaplayer`` files against the AI or each other.
- ``check``: compare someone's ``movegen``/``oskaplayer`` with this project's rules.
- ``analyze``: the best move, score and line of a position, exact where solvable.
- ``review``: every move of a recorded game marked, with the better moves.
- ``games``: the games the window kept, newest first.
- ``solve``: a whole game solved exactly by the tablebase (numpy + numba extra).
- ``tournament``: many bots and AI levels, every pair, with ratings (in parallel).

Each subcommand is a module with ``add_parser(subparsers)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

from oska_gui.console.options import CliError
from oska_gui.console.signals import EXIT_TERMINATED, Terminated, sigterm_unwinds
from oska_gui.console.table import plain
from oska_gui.core.text import plain_lines

from . import analyze, check, games, match, review, selfplay, solve, tournament

SUBCOMMANDS = (selfplay, match, check, analyze, review, games, solve, tournament)
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # what a shell reports for a process killed by SIGPIPE
# A board given as rows separated by commas ('-' or '.' empty): no option looks like it
BOARD_ROWS = re.compile(r"[-wb.]+(,[-wb.]+)+", re.IGNORECASE)


def boards_apart(argv: list[str]) -> list[str]:
    """Return ``argv`` with every board written as rows that starts with '-' written with
    '.' for its empty cells (the same board): argparse would take it for an option, and
    ``oska analyze ----w,w-w-,... w`` stop with 'the following arguments are required'.

    Args:
        argv: the command-line arguments.

    Returns:
        The arguments to parse.
    """
    return [arg.replace("-", ".") if arg.startswith("-") and BOARD_ROWS.fullmatch(arg)
            else arg for arg in argv]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``oska`` command with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="oska", description="Oska from the command line: self-play, matches against "
                                 "other people's bots, tournaments, a movegen checker, "
                                 "analysis and exact solving.",
        epilog="Run 'oska COMMAND --help' for a command's options.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``oska`` command with ``argv`` (default: sys.argv[1:]); return the exit code.

    Exit codes: 0 success, 1 a check found disagreements, 2 bad input (usage errors,
    unreadable boards or bot files, an output that cannot be written), 130 interrupted
    (Ctrl+C), 141 output pipe closed, 143 terminated (SIGTERM); bots are stopped on every
    way out.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(boards_apart(sys.argv[1:] if argv is None else argv))
    except SystemExit as stop:  # --help or a usage error: argparse already printed
        return int(stop.code or 0)
    try:
        with sigterm_unwinds():
            return args.run(args)
    except CliError as error:
        print(plain(f"oska {args.command}: error: {error}"), file=sys.stderr)
        if error.detail:  # a bot's traceback: readable only with its line breaks
            print(plain_lines(error.detail), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"\noska {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print(f"\noska {args.command}: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:
        # The reader went away (`oska ... | head`): stop quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
