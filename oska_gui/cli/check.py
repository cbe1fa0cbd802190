"""``oska check FILE``: compare someone's ``movegen``/``oskaplayer`` with this project's.

Their code runs in its own process (``bot_process.BotProcess``, loaded by
``play.bot_loader`` as every bot is: a file alone, or a folder, where 'folder:module' is
enough: the functions are named by ``--movegen`` and ``--oskaplayer``), so a hang or a
crash is reported rather than suffered. ``movegen(board, player)`` is compared with ours
as a set of boards (duplicates are reported too) on random-playout positions and tricky
boards (``cases``); ``oskaplayer(board, player, depth)`` must return a legal board in
the form it was given, and the unchanged board when the player has no move.

Exit codes, for grading scripts: 0 every call agreed, 1 a disagreement
was found, 2 the check could not be made or its result not delivered (a bad option, a
file that cannot be loaded, defines neither function or lacks one an option names, a
``--json`` file that cannot be written; the error is one line on stderr).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from oska_gui.bots.answer_caps import BATCH_CALLS, MARGIN, most_moves
from oska_gui.bots.bot_process import BotProcess, CallResult, LoadError
from oska_gui.bots.external import reply_of
from oska_gui.console.options import (
    CliError,
    add_bot_options,
    add_subcommand,
    natural_int,
    positive_int,
)
from oska_gui.console.outputs import check_apart, printing_aside, writable_file, write_json
from oska_gui.console.progress import ProgressBar
from oska_gui.console.table import plain
from oska_gui.games.board_forms import read_board
from oska_gui.games.oska import check_n, oska_rules
from oska_gui.play.bot_loader import open_bot, parse_bot

from .cases import Case, player_cases, playout_cases, tricky_cases, unique
from .check_findings import (
    GIVE_UP_AFTER,
    MOVEGEN,
    PLAYER,
    Finding,
    Stats,
    lists_convention,
    movegen_convention,
    player_convention,
)
from .check_report import print_report, result_document

KINDS = {MOVEGEN: ("missing", "extra", "duplicate", "malformed", "exception", "timeout",
                   "crash", "mutated"),
         PLAYER: ("illegal", "malformed", "exception", "timeout", "crash", "mutated")}
FAILURES = ("timeout", "crash", "load")  # calls that cost a process restart
# Calls per round trip: movegen is quick (as many as a batch may hold); a slow
# oskaplayer would make a batch time out.
BATCH = {MOVEGEN: BATCH_CALLS, PLAYER: 1}
EXAMPLES = """\
examples:
  oska check mine.py                     movegen and oskaplayer on n = 4, 5, 6
  oska check mine.py --sizes 4 --games 100 --show 10
  oska check mine.py --depth 3 --time-limit 20 --movegen move_gen
  oska check team:mine                   the module mine.py of the folder team, which
                                         may import the other modules of team
  oska check mine.py --json result.json   also write the result for a grader
  oska check mine.py --json - | jq .      the JSON on stdout (the report on stderr)

exit codes:
  0  every call agrees with this project's rules
  1  a disagreement was found
  2  the check could not be made or its result not written (one line on stderr)
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``check`` subcommand and its options to ``subparsers``."""
    parser = add_subcommand(
        subparsers, "check", "compare your movegen/oskaplayer with this project's rules",
        "Compare the movegen(board, player) of a Python file with this project's "
        "on positions from random playouts and on tricky boards (jumps across the "
        "middle, pieces at a row's edge or already home, no-move positions), and "
        "check that its oskaplayer(board, player, depth) returns legal boards. The "
        "file runs in its own process with a time limit per call. Exit code 0 when "
        "every call agrees, 1 on any disagreement, 2 when the check could not be made.",
        EXAMPLES)
    parser.add_argument("file", metavar="FILE",
                        help="the Python file to check (alone), or a module that imports "
                             "others of its folder: path/to/folder[:module] (default "
                             "oskaplayer; module.function as for a bot is taken too: the "
                             "module is checked; --movegen and --oskaplayer name the "
                             "functions)")
    parser.add_argument("--sizes", default="4,5,6", metavar="N,N,...",
                        help="board sizes to test (default 4,5,6)")
    parser.add_argument("--games", type=natural_int, default=30,
                        help="random playouts per size (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the playouts (default 1)")
    parser.add_argument("--depth", type=positive_int, default=2,
                        help="depth passed to oskaplayer (default 2)")
    parser.add_argument("--player-positions", type=natural_int, default=12, metavar="K",
                        help="positions per size for oskaplayer, besides the no-move ones "
                             "(default 12)")
    parser.add_argument("--show", type=natural_int, default=2, metavar="K",
                        help="print K disagreements of each kind in full (default 2)")
    parser.add_argument("--json", metavar="FILE",
                        help="also write the result as JSON to FILE, for graders (its "
                             "fields are listed in docs/bots.md; - for standard output)")
    parser.add_argument("--movegen", metavar="NAME",
                        help="the name of the move generator (default movegen); a name "
                             "given must be defined, else exit code 2")
    parser.add_argument("--oskaplayer", metavar="NAME",
                        help="the name of the player function (default oskaplayer); a "
                             "name given must be defined, else exit code 2")
    add_bot_options(parser, "call", "the file")
    parser.set_defaults(run=run)


@dataclass
class Checker:
    """Runs one function of the file (``role`` MOVEGEN or PLAYER) over cases."""

    role: str
    function: str
    process: BotProcess
    time_limit: float
    stats: dict[int, Stats] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    failures: int = 0
    skipped: int = 0

    def call(self, args: list) -> CallResult | None:
        """Call the function (None once it has hung or crashed too often)."""
        if self.failures >= GIVE_UP_AFTER:
            self.skipped += 1
            return None
        result = self.process.run(self.function, args, self.time_limit)
        self.failures += result.status in FAILURES
        return result

    def call_many(self, arg_lists: list[list]) -> list[CallResult | None]:
        """Call the function on each argument list: in one batch, else one by one.

        A batch that does not finish (a hang or a crash inside it) is made again call
        by call, so that the failure is pinned on the right case.
        """
        if self.failures < GIVE_UP_AFTER:
            results = self.process.run_batch(self.function, arg_lists, self.time_limit)
            if results is not None:
                self.failures += sum(result.status in FAILURES for result in results)
                return list(results)
        return [self.call(args) for args in arg_lists]

    def record(self, case: Case, finding: Finding | None, special: bool = False) -> None:
        """Count one checked case (``special``: a no-move case) and keep its finding."""
        stats = self.stats.setdefault(case.n, Stats())
        stats.calls += 1
        stats.special += special
        if finding is not None:
            stats.problems.update(finding.kinds)
            stats.problems["_any"] += 1
            self.findings.append(finding)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Return the kinds of problem this function can have, in table order."""
        return KINDS[self.role]


def run(args: argparse.Namespace) -> int:
    """Check the file named in ``args``; print the report; return 0, 1 or 2."""
    try:
        spec = parse_bot(args.file, module_alone=True)
    except ValueError as error:
        raise CliError(str(error)) from None
    sizes = parse_sizes(args.sizes)
    if args.json:
        args.json = writable_file(args.json, "--json", stdout=True)
        check_apart({"--json": args.json}, {spec.path: f"the bot {spec.name}"})
    try:
        bot = open_bot(spec, echo=args.bot_output)
    except LoadError as error:
        raise CliError(str(error)) from None
    try:
        with printing_aside(args.json):
            exit_code, document = check_file(bot.process, sizes, args)
    finally:
        bot.close()
    if args.json:
        write_json(args.json, document, "--json")
    return exit_code


def parse_sizes(text: str) -> list[int]:
    """Return the board sizes in '4,5,6'; raises CliError unless all are supported sizes."""
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise CliError(f"--sizes takes board sizes like 4,5,6, not {text!r:.80}") from None
    if not sizes:
        raise CliError("--sizes takes board sizes like 4,5,6, not nothing")
    try:
        return sorted({check_n(n) for n in sizes})
    except ValueError as error:
        raise CliError(f"--sizes: {error}") from None


def check_file(process: BotProcess, sizes: list[int],
               args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    """Run every check the file allows and print the report.

    Returns:
        The exit code (0 all agree, 1 a disagreement) and the JSON result.
    """
    names = functions_to_check(process, args)
    print(plain(f"Checking {', '.join(names.values())} in {process.label} against this "
                "project's rules"))
    rng = random.Random(args.seed)
    # Tricky boards first: they are the simplest to read when one disagrees.
    cases = {n: unique(tricky_cases(oska_rules(n))
                       + playout_cases(oska_rules(n), args.games, rng)) for n in sizes}
    plays = {n: player_cases(oska_rules(n), cases[n], args.player_positions, rng)
             for n in sizes}
    checkers = [Checker(role, name, process, args.time_limit) for role, name in names.items()]
    inputs = {MOVEGEN: cases, PLAYER: plays}
    total = sum(len(inputs[checker.role][n]) for checker in checkers for n in sizes)
    with ProgressBar(total, "check", args.progress) as bar:
        for n in sizes:
            for checker in checkers:
                todo = inputs[checker.role][n]
                for start in range(0, len(todo), BATCH[checker.role]):
                    chunk = todo[start:start + BATCH[checker.role]]
                    CHECKS[checker.role](checker, chunk, args.depth)
                    bar.advance(len(chunk), note=f"{checker.function} n = {n}")
    exit_code = print_report(checkers, args)
    return exit_code, result_document(checkers, args, process.label, exit_code)


def functions_to_check(process: BotProcess, args: argparse.Namespace) -> dict[str, str]:
    """Load the code and return the functions to check, by role (MOVEGEN, PLAYER).

    A function named by its option (``--movegen``, ``--oskaplayer``) must be defined; of
    the standard names (the roles themselves), those defined are checked, and at least
    one must be.

    Args:
        process: the code's process, not loaded yet.
        args: the command's options.

    Returns:
        {role: function name}, MOVEGEN first.

    Raises:
        CliError: the code does not load, lacks a function named by an option, or
            defines neither standard name.
    """
    try:
        functions = process.wait_ready()
    except LoadError as error:
        raise CliError(str(error), error.traceback) from None
    defined = f"it defines: {', '.join(functions) or 'nothing'}"
    names = {}
    for role in (MOVEGEN, PLAYER):
        named = vars(args)[role]  # each role's option is named after it: --movegen NAME
        if named is not None and named not in functions:
            raise CliError(f"{process.label} has no function {named!r} (named by --{role}; "
                           f"{defined})")
        if (named or role) in functions:
            names[role] = named or role
    if not names:
        raise CliError(f"{process.label} defines neither {MOVEGEN!r} nor {PLAYER!r} "
                       f"({defined})")
    return names


def check_movegen(checker: Checker, cases: list[Case], depth: int) -> None:
    """Call ``movegen`` on each case and record whether it agrees with ours (no depth)."""
    del depth  # movegen has none; the parameter keeps the CHECKS functions alike
    results = checker.call_many([[list(case.rows), case.player] for case in cases])
    for case, result in zip(cases, results, strict=True):
        if result is not None:
            checker.record(case, judge_movegen(checker.function, case, result))


def judge_movegen(function: str, case: Case, result: CallResult) -> Finding | None:
    """Compare a ``movegen`` result with ours: None when it agrees, else the Finding."""
    if not result.ok:
        kind = "malformed" if result.status == "unplain" else \
            "crash" if result.status == "load" else result.status
        return Finding(MOVEGEN, function, case, [kind], result.detail)
    boards, problem = read_boards(result.value, case.n)
    if problem:
        return Finding(MOVEGEN, function, case, ["malformed"], problem,
                       convention=lists_convention(result.value, case.n, MOVEGEN))
    rules = oska_rules(case.n)
    pos = case.position(rules)
    ours = {tuple(rules.to_rows(kid)) for kid in rules.real_children(pos)}
    counts = Counter(boards)
    finding = Finding(MOVEGEN, function, case, [],
                      missing=sorted(ours - counts.keys()), extra=sorted(counts.keys() - ours),
                      duplicates=sorted(board for board, k in counts.items() if k > 1),
                      convention=movegen_convention(rules, pos, case.rows, case.player,
                                                    boards, ours))
    for kind, present in (("missing", finding.missing), ("extra", finding.extra),
                          ("duplicate", finding.duplicates), ("mutated", result.mutated)):
        if present:
            finding.kinds.append(kind)
    if finding.kinds:
        finding.detail = (f"yours: {plural(len(boards), 'board')}, ours: {len(ours)}"
                          + ("; it changed the board it was given" if result.mutated else ""))
        return finding
    return None


def plural(count: int, noun: str) -> str:
    """Return e.g. '1 board' or '3 boards'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def read_boards(value: Any, n: int) -> tuple[list[tuple[str, ...]], str]:
    """Return the boards of a ``movegen`` result and '' , or [] and what is wrong."""
    if not isinstance(value, list):
        return [], f"returned a {type(value).__name__}, not a list of boards"
    if len(value) > MARGIN * most_moves(n):  # reading them would take long for nothing
        return [], (f"returned {len(value):,} boards; a position of n = {n} has at most "
                    f"{most_moves(n)} moves")
    boards = []
    for i, item in enumerate(value):
        try:
            rules, rows, form = read_board(item)
        except (TypeError, ValueError) as error:
            return [], f"board {i} of the list: {error}"
        if form.as_lists or rules.n != n:
            return [], f"board {i} of the list is not in the form given (n = {n}, row strings)"
        boards.append(tuple(rows))
    return boards, ""


def check_player(checker: Checker, cases: list[Case], depth: int) -> None:
    """Call ``oskaplayer`` on each case (one by one) and record whether it is legal."""
    for case in cases:
        check_one_move(checker, case, depth)


def check_one_move(checker: Checker, case: Case, depth: int) -> None:
    """Call ``oskaplayer`` on one case and record whether its answer is legal."""
    rules = oska_rules(case.n)
    no_move = not rules.has_move(case.position(rules))
    result = checker.call([list(case.rows), case.player, depth])
    if result is None:
        return
    reply = reply_of(result, list(case.rows), case.player)
    kinds = ([reply.reason] if reply.reason else []) + (["mutated"] if reply.mutated else [])
    finding = None
    if kinds:
        detail = reply.detail + ("; it changed the board it was given" if reply.mutated else "")
        boards, _ = read_boards([result.value], case.n) if result.ok else ([], "")
        convention = player_convention(result.value, case.n, not no_move) if result.ok else ""
        finding = Finding(PLAYER, checker.function, case, kinds, detail,
                          returned=boards[0] if boards else None, convention=convention)
    checker.record(case, finding, no_move)


CHECKS = {MOVEGEN: check_movegen, PLAYER: check_player}
