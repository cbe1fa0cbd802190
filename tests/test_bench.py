"""Tests of the benchmark command's tools (``tools.bench``).

The figures themselves are not tested (timing belongs to the command); what is tested
is that they measure what they claim: the stored midgame set is the seeded script's
output, the plain-recursion rebuild of the search is the same search without
generators, the minimax counter counts every node, and the command runs.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from oska_gui.engine.evaluators import oska_evaluator
from oska_gui.engine.search import AlphaBeta, Progress, analyse, run
from oska_gui.games.oska import OskaRules, Position, oska_rules
from tools import bench


def test_the_stored_midgames_are_what_the_seeded_script_writes(tmp_path: Path) -> None:
    """Regenerating the midgame set gives the stored file, byte for byte."""
    path = tmp_path / "positions.json"
    bench.write_positions(path)
    assert path.read_text() == bench.POSITIONS_FILE.read_text()


@pytest.mark.parametrize("n", bench.SIZES)
def test_the_stored_midgames_are_distinct_unfinished_positions(n: int) -> None:
    """Each size has its midgames: all different, game on, at least three moves."""
    rules = oska_rules(n)
    positions = bench.midgames(n)
    assert len(set(positions)) == len(positions) == bench.MIDGAMES_PER_SIZE
    for pos in positions:
        assert pos != rules.start()
        assert rules.terminal(pos) is None
        assert len(rules.real_children(pos)) >= 3


@pytest.mark.parametrize("n", (4, 5))
def test_the_recursive_rebuild_is_the_same_search_without_generators(n: int) -> None:
    """The rebuilt class visits as many nodes and finds the same line, with no generator."""
    rules = oska_rules(n)
    evaluate = oska_evaluator(rules, "strong")
    rebuilt = bench.recursive_alpha_beta()
    assert not inspect.isgeneratorfunction(rebuilt._node)
    assert inspect.isgeneratorfunction(AlphaBeta._node)
    for pos in [rules.start(), *bench.midgames(n)[:2]]:
        original, copy = AlphaBeta(rules, evaluate), rebuilt(rules, evaluate)
        expected, found = Progress(), Progress()
        run(original.deepen(pos, 6, expected))
        copy.deepen(pos, 6, found)
        assert found == expected
        assert copy.nodes == original.nodes


def count_nodes(rules: OskaRules, pos: Position, depth: int) -> int:
    """Return the number of positions of the full ``depth``-ply minimax tree of ``pos``."""
    if depth == 0 or rules.terminal(pos) is not None:
        return 1
    return 1 + sum(count_nodes(rules, kid, depth - 1) for kid in rules.children(pos))


@pytest.mark.parametrize("n", (4, 6))
def test_the_minimax_counter_visits_the_whole_tree(n: int) -> None:
    """The counter's node count is the full tree's size and its value alpha-beta's."""
    rules = oska_rules(n)
    evaluate = oska_evaluator(rules, "simple")
    for pos in [rules.start(), *bench.midgames(n)[:2]]:
        counter = bench.MinimaxCounter(rules, evaluate)
        assert counter.value(pos, 3) == analyse(rules, evaluate, pos, 3).score
        assert counter.nodes == count_nodes(rules, pos, 3)


def test_the_bench_command_prints_every_table_and_a_summary(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny run for n = 4 prints the five tables and the summary row."""
    monkeypatch.setattr(bench, "THINK_SECONDS", 0.02)
    monkeypatch.setattr(bench, "QUICK", bench.Budget(
        repeat_for=0.001, runs=1, depth_cap=0.005, minimax_cap=0.01, think_runs=1,
        midgames=1, search_seconds=0.005))
    bench.main(["--quick", "--n", "4"])
    out = capsys.readouterr().out
    for title in ("movegen on string boards", "alpha-beta search", "oskaplayer ms per depth",
                  "oskaplayer search nodes per depth", "alpha-beta (with deepening) vs plain",
                  "depth completed by Thinker", "Summary"):
        assert title in out
    summary = out[out.index("Summary"):].splitlines()
    assert summary[-1].split()[0] == "4"
