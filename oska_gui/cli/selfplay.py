"""``oska selfplay``: a game of the AI against itself, printed as a transcript."""

from __future__ import annotations

import argparse
import random
import textwrap

from oska_gui.console.options import (
    CliError,
    add_subcommand,
    ai_option,
    board_block,
    board_size,
    natural_int,
    positive_int,
    reason,
)
from oska_gui.console.outputs import writable_file
from oska_gui.console.table import plain
from oska_gui.core.types import SIDE_NAMES, Position
from oska_gui.engine.evaluators import EVALUATORS
from oska_gui.engine.registry import GameKind
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import ai_help
from oska_gui.play.records import save
from oska_gui.play.runner import Turn, play
from oska_gui.play.search_player import ai_player
from oska_gui.play.selfplay import random_opening

EXAMPLES = """\
examples:
  oska selfplay                              n = 4, both sides depth 4
  oska selfplay --n 5 --white 6 --black 3:simple --save game.json
  oska selfplay --white hard --black 0.5s --opening-plies 4 --seed 7 --brief
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``selfplay`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "selfplay", "play the AI against itself and print the game",
        "Play a game of this project's AI against itself and print each ply: "
        "the move in notation, the board as the spec's list of strings and as a "
        "picture, then the result and its reason.",
        EXAMPLES + "\n" + ai_help())
    parser.add_argument("--n", type=board_size, default=4, help="board size (default 4)")
    parser.add_argument("--depth", type=positive_int, default=4,
                        help="search depth of a side not set by --white/--black (default 4)")
    parser.add_argument("--evaluator", choices=sorted(EVALUATORS), default="strong",
                        help="evaluator of a side whose AI names none (default strong)")
    parser.add_argument("--white", metavar="AI", help="White's AI, e.g. 6, 3:simple, 2s, hard")
    parser.add_argument("--black", metavar="AI", help="Black's AI (same forms)")
    parser.add_argument("--opening-plies", type=natural_int, default=0, metavar="K",
                        help="play K random plies first (default 0)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the random opening plies (default 1)")
    parser.add_argument("--save", metavar="FILE", help="write the game record (JSON) to FILE")
    parser.add_argument("--brief", action="store_true",
                        help="one line per ply (move and board list), no pictures")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and print the game described by ``args``; return the exit code (0)."""
    if args.save:
        writable_file(args.save, "--save")
    rules = oska_rules(args.n)
    game = make_game(GameKind.OSKA, args.n)
    white, black = (ai_player(game, ai_option(spec or str(args.depth), args.evaluator))
                    for spec in (args.white, args.black))
    movers = (white, black)
    print(plain(f"Oska n = {args.n}: White = {movers[0].name}, Black = {movers[1].name}"))
    opening = random_opening(rules, args.opening_plies, random.Random(args.seed))
    print_position(rules, "start", rules.start(), args.brief)
    record = play(rules, movers, opening,
                  lambda ply, before, after, turn: print_ply(
                      rules, ply, before, after, turn, args.brief))
    print(f"\nResult after {len(record.moves)} plies: {record.outcome.describe()}")
    if args.save:
        try:
            save(record, args.save)
        except OSError as error:  # the folder went away during the game, a full disk
            raise CliError(f"cannot save the game record to {args.save}: "
                           f"{reason(error)}") from None
        print(f"Saved the game record to {args.save}")
    return 0


def print_ply(rules: OskaRules, ply: int, before: Position, after: Position,
              turn: Turn | None, brief: bool) -> None:
    """Print one ply of the transcript: who moved, the move, the time, the board."""
    move = rules.move_text(rules.move_between(before, after))
    how = "random opening" if turn is None else f"{turn.seconds:.3f} s"
    print_position(rules, f"ply {ply:>3}  {SIDE_NAMES[before.turn]:<5}  {move:<6}  ({how})",
                   after, brief)


def print_position(rules: OskaRules, heading: str, pos: Position, brief: bool) -> None:
    """Print a heading and the board: its row list (brief) or picture and row list."""
    if brief:
        print(f"{heading}  {rules.to_rows(pos)}")
        return
    print(f"\n{heading}")
    print(textwrap.indent(board_block(rules, pos), "    "))
