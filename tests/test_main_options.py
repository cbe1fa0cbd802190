"""``python3 main.py`` options as real processes: --help, bots, --replay and bad input.

Each run is short: ``--frames N`` (a hidden option for scripted checks) quits after N
frames and prints the status line. Settings go to a private XDG_CONFIG_HOME.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
MAIN = REPO_ROOT / "main.py"
TIMEOUT = 120  # far above any run here; only stops a runaway
BOT = "def oskaplayer(board, player, depth):\n    return board\n"


def run_main(args: list[str], tmp_path: Path, display: bool = True) -> subprocess.CompletedProcess:
    """Run main.py with ``args`` (headless SDL unless ``display`` is False: no display)."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"))
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    if display:
        env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, str(MAIN), *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)


def saved_game(tmp_path: Path) -> Path:
    """Save a real game record with the command-line tool and return its path."""
    path = tmp_path / "game.json"
    result = subprocess.run([sys.executable, "-m", "oska_gui", "selfplay", "--n", "5",
                             "--depth", "1", "--brief", "--save", str(path)],
                            cwd=REPO_ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return path


def test_help_lists_the_options_even_without_a_display(tmp_path: Path) -> None:
    result = run_main(["--help"], tmp_path, display=False)
    assert result.returncode == 0, result.stderr
    for option in ("--white BOT", "--black BOT", "--bot-time SECONDS", "--bot-depth DEPTH",
                   "--replay FILE", "--n N"):
        assert option in result.stdout
    assert "--frames" not in result.stdout  # only for scripted checks


@pytest.mark.slow
def test_a_replay_opens_the_saved_game_at_its_start(tmp_path: Path) -> None:
    result = run_main(["--replay", str(saved_game(tmp_path)), "--frames", "5"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "White to move"


@pytest.mark.slow
def test_a_bot_on_the_command_line_is_chosen_on_the_start_screen(tmp_path: Path) -> None:
    bot = tmp_path / "mine.py"
    bot.write_text(BOT, encoding="utf-8")
    result = run_main(["--white", f"{bot}:oskaplayer", "--bot-time", "2", "--frames", "3"],
                      tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        "Start screen: Oska n = 4, You vs computer (White: bot mine.py). Press Enter to start.")
    both = run_main(["--white", str(bot), "--black", str(bot), "--frames", "2"], tmp_path)
    assert "Computer vs computer (White: bot mine.py) (Black: bot mine.py)" in both.stdout


@pytest.mark.slow
def test_n_24_starts_a_game_on_the_largest_board(tmp_path: Path) -> None:
    result = run_main(["--n", "24", "--frames", "3"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "Your move (White)"
    settings = json.loads((tmp_path / "config" / "oska-gui" / "settings.json").read_text())
    assert settings["n"] == 24  # the size is the start screen's choice from then on


@pytest.mark.parametrize("size", ["3", "25", "twelve", "-4"])
def test_a_size_outside_4_to_24_is_one_clear_line(tmp_path: Path, size: str) -> None:
    result = run_main(["--n", size], tmp_path, display=False)  # checked before the display
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines[-1] == (f"main.py: error: argument --n: the board size must be a whole "
                         f"number from 4 to 24, got {size!r}")
    assert "Traceback" not in result.stderr


def bad_record(tmp_path: Path, kind: str) -> Path:
    """Write a broken game record of the given kind and return its path."""
    path = tmp_path / f"{kind}.json"
    good = {"format": "oska-game", "version": 1, "n": 4,
            "players": {"white": "a", "black": "b"}, "moves": ["a1-b1"],
            "result": "white", "reason": "r", "opening_plies": 0, "forfeit": None}
    content = {
        "not-json": "{not json",
        "other-json": json.dumps({"hello": 1}),
        "illegal-move": json.dumps({**good, "moves": ["a1-c1"]}),
        "unfinished": json.dumps(good),
    }.get(kind)
    if kind == "binary":
        path.write_bytes(b"\xff\xfe\x00garbage")
    elif content is not None:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "message"), [
    ("missing", "cannot read"),
    ("not-json", "not JSON"),
    ("other-json", "not an Oska game record"),
    ("illegal-move", "move 1 ('a1-c1')"),
    ("unfinished", "not over"),
    ("binary", "not a playable game record"),
])
def test_a_bad_record_is_one_clear_line_and_exit_code_2(tmp_path: Path, kind: str,
                                                       message: str) -> None:
    result = run_main(["--replay", str(bad_record(tmp_path, kind))], tmp_path)
    assert result.returncode == 2
    assert "argument --replay" in result.stderr and message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--white", "no/such/bot.py"], "no such bot file"),
    (["--black", "bot.py", "--bot-time", "0"], "expected a number > 0"),
    (["--black", "bot.py", "--bot-depth", "zero"], "expected a whole number"),
])
def test_bad_bot_options_are_refused_with_exit_code_2(tmp_path: Path, args: list[str],
                                                      message: str) -> None:
    (tmp_path / "bot.py").write_text(BOT, encoding="utf-8")
    result = run_main(args, tmp_path, display=False)  # checked before the display is
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_no_display_still_exits_with_code_2_and_the_help_text(tmp_path: Path) -> None:
    result = run_main(["--replay", str(saved_game(tmp_path))], tmp_path, display=False)
    assert result.returncode == 2
    assert "no display" in result.stderr and "Traceback" not in result.stderr
