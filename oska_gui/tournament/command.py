"""Running ``oska tournament`` (the options are read in ``oska_gui.cli.tournament``).

The games not yet in the database are played, locally or on a cluster, and each is
stored as it ends; then the standings, crosstable and first forfeits are printed and,
with ``--report``, the HTML report is written with every game's record beside it.
"""

from __future__ import annotations

import argparse
import os
import textwrap
from collections.abc import Callable, Collection, Generator, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from oska_gui.console.options import CliError
from oska_gui.console.outputs import (
    STDOUT,
    check_apart,
    printing_aside,
    real,
    writable_file,
    write_json,
)
from oska_gui.console.progress import ProgressBar
from oska_gui.console.table import plain, render_table
from oska_gui.play.bot_loader import BotFolder, BotUnusable, pack_folder
from oska_gui.play.review.budget import Budget

from .entrants import read_entrants
from .formats import ROUND_ROBIN, SWISS, Format, SwissRounds, make_format
from .games import Conditions, Entrant, GameTask, play
from .report import Reviewed, check_report, games_folder, write_report
from .result import GameResult
from .result_json import tournament_document
from .reviews import review_game, review_games, to_review
from .runner import Finished, cluster_games, local_games
from .schedule import TournamentPlan
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
UNREADABLE_SHOWN = 10  # damaged stored games named one by one; the rest are counted


def run_tournament(args: argparse.Namespace) -> int:
    """Play the tournament described by ``args``, print the tables; return 0.

    Raises:
        CliError: bad entrants, an unusable database or report path, a missing extra
            or an unreachable scheduler.
    """
    report = None if args.report is None else check_report(args.report)
    json_path = None if args.json is None else writable_file(args.json, "--json", stdout=True)
    if args.review and report is None:
        raise CliError("--review needs --report: the reviews are pages linked from the report")
    outputs = _outputs(args.db, report, json_path)
    players = read_entrants(args.bots, args.ai, args.bots_dir,
                            {real(path) for path in outputs.values() if path is not None})
    check_apart(outputs, {player.source: f"the bot {player.name}" for player in players
                          if player.source is not None})
    if args.scheduler is not None:
        players = [_travelling(player) for player in players]
    settings = TournamentPlan(Conditions(args.n, args.depth, args.time_limit, args.bot_output),
                        args.games, args.opening_plies, args.seed)
    try:
        plan = make_format(args.format, players, settings, args.rounds)
    except ValueError as error:
        raise CliError(str(error)) from None
    _check_size(plan.total_games)
    with _store_errors():
        store = Store(args.db)
    document = None
    with store, printing_aside(json_path), _store_errors():
        _print_header(players, settings, plan)
        tasks, finished, played, unreadable = _play_rounds(plan, store, args)
        _print_unreadable(unreadable, args.db)
        print(plain(f"games: {played} played now, {len(tasks) - played} reused from "
                    f"{args.db}") + "\n")
        results = [finished[task.game_id] for task in tasks]
        lines = standings([player.name for player in players], results, plan.extras())
        _print_tables(lines, results)
        if json_path is not None:
            document = _json_document(settings, plan, lines, results, store.records(
                result.game_id for result in results if result.forfeit is not None))
        reviews = _reviews(store, players, results, args) if args.review else {}
        if report is not None:
            written = write_report(report, lines, results,
                                   store.records(task.game_id for task in tasks), settings,
                                   Reviewed(reviews, review_budget(args)))
            print("\n" + plain(f"Report: {report} (with {written} game records in "
                               f"{games_folder(report)}{os.sep})"))
    if json_path is not None:
        write_json(json_path, document, "--json")
        if json_path != STDOUT:
            print("\n" + plain(f"Result for graders: {json_path}"))
    return 0


def _outputs(db: str, report: Path | None, json_path: Path | None
             ) -> dict[str, Path | str | None]:
    """Return the files the tournament writes, {option: path} (None: not asked for):
    the database, the report and its records folder, the JSON result."""
    return {"--db": db, "--report": report,
            "--report (its records folder)": None if report is None else games_folder(report),
            "--json": json_path}


@contextmanager
def _store_errors() -> Iterator[None]:
    """Turn a StoreError (the database cannot be opened, read or written) into the
    CliError that ends the command with its one line."""
    try:
        yield
    except StoreError as error:
        raise CliError(str(error)) from None


def _play_rounds(plan: Format, store: Store, args: argparse.Namespace
                 ) -> tuple[list[GameTask], dict[str, GameResult], int, dict[str, str]]:
    """Play every round of ``plan``, reusing the games ``store`` has; store the others.

    Returns:
        Every game of the tournament, the results by game id, how many were played
        now (the rest were found in the store), and {game id: why} of the stored
        games that could not be read and were played again.
    """
    every: list[GameTask] = []
    finished: dict[str, GameResult] = {}
    unreadable: dict[str, str] = {}
    played = 0
    stored = _StoredGames(store, finished)
    with ProgressBar(plan.total_games, "games", args.progress, width=BAR_WIDTH,
                     unit="games") as bar:
        while (tasks := plan.next_round(stored)) is not None:
            found = store.results(task.game_id for task in tasks)
            finished.update(_renamed(found.results, tasks))
            unreadable.update(found.unreadable)
            todo = [task for task in tasks if task.game_id not in finished]
            bar.skip(len(tasks) - len(todo))
            with closing(_games(todo, args)) as games:
                _play(games, store, finished, bar)
            plan.finish_round(finished)
            every += tasks
            played += len(todo)
    return every, finished, played, unreadable


class _StoredGames:
    """What a format may ask the database (``formats.Stored``) while the rounds go on."""

    def __init__(self, store: Store, finished: dict[str, GameResult]) -> None:
        """Answer from ``store``; ``finished`` holds the games handed out and done."""
        self.store = store
        self.finished = finished

    def unused(self) -> bool:
        """Return whether the file holds more games than the tournament has used."""
        return self.store.count() > len(self.finished)

    def present(self, ids: Collection[str]) -> set[str]:
        """Return those of ``ids`` the file holds, readable or not (an unreadable one is
        played again in its round)."""
        found = self.store.results(ids)
        return set(found.results) | set(found.unreadable)


def _print_unreadable(unreadable: dict[str, str], db: str, kind: str = "game",
                      again: str = "played") -> None:
    """Print which stored rows could not be read, and why: the first
    ``UNREADABLE_SHOWN`` of them, then how many more.

    Args:
        unreadable: {game id: why} of the rows.
        db: the database's name as given.
        kind: what the rows hold ('game' or 'review').
        again: what was done with each instead ('played' or 'made' again).
    """
    if not unreadable:
        return
    many = len(unreadable) != 1
    print(plain(f"{len(unreadable)} stored {kind}{'s' if many else ''} in {db} could not "
                f"be read, so {'they were' if many else 'it was'} {again} again:"))
    for game_id, why in list(unreadable.items())[:UNREADABLE_SHOWN]:
        print(textwrap.fill(plain(f"game {game_id}: {why}"), 100, initial_indent="  ",
                            subsequent_indent="    "))
    if len(unreadable) > UNREADABLE_SHOWN:
        print(f"  and {len(unreadable) - UNREADABLE_SHOWN} more")


def _json_document(settings: TournamentPlan, plan: Format, lines: list[Standing],
                   results: list[GameResult], records: Iterator[tuple[str, str]]
                   ) -> dict[str, Any]:
    """Return the machine-readable result (``result_json.tournament_document``)."""
    form, rounds = (SWISS, plan.rounds) if isinstance(plan, SwissRounds) else (ROUND_ROBIN, None)
    return tournament_document(settings, form, rounds, lines, results, records)


def _check_size(games: int) -> None:
    """Raise CliError when the tournament has more games than can be listed up front."""
    if games > MAX_GAMES:
        raise CliError(f"the tournament would play {games:,} games; it may have at most "
                       f"{MAX_GAMES:,} (fewer entrants, games or rounds)")


def _renamed(found: dict[str, GameResult], tasks: list[GameTask]) -> dict[str, GameResult]:
    """Return the stored results ``found`` with the players' names of now: a game's id
    follows a bot's code, not its name, so a renamed bot's games are reused."""
    return {task.game_id: replace(found[task.game_id], white=task.white.name,
                                  black=task.black.name)
            for task in tasks if task.game_id in found}


def _travelling(player: Entrant) -> Entrant:
    """Return ``player`` ready to go to a cluster: a bot given as a folder is packed into
    a zip archive that travels inside its games' tasks (its games' ids stay the same)."""
    if not isinstance(player.bot, BotFolder):
        return player
    try:
        return replace(player, bot=pack_folder(player.bot))
    except BotUnusable as error:
        return replace(player, bot=None, unusable=str(error))


def _games(todo: Sequence[Any], args: argparse.Namespace,
           work: Callable[[Any], Any] = play) -> Generator[Any, None, None]:
    """Return the iterator of finished tasks (games, unless ``work`` says otherwise): on
    the cluster, or on local processes."""
    if args.scheduler is not None:
        return cluster_games(todo, args.scheduler, work)
    return local_games(todo, args.workers, work)


def review_budget(args: argparse.Namespace) -> Budget:
    """Return the budget a position of the reviews the options ask for
    (``--review-nodes``, ``--review-time``; the default nodes without either)."""
    return Budget.chosen(args.review_nodes, None, args.review_time)


def _reviews(store: Store, players: list[Entrant], results: list[GameResult],
             args: argparse.Namespace) -> dict[str, str]:
    """Review the games ``args.review`` asks for on the games' workers; return {game id:
    review JSON} (reviews stored by an earlier run are reused)."""
    chosen = to_review(results, players, args.review)
    reviews, made, unreadable = review_games(
        store, chosen, review_budget(args), lambda tasks: _games(tasks, args, review_game),
        args.progress)
    print()
    _print_unreadable(unreadable, args.db, "review", "made")
    print(plain(f"reviews: {made} made now, {len(chosen) - made} reused from "
                       f"{args.db}"))
    return reviews


def _play(games: Iterator[Finished], store: Store, finished: dict[str, GameResult],
          bar: ProgressBar) -> None:
    """Store each game as it ends (into ``store`` and ``finished``), advancing ``bar``."""
    for result, record in games:
        store.add(result, record)
        finished[result.game_id] = result
        bar.advance()


def _print_header(players: list[Entrant], settings: TournamentPlan, plan: Format) -> None:
    """Print what the tournament plays."""
    conditions = settings.conditions
    if isinstance(plan, SwissRounds):
        pairings = len(players) // 2
        shape = (f"Swiss system, {plan.rounds} rounds of {pairings} pairing"
                 f"{'s' if pairings != 1 else ''}, {settings.games} games a pairing")
    else:
        shape = (f"{len(players) * (len(players) - 1) // 2} pairs, {settings.games} games "
                 "a pair")
    print(f"Tournament, n = {conditions.n}: {len(players)} entrants, {shape} = "
          f"{plan.total_games} games")
    print(f"{settings.opening_plies} random opening plies (seed {settings.seed}), bot depth "
          f"{conditions.depth}, {conditions.time_limit:g} s per bot move\n")


def _print_tables(lines: list[Standing], results: list[GameResult]) -> None:
    """Print the standings, the crosstable (unless too wide) and the first forfeits."""
    order = ("ranked by points, then Buchholz (the points of the opponents met); "
             if any(s.buchholz is not None for s in lines) else "")
    print(render_table(*standings_rows(lines), title=f"Standings ({order}Elo: Bradley-Terry, "
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
