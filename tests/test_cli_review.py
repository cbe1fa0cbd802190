"""``oska review RECORD``: the printed review, the HTML page and bad input."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_cli, table_rows
from random_games import random_game

from oska_gui.cli import main
from oska_gui.engine.registry import GAMES, GameKind
from oska_gui.engine.solver import solver_for
from oska_gui.play.records import from_positions, load, save
from oska_gui.play.review.budget import DEFAULT_NODES, Budget
from oska_gui.play.review.job import ReviewJob


def saved_game(tmp_path: Path, kind: GameKind, n: int, seed: int) -> Path:
    """Return the file of a seeded random game's record, with names that need escaping."""
    rules = GAMES[kind].rules(n)
    line = random_game(rules, seed)
    path = tmp_path / f"{kind.value}-{n}-{seed}.json"
    save(from_positions(line, rules, "<b>White</b>", "Black & \x1b[31mco",
                        rules.outcome(line[-1])), path)
    return path


def run(args: list[object], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``oska review ARGS`` in this process; return the exit code, stdout, stderr."""
    code = main(["review", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_review_prints_marks_better_moves_and_summaries(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A random Hexapawn game (exact values): each move is a row, every move marked
    ?, ?? or ?! names a better move, and both sides get a summary line, names made safe
    to print."""
    path = saved_game(tmp_path, GameKind.HEXAPAWN, 4, 3)
    code, out, err = run([path, "--time", "0.05"], capsys)
    assert code == 0, err
    rows = [line.split() for line in out.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == len(random_game(GAMES[GameKind.HEXAPAWN].rules(4), 3)) - 1
    bad = [row for row in rows if row[3] in ("?!", "?", "??")]
    assert bad, out  # a random game holds bad moves
    for row in bad:
        assert row[4] in ("inaccuracy", "mistake", "blunder") and row[-1] == "exact"
        assert len(row) == 10  # ply side move symbol mark before after lost better by
    assert "White (<b>White</b>): accuracy" in out
    assert "\x1b" not in out and "Black (Black & \\x1b[31mco): accuracy" in out


def test_the_html_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--html writes one page with the graph as inline SVG, the board to step and one
    board for every bad move (the position before it, the move played and the better
    one as arrows), the players' names escaped."""
    path = saved_game(tmp_path, GameKind.OSKA, 5, 2)
    page = tmp_path / "review.html"
    code, out, err = run([path, "--depth", "2", "--no-exact", "--html", page], capsys)
    assert code == 0, err
    assert f"Review page written to {page}" in out
    text = page.read_text(encoding="utf-8")
    marked = sum(row.split()[3] in ("?!", "?", "??") for row in out.splitlines()
                 if row[:4].strip().isdigit())
    assert text.count('class="board"') == 1 + marked > 1  # the live board, the bad moves'
    assert text.count("<svg") == 2 + marked  # and the graph
    assert text.count("<polygon points=") == 2 * marked  # the move played, the better one
    assert "&lt;b&gt;White&lt;/b&gt;" in text and "<b>White</b>" not in text
    assert not re.search(r'(src|href)=', text)  # nothing loaded, no link at all


@pytest.mark.parametrize("content", ["not json", '{"format": "oska-game", "version": 3}',
                                     None])
def test_a_record_that_does_not_load_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None) -> None:
    """A file that is not a record, a broken record or a missing file: exit code 2 and
    one line on stderr, no traceback."""
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, out, err = run([path], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("oska review: error:")


def test_the_page_path_is_checked_first_and_needs_no_matplotlib(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An --html path in a missing folder: exit code 2 before the review (even of a file
    that is no record), one line naming the option. Without matplotlib the page is
    written all the same (its graph is drawn by hand)."""
    missing = tmp_path / "nowhere" / "r.html"
    code, out, err = run([tmp_path / "none.json", "--html", missing], capsys)
    assert code == 2 and "--html" in err and "No such file or directory" in err
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    path = saved_game(tmp_path, GameKind.OSKA, 4, 1)
    code, out, err = run([path, "--depth", "1", "--html", tmp_path / "r.html"], capsys)
    assert code == 0, err
    assert "<svg class=\"graph\"" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_the_progress_bar_says_when_the_solver_works(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With --progress the bar on stderr notes the exact solve of the end of an n = 5
    game (from the end back, before any position is assessed) and how many positions
    it has met."""
    path = saved_game(tmp_path, GameKind.OSKA, 5, 1)
    solver_for(GAMES[GameKind.OSKA].rules(5)).forget()  # other tests solved this game's end
    code, _, err = run([path, "--depth", "2", "--progress"], capsys)
    assert code == 0, err
    assert re.search(r"reviewing \[\.+\] 0/\d+ .*solving: [\d,]+ positions", err), err


def review_json(record_path: Path, slice_seconds: float, budget: Budget) -> dict:
    """Return the review of a saved record within ``budget``, worked on in slices of
    ``slice_seconds``, as its JSON."""
    job = ReviewJob(load(record_path), budget, exact=False)
    while not job.advance(slice_seconds):
        pass
    return job.review.to_json()


def test_a_node_budget_gives_one_review_however_the_work_is_sliced(tmp_path: Path) -> None:
    """Slices of 0.1 ms (a frame loop at its busiest) and of 1 s: the same marks,
    chances, better moves and accuracy, to the last digit."""
    path = saved_game(tmp_path, GameKind.OSKA, 5, 2)
    budget = Budget(nodes=3_000)
    assert review_json(path, 0.0001, budget) == review_json(path, 1.0, budget)


@pytest.mark.slow
def test_two_reviews_of_one_record_are_the_same_byte_for_byte(tmp_path: Path) -> None:
    """Two fresh processes at the default budget, one beside a busy loop: the same
    output, byte for byte, and the header names the budget and the exact source."""
    path = saved_game(tmp_path, GameKind.OSKA, 5, 4)
    quiet = run_cli("review", path)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        loaded = run_cli("review", path)
    finally:
        busy.kill()
        busy.wait()
    assert quiet.returncode == loaded.returncode == 0, quiet.stderr + loaded.stderr
    assert quiet.stdout == loaded.stdout
    assert f"Search: {DEFAULT_NODES:,} nodes a position" in quiet.stdout
    assert "Exact values: the exact solver in endgames" in quiet.stdout


def test_the_chance_after_a_move_is_the_chance_before_the_next(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table gives White's chance throughout, each position's one value: a row's
    'after' is the next row's 'White % before', and the first is the graph's start."""
    path = saved_game(tmp_path, GameKind.OSKA, 5, 2)
    code, out, err = run([path, "--nodes", 2000, "--no-exact"], capsys)
    assert code == 0, err
    rows = table_rows(out, "ply")
    assert len(rows) > 10
    for row, following in zip(rows, rows[1:], strict=False):
        assert row["after"] == following["White % before"], (row, following)
    review = review_json(path, 1.0, Budget(nodes=2000))
    assert rows[0]["White % before"] == f"{100 * review['white_chances'][0]:.0f}"
