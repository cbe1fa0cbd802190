"""The desktop game's command line: ``python3 main.py [--white BOT] [--black BOT] ...``.

Reading the options needs neither pygame nor the project's venv, so ``--help`` and
mistakes (a missing bot file, a bad game record: one clear line and exit code 2) are
answered before anything else happens. ``bots_of`` then turns the bot options into
what the App takes; ``--replay`` is already the loaded game record.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence

from oska_gui.bots.external import DEFAULT_TIME_LIMIT
from oska_gui.console.options import positive_float, positive_int
from oska_gui.core.types import BLACK, WHITE
from oska_gui.games import oska
from oska_gui.play.bot_loader import SPEC_FORMS, BotSpec, parse_bot
from oska_gui.play.records import Record, load

from .bots import DEFAULT_DEPTH, ExternalBot

DESCRIPTION = (
    "Play Oska (any board size n = 4..24) or Hexapawn in a window: start screen, human or "
    "computer players. "
    "An external oskaplayer file can be the computer of a side (Oska only): it runs in its "
    "own process, and a bot that fails to load, raises, hangs past the time limit, crashes "
    "or returns an illegal board forfeits the game with the reason shown."
)
EPILOG = """examples:
  python3 main.py
  python3 main.py --n 12                                start a game on the n = 12 board
  python3 main.py --black bots/mine.py                  play White against your bot
  python3 main.py --white a.py --black b.py:player      watch two bots play
  python3 main.py --replay game.json                    step through a saved game
  python3 main.py --speak                               print and say what happens

keys in a game: arrows move the cursor, Enter picks up or puts down a piece, U undo,
  R redo, H hint, C cell names, N new game, ? help (every key)
"""


def bot_argument(text: str) -> BotSpec:
    """Return the bot 'path/to/bot.py[:function]' or 'path/to/folder[:module.function]'
    (an argparse type; the file or folder must exist, see ``play.bot_loader``)."""
    try:
        return parse_bot(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def board_size(text: str) -> int:
    """Return the Oska board size ``text`` (an argparse type: a whole number the rules
    support, else one line saying the range)."""
    sizes = oska.SIZES
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n not in sizes:
        raise argparse.ArgumentTypeError(
            f"the board size must be a whole number from {sizes[0]} to {sizes[-1]}, "
            f"got {text!r}")
    return n


def record_argument(text: str) -> Record:
    """Return the game record in file ``text`` (an argparse type; says what is wrong)."""
    try:
        record = load(text)
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot read {text}: {error.strerror}") from None
    except ValueError as error:  # RecordError, or a file that is not UTF-8 text
        message = f"{text} is not a playable game record: {error}"
        raise argparse.ArgumentTypeError(message) from None
    return record


def build_parser() -> argparse.ArgumentParser:
    """Return the parser of ``main.py``'s options."""
    parser = argparse.ArgumentParser(
        prog="main.py", description=textwrap.fill(DESCRIPTION, 79), epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    bots = parser.add_argument_group("external bots (Oska only)")
    for side in ("white", "black"):
        bots.add_argument(f"--{side}", type=bot_argument, metavar="BOT",
                          help=f"let the oskaplayer in BOT = {SPEC_FORMS} play "
                               f"{side.title()} (a file alone, or a folder holding the bot's "
                               "modules); it is chosen on the start screen")
    bots.add_argument("--bot-time", type=positive_float, default=DEFAULT_TIME_LIMIT,
                      metavar="SECONDS",
                      help=f"time a bot may take per move (default {DEFAULT_TIME_LIMIT:g})")
    bots.add_argument("--bot-depth", type=positive_int, default=DEFAULT_DEPTH, metavar="DEPTH",
                      help=f"depth passed to the bot's oskaplayer (default {DEFAULT_DEPTH})")
    parser.add_argument("--n", type=board_size, metavar="N",
                        help=f"start a game of Oska on the board of size N "
                             f"({oska.SIZES[0]} to {oska.SIZES[-1]}); a game in progress "
                             "is not lost unasked")
    parser.add_argument("--replay", type=record_argument, metavar="FILE",
                        help="open a saved game (oska selfplay --save, oska match --save-dir) "
                             "at its start: Redo / Undo or the arrow keys step through it")
    parser.add_argument("--speak", action="store_true",
                        help="for screen readers: print each announcement (a move, the "
                             "cursor's cell, a piece picked up and where it can go, a "
                             "start-screen change) on a line and say it with espeak-ng, "
                             "espeak, say or spd-say if one is installed")
    # For scripted checks: quit after N frames and print the status line.
    parser.add_argument("--frames", type=positive_int, help=argparse.SUPPRESS)
    return parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Return the options in ``argv``; exits with code 2 and a message if one is bad."""
    return build_parser().parse_args(list(argv))


def bots_of(options: argparse.Namespace) -> dict[int, ExternalBot]:
    """Return the external bots the options ask for, by side (WHITE = 0, BLACK = 1)."""
    specs = {WHITE: options.white, BLACK: options.black}
    return {side: ExternalBot(spec, options.bot_time, options.bot_depth)
            for side, spec in specs.items() if spec is not None}


