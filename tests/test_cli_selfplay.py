"""``oska selfplay`` as a real process: the transcript is a legal game, the same as its record."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from cli_helpers import run_cli

from oska_gui.games.oska import SIDE_NAMES, oska_rules
from oska_gui.play.records import load

TIMING = re.compile(r"\(\d+\.\d+ s\)")
PLY = re.compile(r"^ply +(\d+) +(White|Black) +(\S+) +\(([^)]*)\)")
ROWS = re.compile(r"(\[.*\])$")


def transcript(stdout: str) -> list[tuple[int, str, str, str, list[str]]]:
    """Return (ply, side, move, note, board rows) per printed ply; the start is ply 0.

    The rows list ends the heading line (--brief) or the line under it (with pictures).
    """
    lines = stdout.splitlines()
    plies = []
    for i, line in enumerate(lines):
        match = PLY.match(line)
        if not match and not line.startswith("start"):
            continue
        found = ROWS.search(line) or ROWS.search(lines[i + 1])
        rows = ast.literal_eval(found.group(1))
        head = (int(match.group(1)), *match.group(2, 3, 4)) if match else (0, "", "", "")
        plies.append((*head, rows))
    return plies


@pytest.mark.parametrize("brief", [False, True])
def test_the_transcript_is_a_legal_game_matching_the_saved_record(tmp_path: Path,
                                                                   brief: bool) -> None:
    """Every ply's move turns the previous board into the printed one; the record agrees."""
    path = tmp_path / "game.json"
    args = ["selfplay", "--n", 5, "--white", "2", "--black", "1:simple", "--save", path]
    result = run_cli(*args, *(["--brief"] if brief else []))
    assert result.returncode == 0, result.stderr
    rules = oska_rules(5)
    plies = transcript(result.stdout)
    pos = rules.start()
    assert plies[0][4] == rules.to_rows(pos)
    for number, (ply, side, move, _, rows) in enumerate(plies[1:], start=1):
        assert ply == number and side == SIDE_NAMES[pos.turn]
        child = rules.play(pos, rules.parse_move(move, pos))
        assert rules.to_rows(child) == rows
        pos = child
    outcome = rules.outcome(pos)
    assert outcome is not None
    assert f"Result after {len(plies) - 1} plies: {outcome.describe()}" in result.stdout
    record = load(path)
    assert list(record.moves) == [ply[2] for ply in plies[1:]]
    assert record.positions()[-1] == pos
    assert (record.white, record.black) == ("AI depth 2 (strong)", "AI depth 1 (simple)")
    if not brief:  # the picture is printed too
        assert rules.picture(rules.start()).splitlines()[0].strip() in result.stdout


def without_timings(text: str) -> str:
    """Return a transcript with its thinking times blanked: they vary run to run."""
    return TIMING.sub("(? s)", text)


@pytest.mark.slow
def test_the_opening_plies_are_random_but_seeded(tmp_path: Path) -> None:
    """The same seed gives the same game; the first K plies are marked as random."""
    args = ("selfplay", "--opening-plies", 3, "--depth", 1, "--brief")
    first, again = run_cli(*args, "--seed", 5), run_cli(*args, "--seed", 5)
    assert first.returncode == 0
    assert without_timings(first.stdout) == without_timings(again.stdout)
    notes = [ply[3] for ply in transcript(first.stdout)[1:]]
    assert notes[:3] == ["random opening"] * 3
    assert all(note.endswith(" s") for note in notes[3:])
    others = {without_timings(run_cli(*args, "--seed", seed).stdout) for seed in (6, 7, 8)}
    assert len(others | {without_timings(first.stdout)}) > 1


def test_bad_options_are_reported_clearly() -> None:
    """Unknown AI specs and bad sizes give exit code 2 and a message, no traceback."""
    for args, words in ((["--white", "7:clever"], "unknown evaluator 'clever'"),
                        (["--black", "fast"], "cannot read the AI 'fast'"),
                        (["--n", "3"], "expected a number >= 4")):
        result = run_cli("selfplay", *args)
        assert result.returncode == 2, args
        assert words in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["selfplay", "match", "check", "analyze", "review"])
def test_every_subcommand_has_help(command: str) -> None:
    """``oska COMMAND --help`` explains the command and lists its options."""
    result = run_cli(command, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith(f"usage: oska {command}")
    assert "examples:" in result.stdout and "--" in result.stdout
