"""The race verdict against the exact solver, on every small race there is.

Once the armies have passed each other the learned evaluator trusts ``race.Race`` alone,
so a wrong verdict would be a wrong score that no search depth corrects. Here every
passed, unfinished position of n = 4 (up to 4 pieces a side) and a seeded sample of
n = 5 (up to 5) is solved exactly and compared with the verdict: its result always, its
length whenever it claims a win or a loss. Walled-in runners, forced passes and who
moves first at the end are all among them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

import pytest
from evaluator_helpers import most_matched, reachable_home_cells

from oska_gui.engine.grid import board_layout
from oska_gui.engine.race import Verdict, race_tables
from oska_gui.engine.solver import Solution, solve_all
from oska_gui.games.oska import BLACK, WHITE, OskaRules, Position, oska_rules

MAX_POSITIONS = 5_000_000  # every race below and the races after it, solved at once
N5_SAMPLE = 3_000


def is_race(rules: OskaRules, pos: Position) -> bool:
    """Return True when ``pos`` is a passed race still to play: a move, no winner yet."""
    return rules.terminal(pos) is None and bool(rules.children(pos))


def piece_sets(rules: OskaRules, most: int) -> list[tuple[int, int, int]]:
    """Return every set of 1..``most`` cells as (bitboard, top row, bottom row)."""
    rows = [row for row, _ in rules.cells]
    return [(sum(1 << c for c in cells), min(rows[c] for c in cells), max(rows[c] for c in cells))
            for k in range(1, most + 1) for cells in combinations(range(rules.size), k)]


def every_race(rules: OskaRules) -> Iterator[Position]:
    """Yield every passed race of ``rules``' board: no White piece above a Black one."""
    sets = piece_sets(rules, rules.n)
    for white, top_white, _ in sets:
        for black, _, bottom_black in sets:
            if not white & black and top_white >= bottom_black:
                for turn in (WHITE, BLACK):
                    pos = Position(white, black, turn)
                    if is_race(rules, pos):
                        yield pos


def sampled_races(rules: OskaRules, count: int, seed: int) -> list[Position]:
    """Return ``count`` seeded random passed races: White below a row, Black above it."""
    rng = random.Random(seed)
    races: list[Position] = []
    last = len(rules.lengths) - 1
    while len(races) < count:
        split = rng.randint(1, last - 1)
        below = [c for c, (row, _) in enumerate(rules.cells) if row >= split]
        whites = rng.sample(below, rng.randint(1, rules.n))
        above = [c for c, (row, _) in enumerate(rules.cells) if row <= split and c not in whites]
        blacks = rng.sample(above, rng.randint(1, rules.n))
        pos = Position(sum(1 << c for c in whites), sum(1 << c for c in blacks), rng.randint(0, 1))
        if is_race(rules, pos):
            races.append(pos)
    return races


def claim(verdict: Verdict | Solution) -> tuple[int, int]:
    """Return what a verdict claims: the result, and the plies unless it is a draw."""
    return verdict.result, verdict.plies if verdict.result else 0


def disagreements(rules: OskaRules, races: list[Position]) -> list[tuple[list[str], int]]:
    """Return the races (rows, side to move) whose verdict the exact solver contradicts."""
    race, rows_to_go = race_tables(rules), board_layout(rules).rows_to_go
    exact = solve_all(rules, races, MAX_POSITIONS)
    return [(rules.to_rows(pos), pos.turn) for pos, solution in zip(races, exact, strict=True)
            if claim(race.verdict(pos, rows_to_go(pos.white, pos.black))) != claim(solution)]


@pytest.mark.slow
def test_every_n4_race_gets_the_exact_verdict() -> None:
    """All 154,364 passed n = 4 races: not one verdict differs from the solver's."""
    rules = oska_rules(4)
    races = list(every_race(rules))
    assert len(races) == 154_364
    assert disagreements(rules, races) == []


@pytest.mark.slow
def test_sampled_n5_races_get_the_exact_verdict() -> None:
    """Random passed n = 5 races with up to 5 pieces a side: the solver's verdict."""
    rules = oska_rules(5)
    assert disagreements(rules, sampled_races(rules, N5_SAMPLE, 1)) == []


def test_the_samples_hold_walled_in_runners_and_forced_passes() -> None:
    """The n = 5 sample meets the cases the verdict must get right, not only easy races."""
    rules = oska_rules(5)
    race = race_tables(rules)
    races = sampled_races(rules, N5_SAMPLE, 1)
    walled = sum(1 for pos in races if not race.can_finish(pos.turn, pos[pos.turn]))
    passes = sum(1 for pos in races if not rules.has_move(pos))
    draws = sum(1 for pos in races
                if not race.can_finish(WHITE, pos.white) and not race.can_finish(BLACK, pos.black))
    assert min(walled, passes, draws) >= 30, (walled, passes, draws)


@pytest.mark.parametrize("n", range(4, 13))
def test_reachable_home_cells_are_a_run_of_consecutive_cells(n: int) -> None:
    """From every cell, each side reaches a non-empty run of neighbouring home cells
    (the claim the greedy matching rests on), and the tables hold exactly those cells."""
    rules = oska_rules(n)
    race = race_tables(rules)
    for side in (WHITE, BLACK):
        for cell in range(rules.size):
            home = reachable_home_cells(rules, side, cell)
            assert home and max(home) - min(home) + 1 == len(home), (n, side, cell, home)
            assert race.reach[side][cell] == sum(1 << c for c in home)


@pytest.mark.parametrize("n", [4, 5, 6, 8, 12])
def test_unmatched_pieces_agree_with_a_maximum_matching(n: int) -> None:
    """Random armies with home pieces: ``unmatched`` equals the pieces not home less a
    maximum matching of them to free reachable home cells found by augmenting paths."""
    rules = oska_rules(n)
    race = race_tables(rules)
    rng = random.Random(n)
    outcomes = set()
    for _ in range(3000):
        side = rng.randint(0, 1)
        goal = rules.goal[side]
        home = [c for c in range(rules.size) if goal >> c & 1]
        # home pieces first (they wall the others in), then runners near home
        own = set(rng.sample(home, rng.randint(0, n - 1)))
        near = [c for c in range(rules.size) if not goal >> c & 1
                and rules.rows_to_go[side][c] <= rng.randint(1, len(rules.lengths) - 1)]
        own |= set(rng.sample(near, min(len(near), rng.randint(1, n - len(own)))))
        runners = [c for c in own if not goal >> c & 1]
        free = set(home) - own
        cones = [reachable_home_cells(rules, side, c) & free for c in runners]
        expected = len(runners) - most_matched(cones)
        assert race.unmatched(side, sum(1 << c for c in own)) == expected, (n, side, own)
        outcomes.add(expected)
    assert {0, 1} <= outcomes  # the sample holds armies that cannot all get home
