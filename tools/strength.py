"""How strong the AI plays: ``python -m tools.strength [--quick]``.

Prints three tables, using every core:

1. **Exact choices.** On solved positions where the choice matters (the moves do not
   all have the same game-theoretic value), how often the move chosen throws the value
   away (a won position played into a draw or loss, a drawn one into a loss): by
   ``oskaplayer`` at a fixed depth and by ``oska analyze --time S``. The positions come
   from exact datasets (``oska solve --n N --dataset FILE``, needs the ``solve`` extra);
   the first ``--positions`` samples of each are used. Without numpy or a dataset the
   table says so and the rest still runs.
2. **Equal-depth matches.** The default evaluator against each sparring partner
   (``race``, ``simple``, ``classic``) at equal depth, both colours from seeded random
   openings (``n - 2`` random plies, or ``--opening-plies``), played to the end (no ply
   cap: every game ends), as the share of the points; also how many games were lost by
   a pass forced by the loser's own pieces (``--losses`` prints how every lost game
   ended). ``race`` is the race-count bot: rows to go and nothing else, captures
   ignored (a capture only takes the rows its piece had to go), searched to the same
   depth; it is the opponent that makes a side wall itself in, so ``--walls`` plays it
   alone from 2-ply openings, 100 games a cell on n = 6 and 8 at depths 2 and 3.
3. **Equal time.** The default evaluator against ``classic`` with the same thinking
   time a move (iterative deepening, as the timed levels play): what a slower but
   better evaluator is worth where players feel it.
4. **Evaluator speed**: evaluations a second on positions of random games.

Two more tables, each a run of its own, show whether a deeper search plays at least as
well as a shallower one (``--deeper``, ``--convert``):

5. **Deeper against shallower.** The default evaluator at depth d + 1 and d + 2 against
   itself at depth d, d = 1..4, both colours from the same seeded 4-ply openings (seeds
   1, 2, ...), as the deeper side's share of the points.
6. **Conversions against an exact defender.** On a board whose solved game is kept (n = 4
   ships; n = 5 where ``oska solve --n 5 --save`` was run), ``oskaplayer`` at each depth
   1-10 plays White from the start and from every 2-ply opening White wins, against a
   defender that plays exactly (the fastest win, the slowest loss): how many it wins.
"""

from __future__ import annotations

import argparse
import os
import random
import textwrap
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from oska_gui.core.types import BLACK, SIDE_WORDS, WHITE, Position
from oska_gui.engine.evaluators import DEFAULT_EVALUATOR, oska_evaluator
from oska_gui.engine.registry import GameKind
from oska_gui.engine.search import Thinker, best_child
from oska_gui.engine.solved_file import solved_children
from oska_gui.games.oska import OskaRules, oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import Level
from oska_gui.play.players import DepthPlayer, ForcedMoves
from oska_gui.play.records import Record
from oska_gui.play.runner import Runner
from oska_gui.play.search_player import SearchPlayer
from oska_gui.play.selfplay import play_game, random_opening

SPARRING = ("race", "simple", "classic")
DATASETS = (Path("data/n4_exact.npz"), Path("data/n5_exact.npz"))


@dataclass(frozen=True)
class Plan:
    """What to measure: board sizes, depths, games a cell, positions and thinking times."""

    sizes: tuple[int, ...]
    depths: tuple[int, ...]
    games: int
    opponents: tuple[str, ...]
    positions: int
    choice_depth: int
    think: tuple[float, ...]
    datasets: tuple[Path, ...]
    timed_sizes: tuple[int, ...] = (6, 8)
    timed_games: int = 20
    move_seconds: float = 0.2
    opening_plies: int | None = None  # None: n - 2


FULL = Plan((4, 5, 6, 8), (2, 3, 4), 40, SPARRING, 200, 4, (1.0, 3.0), DATASETS)
QUICK = Plan((4, 6), (2, 3), 10, SPARRING, 60, 4, (), DATASETS, (6,), 4, 0.1)
WALLS = Plan((6, 8), (2, 3), 100, ("race",), 0, 4, (), (), (), 0, 0.0, 2)
DEEPER = Plan((6, 8), (1, 2, 3, 4), 100, (), 0, 4, (), (), (), 0, 0.0, 4)
CONVERT = Plan((4, 5), tuple(range(1, 11)), 0, (), 0, 4, (), (), (), 0, 0.0, 2)


# -- exact choices ---------------------------------------------------------------------


@dataclass(frozen=True)
class ChoiceJob:
    """One solved position to play: how to choose, and the values of every move."""

    n: int
    pos: Position
    depth: int
    seconds: float
    kept: frozenset[Position]  # the children that keep the value


def choice_jobs(path: Path, count: int, depth: int, seconds: float) -> list[ChoiceJob]:
    """Return jobs for the first ``count`` samples of ``path`` where the choice matters,
    among the positions held out of training (``exact_dataset.is_held_out``)."""
    from oska_gui.engine.exact_dataset import is_held_out, load_dataset  # numpy: only when measured

    dataset = load_dataset(path)
    jobs: list[ChoiceJob] = []
    for i in range(len(dataset)):
        if len(jobs) == count:
            break
        if dataset.choice_matters(i) and is_held_out(dataset.rules, dataset.position(i)):
            kept = frozenset(kid for kid, _ in dataset.children(i) if dataset.keeps_value(i, kid))
            jobs.append(ChoiceJob(dataset.n, dataset.position(i), depth, seconds, kept))
    return jobs


def keeps_value(job: ChoiceJob) -> bool:
    """Play ``job``'s position by depth or by time; return True if the value is kept."""
    rules = oska_rules(job.n)
    evaluate = oska_evaluator(rules, DEFAULT_EVALUATOR)
    if job.seconds:
        thinker = Thinker(rules, evaluate, job.pos, 64, job.seconds)
        while not thinker.advance(0.5):
            pass
        return thinker.best in job.kept
    return best_child(rules, evaluate, job.pos, job.depth) in job.kept


def choice_rows(plan: Plan, pool: ProcessPoolExecutor) -> Iterator[list[str]]:
    """Yield one table row per dataset and way of choosing: positions and value lost."""
    ways = [(plan.choice_depth, 0.0)] + [(0, seconds) for seconds in plan.think]
    for path in plan.datasets:
        if not path.exists():
            yield [str(path), "-", "missing: oska solve --n N --dataset FILE", "-"]
            continue
        for depth, seconds in ways:
            if seconds and "n4" in path.name:
                continue  # n = 4 is solved outright by the levels that think for a time
            jobs = choice_jobs(path, plan.positions, depth, seconds)
            kept = list(pool.map(keeps_value, jobs, chunksize=4))
            how = f"oskaplayer depth {depth}" if depth else f"analyze --time {seconds:g}"
            lost = kept.count(False)
            yield [path.name, how, f"{len(jobs)}", f"{100 * lost / max(1, len(jobs)):.1f} %"]


# -- matches ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchJob:
    """One game of a match: board size, depth, opponent, opening seed, our colour and
    the opening's random plies."""

    n: int
    depth: int
    opponent: str
    seed: int
    colour: int
    opening_plies: int | None = None  # None: n - 2

    @property
    def title(self) -> str:
        """Return the match and opening of this game, e.g. 'n = 6, depth 2, against race,
        opening seed 6014'."""
        return (f"n = {self.n}, depth {self.depth}, against {self.opponent}, "
                f"opening seed {self.seed}")


class MatchGame(NamedTuple):
    """How one game of a match ended for us."""

    job: MatchJob
    points: float  # 1, 0.5 or 0
    self_blocked: bool  # lost by a pass forced by our own pieces
    final: Position  # the position the game ended in
    reason: str  # why it ended (``Outcome.reason``)
    plies: int  # the game's length, opening included
    seconds: float  # the wall-clock time it took

    def line(self) -> str:
        """Return the game in one line: the match, our colour, the result, its length."""
        result = {1.0: "won", 0.5: "drawn", 0.0: "lost"}[self.points]
        return (f"{self.job.title}, as {SIDE_WORDS[self.job.colour]}: {result} in "
                f"{self.plies} plies ({self.seconds:.0f} s)")


def play(job: MatchJob) -> MatchGame:
    """Play ``job``; return our points, whether a self-made pass lost it, and its end."""
    start = time.perf_counter()
    rules = oska_rules(job.n)
    ours = DepthPlayer(DEFAULT_EVALUATOR, oska_evaluator(rules, DEFAULT_EVALUATOR), job.depth,
                       rules)
    theirs = DepthPlayer(job.opponent, oska_evaluator(rules, job.opponent), job.depth, rules)
    white, black = (ours, theirs) if job.colour == WHITE else (theirs, ours)
    plies = job.n - 2 if job.opening_plies is None else job.opening_plies
    record = play_game(rules, white, black, plies, random.Random(job.seed))
    winner, final = record.outcome.winner, record.positions()[-1]
    points = 0.5 if winner is None else float(winner == job.colour)
    self_blocked = points == 0.0 and self_blocked_pass(rules, record, job.colour)
    return MatchGame(job, points, self_blocked, final, record.outcome.reason, len(record.moves),
                     time.perf_counter() - start)


def self_blocked_pass(rules: OskaRules, record: Record, side: int) -> bool:
    """Return True when ``side`` passed in ``record`` with only its own pieces in the way.

    Such a pass means the side walled itself in: every piece of it away from home had
    its forward cells taken by its own pieces.
    """
    positions = record.positions()
    for before, after in zip(positions, positions[1:], strict=False):
        if before.turn == side and (before.white, before.black) == (after.white, after.black):
            own, opp = before[side], before[1 - side]
            away = [cell for cell in range(rules.size)
                    if own >> cell & 1 and not rules.goal[side] >> cell & 1]
            if all(not any(opp & to for to in rules.steps[side][cell]) for cell in away):
                return True
    return False


def game_jobs(plan: Plan) -> list[MatchJob]:
    """Return every game of the match plan: both colours of each seeded opening."""
    return [MatchJob(n, depth, opponent, 1000 * n + 7 * depth + i, colour, plan.opening_plies)
            for n in plan.sizes for depth in plan.depths for opponent in plan.opponents
            for i in range(plan.games // 2) for colour in (WHITE, BLACK)]


def match_rows(plan: Plan, pool: ProcessPoolExecutor,
               progress: bool = False) -> tuple[list[list[str]], list[MatchGame]]:
    """Return one row per board size and depth (our share of the points per opponent,
    with the games won, drawn and lost) and the games we lost; with ``progress``, print
    each game as it ends (a long plan then leaves figures even if stopped)."""
    points: dict[tuple[int, int, str], list[float]] = {}
    lost = []
    for result in pool.map(play, game_jobs(plan), chunksize=1 if progress else 2):
        if progress:
            print(result.line(), flush=True)
        job = result.job
        points.setdefault((job.n, job.depth, job.opponent), []).append(result.points)
        if result.points == 0.0:
            lost.append(result)
    rows = []
    for n in plan.sizes:
        for depth in plan.depths:
            cells = [points[n, depth, opponent] for opponent in plan.opponents]
            rows.append([str(n), str(depth)] + [cell_text(c) for c in cells])
    return rows, lost


def cell_text(points: list[float]) -> str:
    """Return a match cell: our share of the points, the games, and won-drawn-lost."""
    won, drawn = points.count(1.0), points.count(0.5)
    return (f"{100 * sum(points) / len(points):.1f} % ({len(points)}: "
            f"{won}-{drawn}-{len(points) - won - drawn})")


def describe_loss(result: MatchGame) -> str:
    """Return a lost game in a few lines: the match, why it ended, its final position
    (as the row strings ``oska analyze`` reads, and as a picture)."""
    job = result.job
    rules = oska_rules(job.n)
    pass_note = "; lost by a pass forced by our own pieces" if result.self_blocked else ""
    return "\n".join([
        f"{job.title}, {DEFAULT_EVALUATOR} played {SIDE_WORDS[job.colour]}: "
        f"{result.reason}{pass_note}",
        f"  {rules.to_rows(result.final)}",
        textwrap.indent(rules.picture(result.final), "    ")])


# -- deeper against shallower ---------------------------------------------------------------


@dataclass(frozen=True)
class DeeperJob:
    """One game of the default evaluator against itself: board size, the deeper and the
    shallower depth, the opening's seed and random plies, and the deeper side's colour."""

    n: int
    deep: int
    shallow: int
    seed: int
    opening_plies: int
    colour: int


def deeper_jobs(plan: Plan) -> list[DeeperJob]:
    """Return every game of the deeper-against-shallower plan: depth d + 1 and d + 2
    against d for each d of ``plan.depths``, both colours of the openings of seeds 1 to
    ``plan.games // 2`` (the same openings for every pairing)."""
    plies = 4 if plan.opening_plies is None else plan.opening_plies
    return [DeeperJob(n, shallow + more, shallow, seed, plies, colour)
            for n in plan.sizes for shallow in plan.depths for more in (1, 2)
            for seed in range(1, plan.games // 2 + 1) for colour in (WHITE, BLACK)]


def play_deeper(job: DeeperJob) -> float:
    """Play ``job``; return the deeper side's points (1, 0.5 or 0)."""
    rules = oska_rules(job.n)
    evaluate = oska_evaluator(rules, DEFAULT_EVALUATOR)
    deep = DepthPlayer(f"depth {job.deep}", evaluate, job.deep, rules)
    shallow = DepthPlayer(f"depth {job.shallow}", evaluate, job.shallow, rules)
    white, black = (deep, shallow) if job.colour == WHITE else (shallow, deep)
    winner = play_game(rules, white, black, job.opening_plies,
                       random.Random(job.seed)).outcome.winner
    return 0.5 if winner is None else float(winner == job.colour)


def deeper_rows(plan: Plan, pool: ProcessPoolExecutor) -> list[list[str]]:
    """Return one row per board size and shallower depth d: the share of the points of
    depth d + 1 and of depth d + 2 against depth d, with their games won-drawn-lost."""
    jobs = deeper_jobs(plan)
    points: dict[tuple[int, int, int], list[float]] = {}
    for job, result in zip(jobs, pool.map(play_deeper, jobs, chunksize=2), strict=True):
        points.setdefault((job.n, job.deep, job.shallow), []).append(result)
    return [[str(n), str(d), cell_text(points[n, d + 1, d]), cell_text(points[n, d + 2, d])]
            for n in plan.sizes for d in plan.depths]


# -- conversions against an exact defender --------------------------------------------------


@dataclass(frozen=True)
class ConvertJob:
    """One won position for White to convert at ``depth`` against an exact defender."""

    n: int
    depth: int
    pos: Position


def exact_reply(n: int, pos: Position) -> Position:
    """Return the solved game's best move in ``pos`` (the fastest win, else the slowest
    loss); raises LookupError when no solved file of board ``n`` knows it."""
    ranked = solved_children(n, pos)
    if ranked is None:
        raise LookupError(f"no solved file of n = {n} knows this position")
    return ranked[0][0][0]


def converts(job: ConvertJob) -> bool:
    """Play ``job``'s position to the end, White by ``oskaplayer`` at the job's depth and
    Black exactly; return True when White wins."""
    rules = oska_rules(job.n)
    evaluate = oska_evaluator(rules, DEFAULT_EVALUATOR)
    pos = job.pos
    while rules.terminal(pos) is None and rules.children(pos):
        if pos.turn == WHITE:
            pos = best_child(rules, evaluate, pos, job.depth)
        else:
            pos = exact_reply(job.n, pos)
    return rules.terminal(pos) == (1 if pos.turn == WHITE else -1)


def white_wins(n: int) -> list[Position] | None:
    """Return the start of board ``n`` and every position after two plies from it that
    White wins with perfect play (the start first); None when no solved file of board
    ``n`` is kept."""
    rules = oska_rules(n)
    if solved_children(n, rules.start()) is None:
        return None
    after_two = dict.fromkeys(second for first in rules.children(rules.start())
                              for second in rules.children(first))
    won = [pos for pos in after_two
           if rules.terminal(pos) is None and (ranked := solved_children(n, pos)) is not None
           and ranked[0][0][1].result == 1]
    return [rules.start(), *won]


def convert_rows(plan: Plan, pool: ProcessPoolExecutor) -> Iterator[list[str]]:
    """Yield one row per board size kept solved and depth: whether White won from the
    start, and how many of the 2-ply openings White wins it converted."""
    for n in plan.sizes:
        roots = white_wins(n)
        if roots is None:
            yield [str(n), "-", "no solved file: oska solve --n N --save", "-"]
            continue
        for depth in plan.depths:
            won = list(pool.map(converts, [ConvertJob(n, depth, pos) for pos in roots]))
            yield [str(n), str(depth), "won" if won[0] else "LOST",
                   f"{sum(won[1:])} of {len(won) - 1}"]


# -- equal time -------------------------------------------------------------------------


def play_timed(job: MatchJob, seconds: float) -> float:
    """Play ``job`` with ``seconds`` a move for both sides (a forced move at once);
    return our points."""
    rules = oska_rules(job.n)
    game = make_game(GameKind.OSKA, job.n)
    rng = random.Random(job.seed)
    opening = random_opening(rules, job.n - 2, rng)
    names = {job.colour: DEFAULT_EVALUATOR, 1 - job.colour: job.opponent}
    level = Level("time", f"{seconds:g} s", seconds=seconds)
    sides = [ForcedMoves(SearchPlayer(game, level, names[side]), rules) for side in (WHITE, BLACK)]
    outcome = Runner(rules, sides, opening[-1:], slice_seconds=seconds).run()
    return 0.5 if outcome.winner is None else float(outcome.winner == job.colour)


def timed_rows(plan: Plan, pool: ProcessPoolExecutor) -> Iterator[list[str]]:
    """Yield one row per board size: our share of the points at equal time."""
    for n in plan.timed_sizes:
        jobs = [MatchJob(n, 0, "classic", 5000 + i, colour)
                for i in range(plan.timed_games // 2) for colour in (WHITE, BLACK)]
        points = list(pool.map(play_timed, jobs, [plan.move_seconds] * len(jobs)))
        yield [str(n), f"{plan.move_seconds:g} s", "classic",
               f"{100 * sum(points) / len(points):.0f} % ({len(points)})"]


# -- speed -----------------------------------------------------------------------------


def leaves(rules: OskaRules, count: int, seed: int) -> list[Position]:
    """Return ``count`` positions from seeded random games, as searches meet them."""
    rng = random.Random(seed)
    return [random_opening(rules, rng.randint(1, 4 * rules.n), rng)[-1] for _ in range(count)]


def speed_rows(sizes: Iterable[int], names: Iterable[str]) -> Iterator[list[str]]:
    """Yield evaluations a second of each evaluator, per board size."""
    names = tuple(names)
    for n in sizes:
        rules = oska_rules(n)
        positions = leaves(rules, 5000, n)
        row = [str(n)]
        for name in names:
            evaluate = oska_evaluator(rules, name)
            start = time.perf_counter()
            for pos in positions:
                evaluate(pos)
            row.append(f"{len(positions) / (time.perf_counter() - start):,.0f}")
        yield row


# -- the command -------------------------------------------------------------------------


def print_table(title: str, header: list[str], rows: Iterable[list[str]]) -> None:
    """Print a titled table, one row as soon as it is known."""
    from oska_gui.console.table import render_table

    rows = list(rows)
    print(f"\n{title}\n{render_table(header, rows)}", flush=True)


def parse_depths(text: str) -> tuple[int, ...]:
    """Return the depths of ``text``: '2-10', '4' or '2,4,6' (each >= 1)."""
    depths: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        depths += range(int(first), int(last or first) + 1)
    if not depths or min(depths) < 1:
        raise argparse.ArgumentTypeError(f"depths must be 1 or more, got {text!r}")
    return tuple(depths)


def main(argv: list[str] | None = None) -> int:
    """Run the strength benchmark with the command-line ``argv``; return 0."""
    parser = argparse.ArgumentParser(prog="python -m tools.strength",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (about a minute)")
    parser.add_argument("--walls", action="store_true",
                        help="matches alone, against the race-count bot from 2-ply openings")
    parser.add_argument("--deeper", action="store_true",
                        help="only the default evaluator against itself: depth d + 1 and "
                             "d + 2 against d (d = --depths, default 1-4) on n = 6 and 8")
    parser.add_argument("--convert", action="store_true",
                        help="only the conversions against an exact defender (n = 4, and 5 "
                             "when solved), depths 1-10")
    parser.add_argument("--games", type=int, help="games per match cell (even)")
    parser.add_argument("--sizes", help="board sizes, e.g. 4,5,6,8")
    parser.add_argument("--depths", type=parse_depths, help="depths, e.g. 2,3,4 or 1-10")
    parser.add_argument("--positions", type=int, help="exact positions per dataset")
    parser.add_argument("--opponents", help=f"match opponents, e.g. {','.join(SPARRING)}")
    parser.add_argument("--opening-plies", type=int, help="random plies of each opening")
    parser.add_argument("--skip", default="", help="sections to skip: choices,matches,timed,speed")
    parser.add_argument("--progress", action="store_true",
                        help="print each match game as it ends")
    parser.add_argument("--losses", action="store_true",
                        help="print the final position of every match game lost")
    parser.add_argument("--workers", type=int, default=os.cpu_count(),
                        help="processes playing at once (default: one per core)")
    args = parser.parse_args(argv)
    plan = (WALLS if args.walls else DEEPER if args.deeper else CONVERT if args.convert
            else QUICK if args.quick else FULL)
    plan = replace(
        plan,
        sizes=tuple(map(int, args.sizes.split(","))) if args.sizes else plan.sizes,
        depths=args.depths or plan.depths,
        games=args.games or plan.games, positions=args.positions or plan.positions,
        opponents=tuple(args.opponents.split(",")) if args.opponents else plan.opponents,
        opening_plies=plan.opening_plies if args.opening_plies is None else args.opening_plies)
    if args.walls:
        args.skip += ",choices,timed,speed"
    if args.deeper or args.convert:
        args.skip += ",choices,matches,timed,speed"
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        if args.deeper:
            print_table(f"Deeper against shallower: {DEFAULT_EVALUATOR} at depth d + 1 and "
                        "d + 2 against itself at d, the deeper side's share (games)",
                        ["n", "d", "d + 1 vs d", "d + 2 vs d"], deeper_rows(plan, pool))
        if args.convert:
            print_table("Conversions: oskaplayer as White against an exact defender",
                        ["n", "depth", "from the start", "2-ply openings White wins"],
                        convert_rows(plan, pool))
        if "choices" not in args.skip:
            print_table("Exact choices: moves that throw the game-theoretic value away",
                        ["dataset", "chosen by", "positions", "value lost"],
                        choice_rows(plan, pool))
        if "matches" not in args.skip:
            rows, lost = match_rows(plan, pool, args.progress)
            print_table(f"Equal depth: {DEFAULT_EVALUATOR}'s share of the points (games)",
                        ["n", "depth", *plan.opponents], rows)
            walled = sum(result.self_blocked for result in lost)
            print(f"games lost by a pass forced by the loser's own pieces: {walled}")
            if args.losses:
                print(f"\n{len(lost)} games lost, as they ended:")
                for result in lost:
                    print(describe_loss(result))
        if "timed" not in args.skip:
            print_table(f"Equal time: {DEFAULT_EVALUATOR}'s share of the points (games)",
                        ["n", "a move", "against", "score"], timed_rows(plan, pool))
    if "speed" not in args.skip:
        print_table("Evaluations a second on positions of random games",
                    ["n", DEFAULT_EVALUATOR, *SPARRING], speed_rows(plan.sizes,
                                                                    (DEFAULT_EVALUATOR,
                                                                     *SPARRING)))
    print(f"\n{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
