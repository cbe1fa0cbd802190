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

from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.board.keyboard_cursor import DIRECTIONS, neighbour
from oska_gui.ui.game.commands import KEYS, Command
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.kit.events import KeyPress
from oska_gui.ui.overlays.confirm import NEW_GAME

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


def keys_in_a_game(help_text: str) -> list[tuple[str, str]]:
    """Return (key, what it does) for each key named after 'keys in a game:' in the help.

    The help lists 'KEYS meaning' items split by ', ', KEYS one or more keys split by
    '/'; keys come back as the UI names them ('arrows' as the four arrow keys) and a
    meaning without the note in brackets after it.
    """
    text = " ".join(help_text.split("keys in a game:", 1)[1].split())
    pairs = []
    for item in text.split(", "):
        keys, meaning = item.split(" ", 1)
        for key in keys.split("/"):
            names = tuple(DIRECTIONS) if key == "arrows" else (key.lower(),)
            pairs += [(name, meaning.split(" (")[0]) for name in names]
    return pairs


def game_app(mode: str = "hvh", moves: int = 1) -> tuple[App, GameScene]:
    """Return an App in a new game of Oska (``mode``, the computer a beginner), with
    ``moves`` moves played, and its game scene."""
    app = App(MemoryStorage({"mode": mode, "kind": "oska", "n": 5, "animation": "off",
                             "levels": ["beginner", "beginner"]}), 900, 700)
    app.handle(KeyPress("enter"))
    scene = app.game if app.game is not None else pytest.fail("no game")
    for _ in range(moves):
        assert scene.match.play(scene.match.legal_moves()[0].child)
    return app, scene


def moves_the_cursor(key: str) -> None:
    """The first press shows the keyboard cursor, the next moves it that way; no move
    is undone or redone."""
    app, scene = game_app()
    history = scene.match.history
    app.handle(KeyPress(key))
    shown = scene.cursor if scene.cursor is not None else pytest.fail("no cursor")
    app.handle(KeyPress(key))
    board = scene.board()
    centers = [board.center(cell) for cell in range(board.cell_count)]
    assert scene.cursor == neighbour(centers, shown, key)
    assert (len(history.positions), history.cursor) == (2, 1)


def picks_up_or_puts_down(key: str) -> None:
    """On a piece of the side to move it picks the piece up; again, it puts it back."""
    app, scene = game_app(moves=0)
    app.handle(KeyPress("down"))  # shows the cursor on a piece of the side to move
    app.handle(KeyPress(key))
    assert scene.input.selected == scene.cursor is not None
    app.handle(KeyPress(key))
    assert scene.input.selected is None


def undoes(key: str) -> None:
    """It takes back the move played."""
    app, scene = game_app()
    app.handle(KeyPress(key))
    assert scene.match.history.cursor == 0


def redoes(key: str) -> None:
    """It plays again the move taken back."""
    app, scene = game_app()
    scene.match.undo()
    app.handle(KeyPress(key))
    assert scene.match.history.cursor == 1


def hints(key: str) -> None:
    """On the human's turn against the computer it asks for a hint."""
    app, scene = game_app("hvc", moves=0)
    app.handle(KeyPress(key))
    assert scene.match.hint_pending or scene.match.hint is not None


def shows_cell_names(key: str) -> None:
    """It shows the cell names, or hides them when shown."""
    app, _ = game_app()
    shown = app.settings.coordinates
    app.handle(KeyPress(key))
    assert app.settings.coordinates is not shown


def starts_a_new_game(key: str) -> None:
    """It starts a new game (after asking, as a move was played)."""
    app, scene = game_app()
    app.handle(KeyPress(key))
    if app.question is NEW_GAME:
        app.handle(KeyPress("enter"))
    assert app.game is not scene and app.game is not None
    assert len(app.game.match.history.positions) == 1


def shows_help(key: str) -> None:
    """It opens the help."""
    app, _ = game_app()
    app.handle(KeyPress(key))
    assert app.help


# What each meaning in the help's keys line must do, and the command it is bound to in
# the game's table of keys (None: a key the game or the App handles by itself).
MEANINGS = {
    "move the cursor": (moves_the_cursor, None),
    "picks up or puts down a piece": (picks_up_or_puts_down, None),
    "undo": (undoes, Command.UNDO),
    "redo": (redoes, Command.REDO),
    "hint": (hints, Command.HINT),
    "cell names": (shows_cell_names, Command.COORDINATES),
    "new game": (starts_a_new_game, Command.NEW),
    "help": (shows_help, None),
}


def test_the_keys_the_help_names_do_what_it_says(tmp_path: Path) -> None:
    """Each key of the help's 'keys in a game' line, pressed in a game, does what the
    line says and is bound to that command; arrows move the cursor, not through moves."""
    result = run_main(["--help"], tmp_path, display=False)
    assert result.returncode == 0, result.stderr
    pairs = keys_in_a_game(result.stdout)
    assert len(pairs) >= len(MEANINGS), pairs
    for key, meaning in pairs:
        assert meaning in MEANINGS, f"no check here of what the help says {key} does"
        check, command = MEANINGS[meaning]
        assert KEYS.get(key) == command, (key, meaning)
        check(key)


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
