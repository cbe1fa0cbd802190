"""The page-load benchmark's report and command line (its browser run is in the note)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.web_load import Visit, parse_args, report


def test_the_report_names_the_longest_task_and_what_the_page_said_then() -> None:
    """Each visit's line gives the first frame, the longest task with the loading text
    shown when it began, and how many tasks passed 200 ms."""
    cold = Visit(9000.0, [(100.0, 60.0), (2500.0, 6700.0), (8000.0, 250.0)],
                 [(10.0, "Loading Oska…"), (2400.0, "Starting the Python runtime…")])
    repeat = Visit(900.0, [], [(10.0, "Loading Oska…")])
    lines = report([cold, repeat]).splitlines()
    assert lines[0].split() == [
        "cold", "first", "visit", "first", "frame", "9000", "ms", "longest", "task", "6700",
        "ms", "at", "2500", "ms", "(Starting", "the", "Python", "runtime…)", "tasks", "over",
        "200", "ms:", "2"]
    assert "longest task      0 ms" in lines[1] and lines[1].endswith("200 ms: 0")
    assert cold.text_at(5.0) == "" and cold.text_at(2400.0) == "Starting the Python runtime…"


@pytest.mark.parametrize(("argv", "message"), [
    (["--visits", "0"], "--visits must be at least 1"),
    (["--chromium", "/nowhere/chromium"], "no Chromium at /nowhere/chromium"),
])
def test_bad_options_are_usage_errors(argv: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A visit count under 1 or a missing Chromium is a usage message, exit code 2."""
    with pytest.raises(SystemExit) as stop:
        parse_args(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_defaults_are_two_visits_of_the_default_site() -> None:
    """Without options: a cold visit and one repeat of the default site."""
    args = parse_args(["--chromium", __file__])
    assert args.visits == 2 and args.chromium == Path(__file__)


def test_the_computer_move_gets_a_line_of_its_own() -> None:
    """After the visits, the computer's move at Expert: how long it took, its longest
    task and what it was, and how many tasks passed 200 ms."""
    move = Visit(1500.0, [(30000.0, 120.0)], [(29990.0, "the computer's move at Expert")])
    last = report([Visit(900.0, [], [])], move).splitlines()[-1]
    assert last.split() == [
        "AI", "move", "at", "Expert", "took", "1500", "ms", "longest", "task", "120", "ms",
        "at", "30000", "ms", "(the", "computer's", "move", "at", "Expert)", "tasks", "over",
        "200", "ms:", "0"]
