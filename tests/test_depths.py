"""The per-depth choice benchmark (``tools.depths``): what it counts.

The figures belong to the command; here: the positions it plays are exactly those
where the moves do not all keep the value, with the value-keeping moves right, and
the command prints one row per depth.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from oska_gui.engine.solver import solver_for
from oska_gui.games.oska import oska_rules
from oska_gui.play.selfplay import random_opening
from tools import depths
from tools.strength import ChoiceJob


@pytest.fixture(scope="module")
def solved() -> list[ChoiceJob]:
    """Every n = 4 position where the choice matters (the whole game is solved once)."""
    return depths.solved_choices()


@pytest.mark.slow
def test_every_choice_that_matters_is_found_with_its_value_keeping_moves(
        solved: list[ChoiceJob]) -> None:
    """The kept moves of a sample are the solver's best-result moves, and a position
    whose moves all share one result is never played."""
    rules = oska_rules(4)
    solver = solver_for(rules)
    listed = {job.pos for job in solved}
    assert len(listed) == len(solved) > 100_000
    for job in depths.sample(solved, 200):
        ranked = solver.ranked_children(job.pos)
        best = ranked[0][1].result
        assert job.kept == {kid for kid, solution in ranked if solution.result == best}
        assert any(solution.result < best for _, solution in ranked)
    rng = random.Random(4)
    for _ in range(200):  # positions of random games that are not listed: one result
        pos = random_opening(rules, rng.randint(1, 12), rng)[-1]
        if pos not in listed and rules.terminal(pos) is None and rules.real_children(pos):
            assert len({solution.result for _, solution in solver.ranked_children(pos)}) == 1


def test_the_sample_is_seeded_and_ordered() -> None:
    """The same seed draws the same positions, in the list's order; 0 takes them all."""
    rules = oska_rules(4)
    jobs = [ChoiceJob(4, kid, 0, 0.0, frozenset()) for kid in rules.children(rules.start())]
    drawn = depths.sample(jobs, 2)
    assert drawn == depths.sample(jobs, 2) and len(drawn) == 2
    assert [jobs.index(job) for job in drawn] == sorted(jobs.index(job) for job in drawn)
    assert depths.sample(jobs, 0) == jobs == depths.sample(jobs, 99)


def test_the_rows_count_the_moves_that_lose_the_value() -> None:
    """On the issue's position (n = 4, White to move) the one move that loses the won
    game is counted at a depth that chooses it and not where another is chosen."""
    rules = oska_rules(4)
    pos = rules.from_rows(["wb-w", "---", "w-", "---", "b-bb"], 0)
    ranked = solver_for(rules).ranked_children(pos)
    kept = frozenset(kid for kid, solution in ranked if solution.result == 1)
    job = ChoiceJob(4, pos, 0, 0.0, kept)
    wrong = ChoiceJob(4, pos, 0, 0.0, frozenset(kid for kid, _ in ranked) - kept)
    with ProcessPoolExecutor(1) as pool:
        rows = depths.depth_rows([job, wrong], (1,), pool)
    assert [row[:3] for row in rows] == [["1", "2", "1"]]


@pytest.mark.slow
def test_the_command_prints_a_row_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny run on the whole-game positions prints the table, one row per depth."""
    assert depths.main(["--positions", "3", "--depths", "1,2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "3 of the" in out
    table = out[out.index("Value-losing choices"):].splitlines()
    assert [line.split()[0] for line in table[3:]] == ["1", "2"]
