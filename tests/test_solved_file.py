"""The solved game kept on disk (``engine.solved_file``), read without numba, on n = 4.

The files are made here from the pure-Python solver (``solved_helpers``): the quick
tests use the positions reachable after a fixed four-ply opening (22,623 of them, under
a second to solve), the slow ones the whole game. The numba writer's file is checked
against the whole game's byte for byte in ``test_tablebase.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_helpers import run_cli
from solved_helpers import solved_scores, write_from_solver

from oska_gui import oskaplayer
from oska_gui.core.types import Position
from oska_gui.engine import solved_file
from oska_gui.engine.solver import Solution, Solver, parent_score, solution_of, solve
from oska_gui.games.oska import oska_rules
from oska_gui.play import runner
from oska_gui.play.game import make_game
from oska_gui.play.levels import LevelKey, levels_for, parse_ai
from oska_gui.play.review import job as review_job
from oska_gui.play.review.budget import Budget
from oska_gui.play.search_player import ai_player, make_player
from oska_gui.session.hints import HintPlayer
from oska_gui.session.settings import Mode, Settings
from oska_gui.tournament.games import SOLVED_FIELD, Conditions, Entrant, GameTask, play
from oska_gui.ui.start.start_scene import Option, choose, rows_for

RULES = oska_rules(4)
OPENING = ("a2-b1", "e3-d3", "a3-b3", "e2-d1")  # then White wins in 18 plies


def opening_line() -> list[Position]:
    """Return the positions from the start through OPENING."""
    line = [RULES.start()]
    for text in OPENING:
        line.append(RULES.play(line[-1], RULES.parse_move(text, line[-1])))
    return line


ROOT = opening_line()[-1]


def file_in(folder: Path, root: Position | None) -> Path:
    """Write the n = 4 file of the positions reachable from ``root`` (None: the start)
    where ``saved_solution`` finds it with ``folder`` as the data folder; return ``folder``."""
    write_from_solver(folder / solved_file.APP_DIR / "oska-n4.solved", 4, root)
    return folder


@pytest.fixture(scope="module")
def scores() -> dict:
    """Return the solver's scores of the positions reachable after the opening."""
    return solved_scores(4, ROOT)


@pytest.fixture(scope="module")
def data_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a data folder holding the n = 4 file of the positions after the opening."""
    return file_in(tmp_path_factory.mktemp("data"), ROOT)


def opened_in(folder: Path, monkeypatch: pytest.MonkeyPatch) -> solved_file.SolvedFile:
    """Make ``folder`` the user's data folder; return the n = 4 file it holds, opened."""
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    found = solved_file.saved_solution(4)
    assert found is not None
    return found


@pytest.fixture
def saved(data_folder: Path, monkeypatch: pytest.MonkeyPatch) -> solved_file.SolvedFile:
    """Point the user's data folder at the opening's file; return it opened."""
    return opened_in(data_folder, monkeypatch)


@pytest.fixture(scope="module")
def whole_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a data folder holding the n = 4 file of the whole game (slow tests)."""
    return file_in(tmp_path_factory.mktemp("whole"), None)


@pytest.fixture
def whole(whole_folder: Path, monkeypatch: pytest.MonkeyPatch) -> solved_file.SolvedFile:
    """Point the user's data folder at the whole game's file; return it opened."""
    return opened_in(whole_folder, monkeypatch)


def check_values(saved: solved_file.SolvedFile, scores: dict) -> None:
    """Assert that every position of ``scores`` reads from the file as the solver has it."""
    for pos, score in scores.items():
        assert saved.solution(pos) == solution_of(score), pos


def test_codes_round_trip_and_plies_past_a_byte_are_refused() -> None:
    """Every value of 0..84 plies comes back; 85 plies has no code."""
    for result in (-1, 0, 1):
        for plies in range(solved_file.SPAN):
            code = solved_file.encode(Solution(result, plies))
            assert 1 <= code <= 255 and solved_file.decode(code) == (result, plies)
    with pytest.raises(solved_file.SolvedFileError, match="85 plies"):
        solved_file.encode(Solution(1, 85))


def test_the_file_keeps_one_side_to_move_in_a_fraction_of_the_table(
        saved: solved_file.SolvedFile, scores: dict) -> None:
    """Only the reachable positions of the side to move in fewer are stored: a bit per
    place of that side, a byte per position, a directory entry and a checksum per block,
    and a summary checksum per TABLE_CHUNK blocks (each part padded to 8 bytes)."""
    header = saved.header
    stored = sum(pos.turn == header.turn for pos in scores)
    assert header.stored == stored <= len(scores) - stored
    assert header.indexes == saved.places.indexes
    blocks = -(-header.indexes // solved_file.BLOCK_BITS)
    size = saved.path.stat().st_size
    checksums = -(-blocks * 4 // 8) * 8
    summary = -(-blocks // solved_file.TABLE_CHUNK * 4 // 8) * 8
    assert size == (solved_file.HEADER_BYTES + summary
                    + blocks * (8 + solved_file.BLOCK_BYTES) + checksums + stored)


def test_values_read_from_the_file_are_the_solvers(saved: solved_file.SolvedFile,
                                                   scores: dict) -> None:
    """Every position after the opening, either side to move: stored ones read at once,
    the others valued from their children."""
    assert len(scores) == 22_623
    check_values(saved, scores)


@pytest.mark.slow
def test_every_reachable_position_reads_as_solved(whole: solved_file.SolvedFile) -> None:
    """All 782,918 reachable n = 4 positions."""
    scores = solved_scores(4)
    assert len(scores) == 782_918
    check_values(whole, scores)


def test_positions_outside_the_file_are_unknown(saved: solved_file.SolvedFile) -> None:
    """Before the opening's last move the other moves lead outside the file: unknown;
    and a board with more pieces than the game has is no game position."""
    before = opening_line()[-2]
    assert saved.solution(before) is None and saved.ranked_children(before) is None
    crowded = Position(0b1_1111_0000, 0b110_0000_0000, saved.header.turn)  # 5 white
    assert saved.solution(crowded) is None


@pytest.mark.slow
def test_boards_no_game_reaches_are_exact_or_unknown(whole: solved_file.SolvedFile) -> None:
    """Random boards outside the game: the file's answer, when it has one (from the
    children two plies down), is the solver's."""
    scores = solved_scores(4)
    rng = random.Random(7)
    answered = unknown = 0
    while answered < 20 or unknown < 20:
        cells = rng.sample(range(RULES.size), rng.randint(3, 8))
        split = rng.randint(1, min(4, len(cells) - 1))
        pos = Position(sum(1 << cell for cell in cells[:split]),
                       sum(1 << cell for cell in cells[split:split + 4]), rng.randint(0, 1))
        if pos in scores or RULES.terminal(pos) is not None:
            continue
        value = whole.solution(pos)
        if value is None:
            unknown += 1
        else:
            assert value == solve(RULES, pos), pos
            answered += 1


def test_damaged_or_foreign_files_are_ignored_with_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
        saved: solved_file.SolvedFile) -> None:
    """Not ours, cut short, another size: refused by the reader, skipped by the lookup."""
    source = saved.path.read_bytes()
    path = tmp_path / "x.solved"
    for content, error in ((b"hello", "too short"), (b"x" * 100, "not a solved game"),
                           (source[:-1], "damaged")):
        path.write_bytes(content)
        with pytest.raises(solved_file.SolvedFileError, match=error):
            solved_file.SolvedFile(path, 4)
    path.write_bytes(source)
    with pytest.raises(solved_file.SolvedFileError, match="n = 4, not n = 5"):
        solved_file.SolvedFile(path, 5)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    target = solved_file.solved_path(4)
    target.parent.mkdir()
    target.write_bytes(source[:1000])
    found = solved_file.saved_solution(4)  # the package's own, in the broken one's place
    assert found is not None and found.path == solved_file.SHIPPED / "oska-n4.solved"
    assert "ignoring the solved game" in capsys.readouterr().err
    assert not make_game("oska", 5).perfect_available


def test_a_writer_whose_codes_miss_their_bits_is_refused(tmp_path: Path) -> None:
    """Codes that do not match the bitmap, or a bitmap of the wrong size: no file."""
    path = tmp_path / "bad.solved"
    blocks = -(-solved_file.Places(4).indexes // solved_file.BLOCK_BITS)
    with pytest.raises(solved_file.SolvedFileError, match="set bits"):
        solved_file.write_solved(path, 4, 0, [(b"\x01" * solved_file.BLOCK_BYTES, b"")])
    with pytest.raises(solved_file.SolvedFileError, match="covers"):
        solved_file.write_solved(path, 4, 0, [(bytes(blocks), b"")])
    assert not list(tmp_path.iterdir())


def test_perfect_against_perfect_ends_as_solved(saved: solved_file.SolvedFile) -> None:
    """From the opening both sides read every move from the file: White wins in 18 more
    plies, as solved."""
    players = [make_player(make_game("oska", 4), LevelKey.PERFECT, "strong")
               for _ in range(2)]
    record = runner.play(RULES, players, opening_line())
    assert record.outcome.winner == 0 and len(record.moves) == len(OPENING) + 18
    assert sum(player.saved_moves for player in players) == 18


@pytest.mark.slow
def test_perfect_play_of_the_whole_game(whole: solved_file.SolvedFile) -> None:
    """Perfect against Perfect from the start: White wins in 21 plies; and on every n = 4
    position where the moves differ in value the Perfect level keeps the value."""
    game = make_game("oska", 4)
    players = [make_player(game, LevelKey.PERFECT, "strong") for _ in range(2)]
    record = runner.play(RULES, players)
    assert record.outcome.winner == 0 and len(record.moves) == 21
    scores = solved_scores(4)
    player = players[0]
    checked = 0
    for pos in scores:
        kids = game.children(pos)
        values = {parent_score(scores[kid]) // abs(parent_score(scores[kid]) or 1)
                  for kid in kids}
        if len(values) < 2:
            continue
        player.start(pos)
        child = player.advance(0.01)
        assert child is not None and solution_of(parent_score(scores[child])).result \
            == solution_of(scores[pos]).result, pos
        checked += 1
    assert checked > 100_000


def test_depth_and_time_levels_never_read_the_file(saved: solved_file.SolvedFile,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The levels that use the solver read their move from the file at once; depth and
    time levels, ``--ai`` depths and ``oskaplayer`` never open it."""
    reads = []
    monkeypatch.setattr(solved_file.SolvedFile, "ranked_children",
                        lambda self, pos, read=solved_file.SolvedFile.ranked_children:
                        reads.append(pos) or read(self, pos))
    game = make_game("oska", 4)
    for level in levels_for(True):
        player = make_player(game, level.key, "strong")
        before = len(reads)
        player.start(ROOT)
        if level.solve:
            assert player.advance(0.001) in RULES.children(ROOT)
            assert player.solution == (1, 18) and player.saved_moves == 1, level.key
        assert len(reads) - before == bool(level.solve), level.key
        player.stop()
    reads.clear()
    depth = ai_player(game, parse_ai("3"))
    assert depth.think(ROOT, 60) is not None and depth.saved_moves == 0
    assert oskaplayer(RULES.to_rows(ROOT), "w", 2) != RULES.to_rows(ROOT)
    assert reads == []


def test_the_perfect_level_is_offered_where_a_file_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An n = 5 file (an empty one, sparse on disk) offers Perfect for n = 5 only, on
    the start screen too, where a kept choice of Perfect then stays."""
    settings = Settings(n=5, levels=(LevelKey.PERFECT, LevelKey.PERFECT))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert not make_game("oska", 5).perfect_available
    assert choose(settings, Option.MODE, Mode.CVC).levels == (LevelKey.STRONGEST,) * 2
    indexes = solved_file.Places(5).indexes
    blocks = -(-indexes // solved_file.BLOCK_BITS)
    empty = bytes(solved_file.BLOCK_BYTES * 1024)
    chunks = [empty] * (blocks // 1024) + [bytes(-(-indexes // 8) % len(empty))]
    solved_file.write_solved(solved_file.solved_path(5), 5, 1, ((c, b"") for c in chunks))
    five = make_game("oska", 5)
    assert five.perfect_available and not five.solver_covers
    assert LevelKey.PERFECT in [level.key for level in levels_for(five.perfect_available)]
    level_row = next(row for row in rows_for(settings) if row.key == Option.LEVEL)
    assert LevelKey.PERFECT in level_row.values
    assert choose(settings, Option.MODE, Mode.CVC).levels == (LevelKey.PERFECT,) * 2
    assert not make_game("oska", 6).perfect_available
    assert not make_game("hexapawn", 5).perfect_available


def test_a_hint_says_the_exact_result_read_from_the_file(
        saved: solved_file.SolvedFile, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the opening (too far from the end for the hint's own solver) the hint is
    exact at once with the file, and not without it."""
    hint = HintPlayer(make_game("oska", 4))
    hint.start(ROOT)
    child = hint.advance(0.001)
    assert child is not None and saved.solution(child) == (-1, 17)
    assert hint.proven == "with perfect play you win in 18 plies"
    monkeypatch.setenv("XDG_DATA_HOME", str(saved.path.parent))  # no file there
    monkeypatch.setattr(solved_file, "SHIPPED", saved.path.parent / "none")  # nor the package's
    hint.start(ROOT)
    while hint.advance(0.05) is None:
        pass
    assert hint.proven == ""


def test_analyze_prints_the_exact_result_from_the_file(saved: solved_file.SolvedFile,
                                                       scores: dict) -> None:
    """With solving off, the exact line and every move's value still come from the file;
    the line names the winner, also when the side to move loses."""
    pos = ROOT
    result = run_cli("analyze", ",".join(RULES.to_rows(pos)), "w", "--depth", 1,
                     "--solve-limit", 0)
    assert result.returncode == 0, result.stderr
    assert "Exact: White wins in 18 plies with perfect play (read from the solved file" \
        in result.stdout
    after = RULES.children(pos)[0]
    losing = run_cli("analyze", ",".join(RULES.to_rows(after)), "b", "--depth", 1,
                     "--solve-limit", 0)
    value = solution_of(scores[after])
    assert f"Exact: White wins in {value.plies} plies with perfect play" in losing.stdout
    for kid in RULES.children(pos):
        value = solution_of(parent_score(scores[kid]))
        move = RULES.move_text(RULES.move_between(pos, kid))
        row = next(line for line in result.stdout.splitlines() if line.startswith(move + " "))
        verdict = {1: "wins", 0: "draws", -1: "loses"}[value.result]
        assert row.split(None, 1)[1] == f"White {verdict} in {value.plies} plies"


def test_a_tournament_records_which_entrants_read_the_file(
        saved: solved_file.SolvedFile) -> None:
    """Perfect against depth 2: the record names White's side only."""
    conditions = Conditions(n=4, depth=2, time_limit=5.0)
    task = GameTask("g1", Entrant("perfect", ai="perfect"), Entrant("two", ai="2"), OPENING,
                    conditions)
    result, record = play(task)
    assert result.winner == 0 and json.loads(record)[SOLVED_FIELD] == ["white"]
    task = GameTask("g2", Entrant("one", ai="1"), Entrant("two", ai="2"), OPENING, conditions)
    assert SOLVED_FIELD not in json.loads(play(task)[1])


def test_a_review_takes_every_exact_value_from_the_file(saved: solved_file.SolvedFile,
                                                        scores: dict,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game from after the opening is reviewed with the file's values, without solving."""
    players = [make_player(make_game("oska", 4), LevelKey.BEGINNER, "strong")
               for _ in range(2)]
    record = runner.play(RULES, players, [ROOT])

    def refuse(*args: object) -> None:
        """Fail the test: the review solved instead of reading the file."""
        raise AssertionError("the review used the solver")

    monkeypatch.setattr(Solver, "table_steps", refuse)
    job = review_job.ReviewJob(record, Budget(None, 1))
    while not job.advance(1.0):
        pass
    positions = record.positions()
    for pos, played, assessment in zip(positions, positions[1:], job.review.assessments,
                                       strict=False):
        assert assessment.exact == (solution_of(scores[pos]),
                                    solution_of(parent_score(scores[played]))), pos


@pytest.mark.slow
def test_the_shipped_n4_file_is_the_whole_game_as_the_solver_writes_it(
        whole_folder: Path) -> None:
    """The file the package carries is byte for byte the one the pure-Python solver's
    whole n = 4 game makes (and so, by test_tablebase, the one ``oska solve --n 4 --save``
    writes)."""
    made = whole_folder / solved_file.APP_DIR / "oska-n4.solved"
    assert made.read_bytes() == (solved_file.SHIPPED / "oska-n4.solved").read_bytes()
