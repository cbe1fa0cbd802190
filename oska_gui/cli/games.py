"""``oska games``: the games the window kept, newest first (``play.kept_games``).

The desktop window keeps every finished game, and every game with a move that was left
for another or closed with the window, in ``history.json`` in the user's data folder.
This command lists them, numbered from 1 (the newest), with when each was kept, the game
and size, the players, the result and the length; ``oska review --last`` reviews the
newest. It only reads the file: a damaged entry is skipped with a note on stderr.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from oska_gui.console.options import add_subcommand
from oska_gui.console.table import plain, render_table
from oska_gui.play.kept_games import Listing, history_path, read_file

EXAMPLES = """\
examples:
  oska games                     the games the window kept, newest first
  oska review --last             review the newest of them
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``games`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "games", "list the games the window kept, newest first",
        "List the games the desktop window kept (each finished game, and each game with "
        f"a move left for another or closed with the window), from {history_path()}.",
        EXAMPLES)
    parser.add_argument("--file", metavar="HISTORY", type=Path, default=None,
                        help="the history file to read (default: the window's)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the kept games of the history ``args`` names (notes on stderr); return 0."""
    path = args.file if args.file is not None else history_path()
    listing = read_file(path)
    print_notes(listing, "games")
    if not listing.games:
        print(plain(f"No games kept yet in {path}."))
        return 0
    rows = [(number, game.date_text(), game.size_text(), game.record.white,
             game.record.black, game.result_text(), game.plies)
            for number, game in enumerate(reversed(listing.games), start=1)]
    print(render_table(("#", "kept", "game", "white", "black", "result", "moves"), rows,
                       title=f"{len(rows)} kept game{'s' if len(rows) != 1 else ''} "
                             f"in {path}, newest first"))
    return 0


def print_notes(listing: Listing, command: str) -> None:
    """Print each of ``listing``'s notes (a damaged entry skipped) on stderr, as
    ``oska COMMAND: note: ...``."""
    for note in listing.notes:
        print(plain(f"oska {command}: note: {note}"), file=sys.stderr)
