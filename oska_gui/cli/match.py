"""``oska match``: external ``oskaplayer`` files against this project's AI or each other.

Games come in pairs on the same seeded random opening with the colours swapped. Every
board a bot returns is checked with the rules; an illegal or malformed board, an
exception, a timeout or a crash loses that game (the reason is recorded) and the match
goes on with a fresh bot process where needed.
"""

from __future__ import annotations

import argparse
import random
import textwrap
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from oska_gui.bots.reasons import REASONS, LoadError
from oska_gui.console.options import (
    CliError,
    add_bot_options,
    add_opening_options,
    add_subcommand,
    ai_option,
    board_size,
    positive_int,
    reason,
)
from oska_gui.console.outputs import check_apart, writable_folder
from oska_gui.console.progress import ProgressBar
from oska_gui.console.table import clip, plain, render_table, seconds_text
from oska_gui.core.files import filling
from oska_gui.core.types import Position, Rules
from oska_gui.engine.evaluators import EVALUATORS
from oska_gui.engine.registry import GameKind
from oska_gui.play.bot_loader import SPEC_FORMS, bot_path, open_bot
from oska_gui.play.bot_player import started_bot
from oska_gui.play.game import make_game
from oska_gui.play.levels import ai_help
from oska_gui.play.players import Player
from oska_gui.play.records import Record, record_text
from oska_gui.play.runner import play
from oska_gui.play.search_player import ai_player
from oska_gui.play.selfplay import random_opening

LABELS = ("A", "B")
REASON_WIDTH = 72
SCORES = {None: "draw", 0: "1-0", 1: "0-1"}
EXAMPLES = """\
examples:
  oska match mybot.py                        mybot.py:oskaplayer against the AI (depth 4)
  oska match mybot.py:play --ai hard --games 20 --time-limit 2 --save-dir games/
  oska match alice.py bob.py --n 5 --bot-depth 3 --opening-plies 4 --seed 9
  oska match bots/team:main.play             main.play() of the folder bots/team, which
                                             may import the other modules in it
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``match`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "match", "play external oskaplayer files against the AI or each other",
        "Play an external oskaplayer(board, player, depth) function against this "
        "project's AI, or two of them against each other. Each bot runs in its own "
        "process with a time limit per move; an illegal or malformed board, an "
        "exception, a timeout or a crash loses that game and the match goes on.",
        EXAMPLES + "\n" + ai_help())
    parser.add_argument("bots", nargs="+", metavar="BOT",
                        help=f"{SPEC_FORMS}: a file alone, or a folder holding the bot's "
                             "modules (defaults: oskaplayer, oskaplayer.oskaplayer); one bot "
                             "plays the AI, two play each other")
    parser.add_argument("--n", type=board_size, default=4, help="board size (default 4)")
    parser.add_argument("--games", type=positive_int, default=10,
                        help="number of games, in pairs with colours swapped (default 10)")
    add_opening_options(parser)
    parser.add_argument("--bot-depth", type=positive_int, default=4, metavar="DEPTH",
                        help="the depth passed to the bots' oskaplayer (default 4)")
    parser.add_argument("--ai", default="4", metavar="AI",
                        help="this project's AI when one bot is given (default depth 4)")
    parser.add_argument("--evaluator", choices=sorted(EVALUATORS), default="strong",
                        help="the AI's evaluator when --ai names none (default strong)")
    parser.add_argument("--save-dir", metavar="DIR", help="save every game's record in DIR")
    add_bot_options(parser, "move of an external bot", "the bots")
    parser.set_defaults(run=run)


@dataclass
class Tally:
    """One player's results over the match."""

    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Return the number of games played."""
        return self.wins + self.draws + self.losses


def run(args: argparse.Namespace) -> int:
    """Play the match described by ``args``, print the tables; return the exit code (0)."""
    if len(args.bots) > 2:
        raise CliError(f"give one or two bots, not {len(args.bots)}")
    if args.save_dir:
        folder = writable_folder(args.save_dir, "--save-dir")
        check_apart({"--save-dir": folder},
                    {bot_path(text): f"the bot {text!r:.200}" for text in args.bots})
    rules = make_game(GameKind.OSKA, args.n).rules
    movers = make_movers(args)
    try:
        records = play_match(rules, movers, args)
    finally:
        for mover in movers:
            mover.close()
    tallies = [Tally(mover.name) for mover in movers]
    for number, (record, a_white) in enumerate(records, start=1):
        count(record, a_white, tallies, number)
    print_report(records, tallies)
    if args.save_dir:
        save_all(records, Path(args.save_dir))
    return 0


def make_movers(args: argparse.Namespace) -> list[Player]:
    """Return the two players: the bots given, then the AI if only one bot was given."""
    ai = ai_option(args.ai, args.evaluator)  # read it first: bad input costs no process
    game = make_game(GameKind.OSKA, args.n)
    movers: list[Player] = []
    try:
        for text in args.bots:
            try:
                bot = open_bot(text, args.time_limit, echo=args.bot_output)
                movers.append(started_bot(game, bot, args.bot_depth, bot.name))
            except ValueError as error:
                raise CliError(str(error)) from None
            except LoadError as error:
                raise CliError(str(error), error.traceback) from None
    except CliError:
        for mover in movers:
            mover.close()
        raise
    if len(movers) == 1:
        movers.append(ai_player(game, ai))
    return movers


def play_match(rules: Rules, movers: list[Player],
               args: argparse.Namespace) -> list[tuple[Record, bool]]:
    """Play every game; return (record, whether player A had White) pairs."""
    print(plain(f"Match, n = {rules.n}: A = {movers[0].name}, B = {movers[1].name}"))
    print(f"{args.games} games, {args.opening_plies} random opening plies (seed {args.seed}), "
          f"{args.time_limit:g} s per bot move, bot depth {args.bot_depth}\n")
    openings = make_openings(rules, args.opening_plies, args.seed)
    results = []
    with ProgressBar(args.games, "match", args.progress) as bar:
        for game in range(args.games):
            a_white = game % 2 == 0
            if a_white:  # a new opening for each pair of games
                opening = next(openings)
            pair = (movers[0], movers[1]) if a_white else (movers[1], movers[0])
            record = play(rules, pair, opening)
            results.append((record, a_white))
            bar.advance(note=f"game {game + 1}: {record.outcome.describe()}")
    return results


def make_openings(rules: Rules, plies: int, seed: int) -> Iterator[list[Position]]:
    """Yield seeded random openings of ``plies`` plies (fewer if a game ends), endlessly.

    One at a time, so that a huge ``--games`` costs nothing before it is played.
    """
    rng = random.Random(seed)
    while True:
        yield random_opening(rules, plies, rng)


def count(record: Record, a_white: bool, tallies: list[Tally], number: int) -> None:
    """Add one game's result, forfeit and move times to the two players' tallies."""
    colour_of = (0, 1) if a_white else (1, 0)  # player index -> colour
    for player, tally in enumerate(tallies):
        if record.outcome.winner is None:
            tally.draws += 1
        elif record.outcome.winner == colour_of[player]:
            tally.wins += 1
        else:
            tally.losses += 1
            if record.forfeit is not None:
                tally.forfeits[record.forfeit] += 1
                tally.examples.setdefault(record.forfeit, f"game {number}: {record.outcome.reason}")
    positions = record.positions()
    for ply, seconds in enumerate(record.seconds):
        if seconds is not None:
            mover = positions[ply].turn
            tallies[colour_of.index(mover)].times.append(seconds)


def print_report(records: list[tuple[Record, bool]], tallies: list[Tally]) -> None:
    """Print the games, the results per player (forfeits by reason) and forfeit details."""
    rows = []
    for number, (record, a_white) in enumerate(records, start=1):
        white, black = ("A", "B") if a_white else ("B", "A")
        rows.append([number, white, black, SCORES[record.outcome.winner], len(record.moves),
                     clip(record.outcome.describe(), REASON_WIDTH)])
    print(render_table(["game", "white", "black", "result", "plies", "how it ended"], rows))
    reasons = [reason for reason in REASONS if any(t.forfeits[reason] for t in tallies)]
    rows = [[label, tally.name, tally.games, tally.wins, tally.draws, tally.losses,
             sum(tally.forfeits.values()), *(tally.forfeits[reason] for reason in reasons),
             seconds_text(mean(tally.times)), seconds_text(max(tally.times, default=None))]
            for label, tally in zip(LABELS, tallies, strict=True)]
    headers = ["", "player", "games", "wins", "draws", "losses", "forfeits",
               *(f"{reason}" for reason in reasons), "mean s/move", "max s/move"]
    print()
    print(render_table(headers, rows))
    examples = [f"{label} {reason}: {tally.examples[reason]}"
                for label, tally in zip(LABELS, tallies, strict=True)
                for reason in reasons if tally.forfeits[reason]]
    if examples:
        print("\nFirst forfeit of each kind:")
        for example in examples:
            print(textwrap.fill(plain(example), 100, initial_indent="  ",
                                subsequent_indent="    "))


def mean(values: list[float]) -> float | None:
    """Return the mean of ``values``, or None when there are none."""
    return sum(values) / len(values) if values else None


def save_all(records: list[tuple[Record, bool]], folder: Path) -> None:
    """Save each record as ``folder/game-NNN.json`` and say where they went."""
    try:
        with filling(folder) as write:  # a failure takes back the new records, the folder
            for number, (record, _) in enumerate(records, start=1):
                write(f"game-{number:03d}.json", record_text(record))
    except OSError as error:  # the folder went away during the match, a full disk
        raise CliError(f"cannot save the game records in {folder}: {reason(error)}") from None
    print(f"\nSaved {len(records)} game records in {folder}/")
