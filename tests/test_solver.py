"""Tests of the exact solver: the n = 4 Oska solution, agreement with alpha-beta, budgets."""

from __future__ import annotations

import gc
import random
import time

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.engine.search import analyse, is_game_end, plies_to_end, run
from oska_gui.engine.solver import (
    PAUSE_EVERY,
    SHARDS,
    Solution,
    SolveJob,
    Solver,
    TooBig,
    covered,
    perfect_child,
    solve,
    solver_for,
)
from oska_gui.games.oska import BLACK, WHITE, OskaRules, Position, oska_rules

RULES4 = oska_rules(4)


def is_over(rules: OskaRules, pos: Position) -> bool:
    """Return True when the game is over in ``pos`` (won, lost, drawn or deadlocked)."""
    return rules.terminal(pos) is not None or not rules.children(pos)


def random_line(rules: OskaRules, rng: random.Random) -> list[Position]:
    """Return the positions of one random game from the start to its end."""
    line = [rules.start()]
    while not is_over(rules, line[-1]):
        line.append(rng.choice(rules.children(line[-1])))
    return line


def late_positions(n: int, games: int, last: int, seed: int) -> list[Position]:
    """Return the positions at most ``last`` plies before the end of random games."""
    rules, rng = oska_rules(n), random.Random(seed)
    out = []
    for _ in range(games):
        line = random_line(rules, rng)
        out.extend(pos for pos in line[-last:] if not is_over(rules, pos))
    return out


def reachable_count(rules: OskaRules, root: Position, limit: int = 200_000) -> int:
    """Return how many positions are reachable from ``root`` (root included).

    Stops counting past ``limit`` (and returns a number above it) to bound memory.
    """
    seen, todo = {root}, [root]
    while todo and len(seen) <= limit:
        pos = todo.pop()
        if rules.terminal(pos) is None:
            for kid in rules.children(pos):
                if kid not in seen:
                    seen.add(kid)
                    todo.append(kid)
    return len(seen)


def max_plies(rules: OskaRules, pos: Position) -> int:
    """Return a bound on the plies left: each move advances a piece, passes never pair up."""
    distance = sum(rules.rows_to_go[side][cell] for side in (WHITE, BLACK)
                   for cell in range(rules.size) if pos[side] >> cell & 1)
    return 2 * distance + 1


@pytest.fixture(scope="module")
def start4() -> Solution:
    """The solved n = 4 start (solved once per test module; the solver caches it)."""
    return solve(RULES4, RULES4.start())


@pytest.mark.slow
def test_n4_start_is_a_white_win(start4: Solution) -> None:
    """docs/rules.md: the n = 4 start is a win for White; perfect play lasts ``plies`` plies."""
    assert start4.result == 1
    pos, plies = RULES4.start(), 0
    while not is_over(RULES4, pos):
        pos, plies = perfect_child(RULES4, pos), plies + 1
    assert RULES4.outcome(pos).winner == WHITE
    assert plies == start4.plies


@pytest.mark.slow
def test_perfect_white_never_loses_from_the_n4_start(start4: Solution) -> None:
    """Perfect White against every Black reply: every game is a White win in time."""
    longest: dict[Position, int] = {}

    def walk(pos: Position) -> int:
        """Check every game from ``pos`` is a White win; return the longest one's plies."""
        if pos in longest:
            return longest[pos]
        if is_over(RULES4, pos):
            outcome = RULES4.outcome(pos)
            assert outcome is not None and outcome.winner == WHITE, RULES4.picture(pos)
            length = 0
        elif pos.turn == WHITE:
            length = 1 + walk(perfect_child(RULES4, pos))
        else:
            length = 1 + max(walk(kid) for kid in RULES4.children(pos))
        longest[pos] = length
        return length

    assert walk(RULES4.start()) == start4.plies  # Black's best defence lasts that long
    assert len(longest) > 1000  # the walk did branch over Black's replies


@pytest.mark.slow
@pytest.mark.parametrize(("n", "seed"), [(4, 1), (4, 2), (5, 3), (6, 4)])
def test_solver_agrees_with_alpha_beta_proofs(n: int, seed: int, start4: Solution) -> None:
    """Whenever alpha-beta proves a win or loss it has the solver's result and plies.

    And whenever the solver's win or loss ends within the search depth, alpha-beta sees it.
    """
    rules, depth = oska_rules(n), 6
    evaluate = oska_evaluator(rules, "strong")
    proofs = 0
    for pos in late_positions(n, games=6, last=10, seed=seed):
        if not covered(rules, pos, max_positions=20_000):
            continue
        exact = solve(rules, pos, max_positions=20_000)
        score = analyse(rules, evaluate, pos, depth).score
        if is_game_end(score):
            proofs += 1
            assert (1 if score > 0 else -1, plies_to_end(score)) == exact
        else:
            assert exact.result == 0 or exact.plies > depth
    assert proofs > 10


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([4, 5]), seed=st.integers(0, 2**32 - 1),
       whites=st.integers(1, 2), blacks=st.integers(1, 2), turn=st.sampled_from([WHITE, BLACK]))
def test_full_depth_alpha_beta_matches_the_solver(n: int, seed: int, whites: int, blacks: int,
                                                  turn: int) -> None:
    """On random small endgames, alpha-beta deep enough to reach every end is exact."""
    rules, rng = oska_rules(n), random.Random(seed)
    cells = rng.sample(range(rules.size), whites + blacks)
    pos = Position(sum(1 << c for c in cells[:whites]), sum(1 << c for c in cells[whites:]), turn)
    assume(not is_over(rules, pos))
    exact = solve(rules, pos)
    score = analyse(rules, oska_evaluator(rules, "simple"), pos, max_plies(rules, pos)).score
    if exact.result == 0:
        assert score == 0
    else:
        assert (1 if score > 0 else -1, plies_to_end(score)) == exact


@pytest.mark.slow
def test_ranked_children_are_best_first_and_consistent(start4: Solution) -> None:
    """The first ranked child carries the position's own solution, one ply shorter."""
    solver = solver_for(RULES4)
    for pos in late_positions(4, games=5, last=30, seed=5):
        ranked = solver.ranked_children(pos)
        assert ranked[0][1] == solve(RULES4, pos)
        assert ranked[0][1].plies == solve(RULES4, ranked[0][0]).plies + 1
        assert {kid for kid, _ in ranked} == set(RULES4.children(pos))


def test_budget_is_the_number_of_reachable_positions() -> None:
    """A root with N reachable positions solves with budget N and is TooBig with N - 1."""
    pos = late_positions(5, games=1, last=12, seed=6)[0]
    rules, size = oska_rules(5), reachable_count(oska_rules(5), pos)
    fresh = Solver(rules)
    with pytest.raises(TooBig):
        fresh.solve(pos, size - 1)
    assert not fresh.covered(pos, size - 1)
    assert fresh.solve(pos, size) == Solver(rules).solve(pos, size)
    assert not fresh.covered(pos, size - 1)  # a cached table must not loosen the budget


def test_big_positions_are_too_big() -> None:
    """The n = 6 start is far beyond a small budget; the answer is remembered."""
    rules = oska_rules(6)
    with pytest.raises(TooBig):
        solve(rules, rules.start(), max_positions=5_000)
    assert not covered(rules, rules.start(), max_positions=5_000)
    job = SolveJob(rules, rules.start(), max_positions=5_000)
    assert job.advance(10.0) and job.too_big and job.solution is None


def test_solve_job_in_slices_matches_solve() -> None:
    """A solve run in many tiny slices gives the same answer and perfect move."""
    rules = oska_rules(5)
    line = random_line(rules, random.Random(7))
    probe = Solver(rules)  # a private cache, so the job below really has to work
    pos = next(pos for pos in reversed(line) if not probe.covered(pos, 3 * PAUSE_EVERY))
    assert probe.covered(pos, 100_000)
    job = SolveJob(rules, pos)
    slices = 1
    while not job.advance(0.0):
        slices += 1
    assert slices >= 3  # it did pause
    assert job.solution == probe.solve(pos, 100_000)
    assert job.best == probe.ranked_children(pos)[0][0]
    assert not job.too_big


def test_game_over_has_no_perfect_move() -> None:
    """Asking for a move where the game is over is a clear error."""
    finished = Position(RULES4.row_masks[-1], 0, BLACK)
    assert solve(RULES4, finished) == Solution(-1, 0)
    with pytest.raises(ValueError, match="game is over"):
        perfect_child(RULES4, finished)


def test_a_cyclic_game_is_refused() -> None:
    """The solver only handles acyclic games and says so instead of looping."""

    class Cycle:
        """Two states that lead to each other forever."""

        stuck_result = 0

        def children(self, state: int) -> list[int]:
            """Return the other state."""
            return [1 - state]

        def terminal(self, state: int) -> None:
            """Never over."""

    with pytest.raises(ValueError, match="cycle"):
        Solver(Cycle()).solve(0)


def test_a_big_solve_triggers_no_full_collection() -> None:
    """Building the whole n = 4 table runs no full garbage collection: its positions are
    frozen at every pause (a full collection walked all of them, 0.1-0.7 s a time); the
    table is spread evenly over its shards and reads like a dict."""
    steps = Solver(RULES4).table_steps(RULES4.start(), 1_000_000)
    before = gc.get_stats()[2]["collections"]
    table = run(steps)
    assert table.size == 782_918
    assert gc.get_stats()[2]["collections"] == before
    # the table is spread over its shards, so none grows (copies itself) for long
    sizes = [len(shard) for shard in table.scores.shards]
    assert len(sizes) == SHARDS and sum(sizes) == len(table.scores) == table.size
    assert max(sizes) < 2 * table.size / SHARDS
    start = RULES4.start()
    assert start in table.scores and table.scores[start] == table.scores.get(start)
    assert sum(1 for _ in table.scores) == table.size


@pytest.mark.timing
def test_the_slices_of_a_big_solve_stay_short() -> None:
    """No slice of the whole n = 4 solve takes long: the positions are frozen (above),
    and the table grows a shard at a time (one dict for all took 60-90 ms of processor
    time to grow the last time); the bound is a frame's 50 ms."""
    job = SolveJob(RULES4, RULES4.start())
    solver_for(RULES4).forget()  # solve it afresh even if another test did
    longest = 0.0
    while True:
        start = time.process_time()
        done = job.advance(0.010)
        longest = max(longest, time.process_time() - start)
        if done:
            break
    assert job.solution is not None
    assert longest < 0.05
