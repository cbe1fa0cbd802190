"""Running ``oska tournament`` (the options are read in ``oska_gui.cli.tournament``).

The games not yet in the database are played, locally or on a cluster, and each is
stored as it ends; then the standings, crosstable and first forfeits are printed and,
with ``--report``, the HTML report is written with every game's record beside it.
"""

from __future__ import annotations

import argparse
import os
import textwrap
from collections.abc import Generator, Iterator
from contextlib import closing
from pathlib import Path

from oska_gui.console.options import CliError
from oska_gui.console.progress import ProgressBar
from oska_gui.console.table import plain, render_table
from oska_gui.play.bot_loader import BotFile, BotFolder

from .entrants import read_entrants
from .games import Conditions, Entrant, GameTask
from .report import check_report, games_folder, write_report
from .result import GameResult
from .runner import Finished, cluster_games, local_games
from .schedule import TournamentPlan, schedule
from .standings import (
    CROSSTABLE_MAX,
    Standing,
    crosstable_rows,
    first_forfeits,
    standings,
    standings_rows,
)
from .store import Store, StoreError

BAR_WIDTH = 16
MAX_GAMES = 1_000_000  # every game's task is listed before the first is played


def run_tournament(args: argparse.Namespace) -> int:
    """Play the tournament described by ``args``, print the tables; return 0.

    Raises:
        CliError: bad entrants, an unusable database or report path, a missing extra
            or an unreachable scheduler.
    """
    players = read_entrants(args.bots, args.ai)
    if args.scheduler is not None:
        _check_travel(players)
    report = None if args.report is None else check_report(args.report)
    _check_apart(report, args.db, players)
    settings = TournamentPlan(Conditions(args.n, args.depth, args.time_limit, args.bot_output),
                        args.games, args.opening_plies, args.seed)
    _check_size(len(players), args.games)
    tasks = schedule(players, settings)
    try:
        store = Store(args.db)
    except StoreError as error:
        raise CliError(str(error)) from None
    with store:
        _print_header(players, settings, len(tasks))
        finished = store.results(task.game_id for task in tasks)
        todo = [task for task in tasks if task.game_id not in finished]
        with closing(_games(todo, args)) as games:
            _play(games, len(todo), store, finished, args.progress)
        print(plain(f"games: {len(todo)} played now, {len(tasks) - len(todo)} reused from "
                    f"{args.db}") + "\n")
        results = [finished[task.game_id] for task in tasks]
        lines = standings([player.name for player in players], results)
        _print_tables(lines, results)
        if report is not None:
            written = write_report(report, lines, results,
                                   store.records(task.game_id for task in tasks), settings)
            print("\n" + plain(f"Report: {report} (with {written} game records in "
                               f"{games_folder(report)}{os.sep})"))
    return 0


def _check_size(entrants: int, games: int) -> None:
    """Raise CliError when the tournament has more games than can be listed up front."""
    total = entrants * (entrants - 1) // 2 * games
    if total > MAX_GAMES:
        raise CliError(f"{entrants} entrants playing {games} games a pair make {total:,} "
                       f"games; a tournament may have at most {MAX_GAMES:,}")


def _check_apart(report: Path | None, db: str, players: list[Entrant]) -> None:
    """Raise CliError when the report would overwrite the database or a bot's file, or
    the database is a bot's file: found before the first game, not after the last."""
    bots = {_real(player.bot.path): player.name for player in players
            if isinstance(player.bot, BotFile)}
    database = _real(db)
    if database in bots:
        raise CliError(f"--db {db!r:.200} is the file of the bot {bots[database]}")
    if report is None:
        return
    written = _real(str(report))
    if written == database:
        raise CliError(f"--report and --db name the same file, {db!r:.200}")
    if written in bots:
        raise CliError(f"--report {str(report)!r:.200} would overwrite the bot {bots[written]}")


def _real(path: str) -> str:
    """Return ``path`` with every link and '..' resolved (as given when it holds a NUL,
    which the checks of the file itself refuse)."""
    try:
        return os.path.realpath(path)
    except ValueError:
        return path


def _check_travel(players: list[Entrant]) -> None:
    """Raise CliError when a bot given as a folder is to play on a cluster: only a bot
    given as a file travels (inside its games' tasks) so far."""
    folders = [player.name for player in players if isinstance(player.bot, BotFolder)]
    if folders:
        raise CliError(f"--scheduler: a bot given as a folder cannot go to a cluster yet "
                       f"({', '.join(folders)}); give it as one file, or play without "
                       "--scheduler on local processes")


def _games(todo: list[GameTask],
           args: argparse.Namespace) -> Generator[Finished, None, None]:
    """Return the iterator of finished games: on the cluster, or on local processes."""
    if args.scheduler is not None:
        return cluster_games(todo, args.scheduler)
    return local_games(todo, args.workers)


def _play(games: Iterator[Finished], count: int, store: Store,
          finished: dict[str, GameResult], progress: bool | None) -> None:
    """Store each game as it ends (into ``store`` and ``finished``), showing progress."""
    with ProgressBar(count, "games", progress, width=BAR_WIDTH, unit="games") as bar:
        for result, record in games:
            try:
                store.add(result, record)
            except StoreError as error:
                raise CliError(str(error)) from None
            finished[result.game_id] = result
            bar.advance()


def _print_header(players: list[Entrant], settings: TournamentPlan, games: int) -> None:
    """Print what the tournament plays."""
    conditions = settings.conditions
    pairs = len(players) * (len(players) - 1) // 2
    print(f"Tournament, n = {conditions.n}: {len(players)} entrants, {pairs} pairs, "
          f"{settings.games} games a pair = {games} games")
    print(f"{settings.opening_plies} random opening plies (seed {settings.seed}), bot depth "
          f"{conditions.depth}, {conditions.time_limit:g} s per bot move\n")


def _print_tables(lines: list[Standing], results: list[GameResult]) -> None:
    """Print the standings, the crosstable (unless too wide) and the first forfeits."""
    print(render_table(*standings_rows(lines), title="Standings (Elo: Bradley-Terry, "
                                                      "relative to the field's mean)"))
    print()
    if len(lines) <= CROSSTABLE_MAX:
        print(render_table(*crosstable_rows(lines, results),
                           title="Crosstable (points of the row's entrant against "
                                 "the column's)"))
    else:
        print(f"Crosstable: {len(lines)} entrants are too many for the console; "
              "see --report.")
    examples = first_forfeits(lines, results)
    if examples:
        print("\nFirst forfeit of each kind:")
        for name, reason, game in examples:
            text = plain(f"{name} {reason}: game {game.game_id}: {game.reason}")
            print(textwrap.fill(text, 100, initial_indent="  ", subsequent_indent="    "))
