"""Helpers shared by the commands: argument types, the AI, board input and text layout."""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Callable

from oska_gui.bots.external import DEFAULT_TIME_LIMIT
from oska_gui.core.numbers import finite_positive
from oska_gui.core.types import Position
from oska_gui.engine.evaluators import DEFAULT_EVALUATOR
from oska_gui.games.board_forms import read_board
from oska_gui.games.oska import SIZES, OskaRules, check_n
from oska_gui.play.levels import Ai, parse_ai

PLAYER_WORDS = {"w": "w", "white": "w", "b": "b", "black": "b"}


class CliError(Exception):
    """A problem with the user's input: printed as one clear line, exit code 2.

    ``detail``, when given, is printed beneath that line, line by line: the traceback of
    a bot that raised while loading.
    """

    def __init__(self, message: str, detail: str = "") -> None:
        """Keep the one-line ``message`` and the ``detail`` to print beneath it."""
        super().__init__(message)
        self.detail = detail


def ai_option(text: str, evaluator: str = DEFAULT_EVALUATOR) -> Ai:
    """Read this project's AI as the commands give it ('4', '2s', 'hard:simple').

    Args:
        text: the AI (see ``levels.parse_ai``).
        evaluator: the evaluator when ``text`` names none.

    Returns:
        The Ai.

    Raises:
        CliError: ``text`` cannot be read (the message says how to write it).
    """
    try:
        return parse_ai(text, evaluator)
    except ValueError as error:
        raise CliError(str(error)) from None


def add_subcommand(subparsers: argparse._SubParsersAction, name: str, summary: str,
                   description: str, epilog: str) -> argparse.ArgumentParser:
    """Add and return a subcommand's parser with the house help layout.

    Args:
        subparsers: the ``oska`` command's subparsers.
        name: the subcommand's name.
        summary: one line for ``oska --help``.
        description: a paragraph for ``oska NAME --help`` (wrapped here).
        epilog: examples and notes, printed as written.
    """
    return subparsers.add_parser(
        name, help=summary, description=textwrap.fill(description, 79), epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter)


def whole_number(low: int) -> Callable[[str], int]:
    """Return an argparse type that reads an int >= ``low``."""

    def convert(text: str) -> int:
        """Return ``text`` as an int >= ``low``; raises ArgumentTypeError otherwise."""
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number, got {text!r:.80}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected a number >= {low}, got {value}")
        return value

    return convert


positive_int = whole_number(1)
natural_int = whole_number(0)


def board_size(text: str) -> int:
    """Return ``text`` as a supported Oska board size (an argparse type)."""
    try:
        return check_n(whole_number(SIZES[0])(text))
    except ValueError as error:  # a size outside oska.SIZES: the message gives the range
        raise argparse.ArgumentTypeError(str(error)) from None


def positive_float(text: str) -> float:
    """Return ``text`` as a finite float > 0 (an argparse type)."""
    value = finite_positive(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r:.80}")
    return value


def add_opening_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--opening-plies`` and ``--seed``: the seeded random openings games start from."""
    parser.add_argument("--opening-plies", type=natural_int, default=2, metavar="K",
                        help="random plies before the players take over (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings (default 1)")


def add_bot_options(parser: argparse.ArgumentParser, timed: str, code: str) -> None:
    """Add the options of commands that run other people's code, and ``--progress``.

    Args:
        parser: the subcommand's parser.
        timed: what the time limit applies to, e.g. 'move of an external bot'.
        code: what runs, e.g. 'the bots', for the help of ``--bot-output``.
    """
    parser.add_argument("--time-limit", type=positive_float, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help=f"time per {timed} (default {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--bot-output", action="store_true",
                        help=f"show the output of {code} on stderr instead of discarding it")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show a progress bar on stderr (default: only on a terminal)")


def parse_board(text: str) -> tuple[OskaRules, list[str]]:
    """Read a board given on the command line; raises CliError when it is not valid.

    Accepted: comma-separated rows (``wwww,---,--,---,bbbb``, spaces ignored; '.' or 'e'
    may stand for '-', handy for a first row that would look like an option) or a JSON
    list of row strings or of lists of one-character strings.

    Returns:
        The rules of the board's size and its rows as strings over 'w', 'b', '-'.
    """
    text = text.strip()
    if text.startswith("["):
        try:
            board = json.loads(text)
        except RecursionError:
            raise CliError("the board is nested too deeply to be a board") from None
        except ValueError as error:  # not JSON, or a number too long to read
            raise CliError(f"the board is not valid JSON: {error}") from None
    else:
        board = [row.strip().replace(".", "-").replace("e", "-") for row in text.split(",")]
    try:
        rules, rows, _ = read_board(board)
    except (TypeError, ValueError) as error:
        raise CliError(f"bad board: {error}") from None
    return rules, rows


def reason(error: Exception) -> str:
    """Return why a file operation failed in a few words ('No such file or directory')."""
    return getattr(error, "strerror", None) or str(error)


def parse_player(text: str) -> str:
    """Return 'w' or 'b' for 'w', 'white', 'b' or 'black'; raises CliError otherwise."""
    player = PLAYER_WORDS.get(text.strip().lower())
    if player is None:
        raise CliError(f"the player must be 'w' or 'b' (or 'white', 'black'), "
                       f"got {text!r:.80}")
    return player


def side_by_side(blocks: list[tuple[str, str]], gap: int = 4) -> str:
    """Return text blocks next to each other, each under its caption.

    Args:
        blocks: (caption, multi-line text) pairs; no caption line if all are ''.
        gap: spaces between the blocks.

    Returns:
        The joined lines (no trailing newline).
    """
    captioned = any(caption for caption, _ in blocks)
    columns = [[caption] * captioned + text.splitlines() for caption, text in blocks]
    widths = [max(len(line) for line in column) for column in columns]
    height = max(len(column) for column in columns)
    lines = []
    for i in range(height):
        parts = [(column[i] if i < len(column) else "").ljust(width)
                 for column, width in zip(columns, widths, strict=True)]
        lines.append((" " * gap).join(parts).rstrip())
    return "\n".join(lines)


def board_block(rules: OskaRules, pos: Position) -> str:
    """Return a position's picture with its row list beside it (the transcript's form)."""
    return side_by_side([("", rules.picture(pos)), ("", str(rules.to_rows(pos)))])
