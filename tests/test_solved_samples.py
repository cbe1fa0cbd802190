"""Training positions labelled by a saved solved game (``tools.solved_samples``), on n = 4.

The whole n = 4 game's file is written from the pure-Python solver (``solved_helpers``).
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from solved_helpers import solved_scores, write_from_solver

from oska_gui.engine import solved_file
from oska_gui.engine.exact_dataset import is_held_out
from oska_gui.engine.solver import solution_of
from oska_gui.games.oska import oska_rules
from tools import solved_samples

pytestmark = [pytest.mark.slow, pytest.mark.numba]  # the whole game; numpy via training
RULES = oska_rules(4)


@pytest.fixture(scope="module")
def scores() -> dict:
    """Return the solver's scores of the whole n = 4 game."""
    return solved_scores(4)


@pytest.fixture(scope="module")
def whole_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a data folder holding the n = 4 file of the whole game."""
    folder = tmp_path_factory.mktemp("data")
    write_from_solver(folder / solved_file.APP_DIR / "oska-n4.solved", 4)
    return folder


def test_samples_are_exact_never_held_out_and_reach_past_the_games(
        whole_folder: Path, scores: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sample's result is the solver's, none is held out or finished, and the
    sample takes in the positions after weak moves: children and grandchildren of the
    games' positions, far more than the games' own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(whole_folder))
    job = solved_samples.SolvedGameJob(4, 3)
    found = solved_samples.solved_game_samples(job)
    assert found
    for pos, result in found.items():
        assert result == solution_of(scores[pos]).result
        assert RULES.terminal(pos) is None
        assert not is_held_out(RULES, pos)
    line = solved_samples.game_line(job, solved_file.saved_solution(4), random.Random(job.seed))
    assert len(found) > 2 * len(line)
    assert any(RULES.real_children(pos)[0] in found for pos in line)


def test_a_seed_gives_the_same_samples_in_any_pool(
        whole_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The samples of a seed come back the same from one worker and from two."""
    monkeypatch.setenv("XDG_DATA_HOME", str(whole_folder))
    with ProcessPoolExecutor(2) as pool:
        parallel = solved_samples.solved_positions(4, 6, 5, pool)
    with ProcessPoolExecutor(1) as pool:
        serial = solved_samples.solved_positions(4, 6, 5, pool)
    assert parallel == serial
    assert len(parallel[0]) == len(set(parallel[0])) > 0


def test_without_a_saved_game_the_error_says_how_to_make_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No solved file (n = 5: the package ships n = 4's): a clear error naming the
    command, not a traceback from a worker."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with ProcessPoolExecutor(1) as pool, pytest.raises(solved_samples.NoSolvedGame,
                                                       match="oska solve --n 5 --save"):
        solved_samples.solved_positions(5, 1, 1, pool)
