"""Tests of the numba tablebase, its datasets and ``oska solve`` (all on n = 4)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import REPO_ROOT, run_cli
from solved_helpers import write_from_solver

import oska_gui.engine
from oska_gui.cli import main
from oska_gui.engine import exact_dataset, solved_file, tablebase
from oska_gui.engine.exact_dataset import (
    DEFAULT_RATES,
    is_playable,
    load_dataset,
    sample_uniform,
    write_dataset,
)
from oska_gui.engine.search import run
from oska_gui.engine.solved_export import save_solved
from oska_gui.engine.solver import Solution, Solver, solve, solver_for
from oska_gui.engine.tablebase import (
    Tablebase,
    TableTooBig,
    as_arrays,
    deepest_game,
    solve_table,
)
from oska_gui.games.oska import SIDE_NAMES, Position, oska_rules
from tools import perfect_bench

pytestmark = pytest.mark.numba

RULES4 = oska_rules(4)
N4_POSITIONS = 782_918  # reachable from the n = 4 start (the solver's docstring says so too)


@pytest.fixture(scope="module")
def tb4() -> Tablebase:
    """The n = 4 table, solved once for the module."""
    return solve_table(4)


@pytest.fixture(scope="module")
def solver_positions() -> list[Position]:
    """Every position the pure-Python solver reaches from the n = 4 start."""
    table = run(solver_for(RULES4).table_steps(RULES4.start(), 1_000_000))
    return list(table.scores)


def mover_key(child: Solution) -> tuple[int, int]:
    """Return how good a move to a child with Solution ``child`` is for the mover.

    Written here again, on purpose, from solver.py's documented rule: a win beats a
    draw beats a loss; sooner wins, later losses and longer draws are better.
    """
    result, plies = -child.result, child.plies + 1
    return (result, -plies if result > 0 else plies)


def expected_from_children(rules, pos: Position, kids: list[Solution]) -> Solution:
    """Return the Solution of ``pos`` the rules and its children's Solutions imply."""
    over = rules.terminal(pos)
    if over is not None:
        return Solution(over, 0)
    if not kids:
        return Solution(0, 0)  # deadlock
    best = max(kids, key=mover_key)
    return Solution(-best.result, best.plies + 1)


def test_every_reachable_n4_position_agrees_with_the_solver(
        tb4: Tablebase, solver_positions: list[Position]) -> None:
    """The same positions as solver.py, and for each the same result and plies."""
    assert tb4.positions == len(solver_positions) == N4_POSITIONS
    assert set(tb4.positions_at(tb4.stored())) == set(solver_positions)
    results, plies = tb4.solutions(*as_arrays(solver_positions))
    expected = np.array([solve(RULES4, pos) for pos in solver_positions])
    assert np.array_equal(results, expected[:, 0])
    assert np.array_equal(plies, expected[:, 1])
    assert tb4.start_solution == solve(RULES4, RULES4.start()) == Solution(1, 21)
    assert plies.max() <= deepest_game(4)


def test_every_value_is_the_best_over_its_children(tb4: Tablebase) -> None:
    """For sampled positions of the table, the value follows from the children's values."""
    places = np.random.default_rng(5).choice(tb4.stored(), 20_000, replace=False)
    for pos in tb4.positions_at(places):
        kids = [value for _, value in tb4.children_solutions(pos)]
        assert tb4.solution(pos) == expected_from_children(RULES4, pos, kids), pos


def test_other_roots_and_positions_outside_the_table() -> None:
    """A mid-game root gives the solver's values; an unreached position is solved on ask."""
    rng = random.Random(11)
    pos = RULES4.start()
    for _ in range(6):
        pos = rng.choice(RULES4.children(pos))
    table = solve_table(4, root=pos)
    reached = list(run(Solver(RULES4).table_steps(pos, 1_000_000)).scores)  # no cache
    assert table.positions == len(reached) < N4_POSITIONS
    assert [table.solution(p) for p in reached] == [solve(RULES4, p) for p in reached]
    won = Position(0b1, 0, 1)  # Black has no pieces: the game is over, not reachable
    assert table.solution(won) == Solution(-1, 0)
    assert table.positions == len(reached) + 1


def test_too_many_plies_for_byte_cells_falls_back_to_two_bytes(
        monkeypatch: pytest.MonkeyPatch, solver_positions: list[Position]) -> None:
    """When byte cells cannot hold a value, the solve says so and is redone wider."""
    monkeypatch.setitem(tablebase.SPANS, np.dtype(np.uint8), 10)  # n = 4 needs 25 plies
    narrow = Tablebase(RULES4, RULES4.start(), np.uint8)
    with pytest.raises(tablebase.PliesOverflow):
        narrow.solve(RULES4.start())
    wide = solve_table(4)
    assert wide.codes.dtype == np.uint16
    sample = random.Random(2).sample(solver_positions, 5_000)
    assert [wide.solution(p) for p in sample] == [solve(RULES4, p) for p in sample]


def test_a_table_too_big_for_memory_is_refused() -> None:
    """n = 6 would need terabytes: refused before anything is allocated."""
    with pytest.raises(TableTooBig, match="n = 6"):
        solve_table(6)
    with pytest.raises(TableTooBig):
        solve_table(4, max_bytes=1_000)


def check_dataset(tb: Tablebase, path: Path, count: int) -> exact_dataset.ExactDataset:
    """Load the dataset at ``path`` and check it against ``tb``; return it."""
    data = load_dataset(path)
    assert len(data) == count and data.n == 4
    positions = [data.position(i) for i in range(len(data))]
    assert len(set(positions)) == count
    for i, pos in enumerate(positions):
        assert is_playable(RULES4, pos)
        assert data.solution(i) == tb.solution(pos)
        kids = data.children(i)
        assert [kid for kid, _ in kids] == RULES4.children(pos)
        assert [value for _, value in kids] == [tb.solution(kid) for kid, _ in kids]
        assert data.solution(i) == expected_from_children(RULES4, pos, [v for _, v in kids])
        assert any(data.is_perfect(i, kid) for kid, _ in kids)
        for kid, value in kids:
            keeps = -value.result == data.solution(i).result
            assert data.keeps_value(i, kid) == keeps
    return data


def test_dataset_round_trip_and_reproducibility(tb4: Tablebase, tmp_path: Path) -> None:
    """A dataset holds exact values of distinct positions and children; a seed fixes it."""
    first, again, other = (tmp_path / name for name in ("a.npz", "b.npz", "c.npz"))
    assert write_dataset(tb4, first, 3_000, seed=7) == 3_000
    data = check_dataset(tb4, first, 3_000)
    assert set(data.rate.tolist()) == set(DEFAULT_RATES)
    assert data.ply.min() == 0 and data.seed == 7
    write_dataset(tb4, again, 3_000, seed=7)
    write_dataset(tb4, other, 3_000, seed=8)
    with np.load(first) as a, np.load(again) as b, np.load(other) as c:
        assert sorted(a.files) == sorted(b.files)
        assert all(np.array_equal(a[name], b[name]) for name in a.files)
        assert not np.array_equal(a["white"], c["white"])
    with pytest.raises(ValueError, match="not a child"):
        data.move_solution(0, data.position(0))


def test_uniform_datasets_and_samples(tb4: Tablebase, tmp_path: Path) -> None:
    """Uniform samples are distinct solved positions; a uniform dataset checks out."""
    stored = set(tb4.positions_at(tb4.stored()))
    anything = sample_uniform(tb4, 2_000, seed=1, playable=False)
    assert len(set(anything)) == 2_000 and set(anything) <= stored
    assert any(not is_playable(RULES4, pos) for pos in anything)
    path = tmp_path / "u.npz"
    assert write_dataset(tb4, path, 1_000, seed=3, uniform=True) == 1_000
    data = check_dataset(tb4, path, 1_000)
    assert np.isnan(data.rate).all() and (data.ply == -1).all()
    with pytest.raises(ValueError, match="holds"):
        sample_uniform(tb4, tb4.positions + 1, seed=1)
    with pytest.raises(ValueError, match="found only"):  # not every position is playable
        sample_uniform(tb4, tb4.positions, seed=1)


def test_load_rejects_files_that_are_not_datasets(tmp_path: Path) -> None:
    """A .npz without the dataset's fields is refused with the missing names."""
    path = tmp_path / "x.npz"
    np.savez(path, white=np.zeros(3))
    with pytest.raises(ValueError, match="black"):
        load_dataset(path)


def test_cli_solves_n4_and_writes_a_dataset(tmp_path: Path) -> None:
    """``oska solve --n 4`` prints the solver's value and the count, and writes the file."""
    path = tmp_path / "sub" / "n4.npz"
    result = run_cli("solve", "--n", 4, "--dataset", path, "--samples", 500, "--seed", 1,
                     "--progress")
    assert result.returncode == 0, result.stderr
    assert f"solving: {N4_POSITIONS:,} positions" in result.stderr
    value = solve(RULES4, RULES4.start())
    winner = SIDE_NAMES[0 if value.result > 0 else 1]
    assert f"Oska n = 4: {winner} wins in {value.plies} plies" in result.stdout
    assert f"Positions solved: {N4_POSITIONS:,}" in result.stdout
    assert "Peak memory:" in result.stdout
    assert len(load_dataset(path)) == 500


def test_the_saved_file_is_the_pure_python_writers_byte_for_byte(
        solver_positions: list[Position], tmp_path: Path) -> None:
    """``save_solved`` writes the file that the solver's positions make (the reader's
    own places agree with the table's), and refuses a table solved from elsewhere.

    A table of its own: the module's ``tb4`` also holds positions other tests asked
    about, which no game from the start reaches."""
    table = solve_table(4)
    places = solved_file.Places(4)
    sample = solver_positions[::97]
    assert [places.index(pos.white, pos.black) for pos in sample] == \
        [int(place) >> 1 for place in table.places(sample)]
    header = save_solved(table, tmp_path / "numba.solved")
    write_from_solver(tmp_path / "python.solved", 4)
    assert (tmp_path / "numba.solved").read_bytes() == (tmp_path / "python.solved").read_bytes()
    assert header.stored < N4_POSITIONS // 2
    with pytest.raises(ValueError, match="from the start"):
        save_solved(solve_table(4, RULES4.children(RULES4.start())[0]), tmp_path / "x.solved")


def test_cli_saves_the_solved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``oska solve --n 4 --save`` keeps the game in the data folder, where it is found."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = run_cli("solve", "--n", 4, "--save")
    assert result.returncode == 0, result.stderr
    path = solved_file.solved_path(4)
    assert f"to {path}" in result.stdout and "Saved:" in result.stdout
    saved = solved_file.saved_solution(4)
    assert saved is not None and saved.solution(RULES4.start()) == solve(RULES4, RULES4.start())
    blocked = tmp_path / "a file"  # a data folder that cannot be made: a one-line error
    blocked.write_bytes(b"")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    failed = run_cli("solve", "--n", 4, "--save")
    assert failed.returncode == 2 and "cannot save the solved game" in failed.stderr
    assert "Traceback" not in failed.stderr


def test_the_perfect_bench_finds_the_saved_game_exact(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """``tools.perfect_bench`` on n = 4: every value right, no value-losing choice, the
    Perfect game as solved; a damaged file shows as wrong values."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    table = solve_table(4)  # only the positions a game from the start reaches (see above)
    save_solved(table, solved_file.solved_path(4))
    write_dataset(table, tmp_path / "n4.npz", 400, 1)
    assert perfect_bench.main(["--dataset", str(tmp_path / "n4.npz")]) == 0
    out = capsys.readouterr().out
    assert ", 0 wrong or missing" in out and " 0 value-losing, 0 not perfect" in out
    assert "Perfect against Perfect: White wins in 21 plies (21 moves read" in out
    path = solved_file.solved_path(4)
    stored = solved_file.SolvedFile(path, 4).header.stored
    path.write_bytes(path.read_bytes()[:-stored] + bytes([1]) * stored)  # all lost at once
    perfect_bench.main(["--dataset", str(tmp_path / "n4.npz"), "--positions", "400"])
    assert ", 0 wrong or missing" not in capsys.readouterr().out


def test_cli_without_numba_says_how_to_install(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture) -> None:
    """Without numba: one line naming the extra, exit code 2, no traceback."""
    for name in ("oska_gui.engine.tablebase", "oska_gui.engine.exact_dataset"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    for name in ("tablebase", "exact_dataset"):
        monkeypatch.delattr(oska_gui.engine, name, raising=False)
    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` now fails
    assert main(["solve", "--n", "4"]) == 2
    err = capsys.readouterr().err
    assert "pip install '.[solve]'" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_game_cli_and_browser_never_load_numpy_or_numba() -> None:
    """Importing the game, spec functions, solver and CLI loads neither numpy nor numba."""
    code = ("import sys, oska_gui, oska_gui.games.oska, oska_gui.engine.search, "
            "oska_gui.engine.solver, oska_gui.spec.oska, oska_gui.cli; "
            "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"
    from oska_gui.web.build import browser_modules
    shipped = browser_modules()
    assert "oska_gui/games/oska.py" in shipped
    assert not {"oska_gui/engine/tablebase.py", "oska_gui/engine/exact_dataset.py"} & set(shipped)

