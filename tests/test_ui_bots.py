"""External bots in the pygame-free UI: start-screen choice, Oska only, forfeits, no processes.

The bots here are fakes behind the ``BotSource`` face; the real process-isolated bots
are driven through the desktop window in test_desktop_bots.py.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from ui_fakes import RecordingCanvas

from oska_gui.games.oska import BLACK, WHITE
from oska_gui.play.bot_player import BoardBotPlayer, bot_label
from oska_gui.play.game import make_game
from oska_gui.play.levels import LevelKey
from oska_gui.session.match import Match
from oska_gui.session.settings import MemoryStorage, Mode, Settings
from oska_gui.ui.app import App
from oska_gui.ui.kit.events import KeyPress, PointerDown
from oska_gui.ui.start.start_scene import BOT_OSKA_ONLY, StartScene, offer_bots, rows_for

REPO_ROOT = Path(__file__).resolve().parent.parent
GAME4 = make_game("oska", 4)
FAST = {"animation": "off", "pace": "instant", "levels": ["easy", "easy"]}


class ScriptedBot:
    """A ``BoardBot`` that answers each request with the next reply of a script.

    A reply is 'move' (the first legal move), 'fail' (a forfeit) or 'wait' (no answer
    yet; the next poll goes on with the script).
    """

    name = "/somewhere/scripted.py:oskaplayer"

    def __init__(self, script: list[str]) -> None:
        """Answer with ``script``'s replies in turn (the last one repeats)."""
        self.script = script
        self.asked: list[tuple] = []
        self.cancelled = 0

    def request(self, board: list[str], player: str, depth: int) -> None:
        """Remember the question."""
        self.asked.append((board, player, depth))

    def poll(self) -> object | None:
        """Return the next scripted reply for the last question."""
        step = self.script.pop(0) if len(self.script) > 1 else self.script[0]
        if step == "wait":
            return None
        board, player, _ = self.asked[-1]
        rules = GAME4.rules
        pos = rules.from_rows(board, "wb".index(player))
        return FakeReply(rules.to_rows(GAME4.legal_moves(pos)[0].child), step == "move")

    def cancel(self) -> None:
        """Count the cancelled requests."""
        self.cancelled += 1


class FakeReply:
    """A stand-in for a judged ``bot_process.CallResult``: a board, or a forfeit with a sentence."""

    def __init__(self, board: list[str], ok: bool) -> None:
        """Hold the board and whether it is a legal answer."""
        self.board, self.ok = board, ok
        self.reason = None if ok else "exception"
        self.seconds = 0.01

    @property
    def summary(self) -> str:
        """Return the forfeit's line ('' for a legal answer)."""
        return "" if self.ok else "ValueError: boom (bot.py, line 3)"


class FakeSource:
    """A ``BotSource`` over a ScriptedBot that counts players made and closes."""

    def __init__(self, script: list[str], label: str = "scripted.py") -> None:
        """Offer a bot that follows ``script``."""
        self.label = label
        self.bot = ScriptedBot(script)
        self.players: list[BoardBotPlayer] = []
        self.closed = 0

    def player(self, game) -> BoardBotPlayer:
        """Return a BoardBotPlayer of the scripted bot on ``game``."""
        player = BoardBotPlayer(game, self.bot, 3)
        self.players.append(player)
        return player

    def close(self) -> None:
        """Count the closes."""
        self.closed += 1


def frames(app: App, count: int) -> None:
    """Run ``count`` frames of 20 ms, drawing each on a recording canvas."""
    canvas = RecordingCanvas(app.width, app.height)
    for _ in range(count):
        app.update(0.02)
        app.draw(canvas)


def test_nothing_under_ui_imports_processes_or_threads_at_import_time() -> None:
    """The browser has no processes: importing every UI module must not pull them in."""
    code = (
        "import pkgutil, importlib, sys, oska_gui.ui as ui\n"
        "names = [m.name for m in pkgutil.walk_packages(ui.__path__, 'oska_gui.ui.')]\n"
        "assert len(names) > 30, names\n"
        "for name in names: importlib.import_module(name)\n"
        "bad = [m for m in ('subprocess', 'multiprocessing', 'threading', 'oska_gui.bots.external',"
        " 'oska_gui.bots.bot_process') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_browser_bundle_leaves_the_bot_processes_out() -> None:
    """The web build ships what the page imports at any depth: no process machinery."""
    from oska_gui.web.build import browser_modules

    names = set(browser_modules())
    assert "oska_gui/play/bot_player.py" in names and "oska_gui/ui/app.py" in names
    assert not names & {"oska_gui/bots/external.py", "oska_gui/bots/bot_process.py",
                        "oska_gui/bots/external_worker.py", "oska_gui/desktop/bots.py"}


def test_bot_label_is_the_file_name_and_an_unusual_function() -> None:
    assert bot_label("bots/deep/mine.py:oskaplayer") == "mine.py"
    assert bot_label("mine.py:play") == "mine.py:play"


def test_offer_bots_sets_up_a_game_the_bots_play() -> None:
    hexapawn = Settings(kind="hexapawn", n=3, mode=Mode.HVC, human_side=WHITE)
    one = offer_bots(hexapawn, {WHITE})
    assert (one.kind, one.n, one.mode, one.human_side) == ("oska", 4, Mode.HVC, BLACK)
    assert one.levels == (LevelKey.EXTERNAL, "hard")
    two_players = offer_bots(Settings(mode=Mode.HVH), {BLACK})
    assert (two_players.mode, two_players.human_side) == (Mode.HVC, WHITE)
    assert two_players.levels[BLACK] == LevelKey.EXTERNAL
    both = offer_bots(Settings(), {WHITE, BLACK})
    assert both.mode == Mode.CVC and both.levels == (LevelKey.EXTERNAL, LevelKey.EXTERNAL)
    # a saved bot level without a bot this time falls back to the default strength
    stale = offer_bots(Settings(levels=(LevelKey.EXTERNAL, "easy"), mode=Mode.CVC), set())
    assert stale.levels == ("hard", "easy") and stale.mode == Mode.CVC


def test_the_strength_stepper_ends_with_the_bot_and_it_is_chosen_at_start() -> None:
    app = App(MemoryStorage(FAST), 1000, 700, bots={BLACK: FakeSource(["move"])})
    assert app.settings.levels[BLACK] == LevelKey.EXTERNAL and app.settings.human_side == WHITE
    assert "Black: bot scripted.py" in app.status_text
    row = next(r for r in app.start.rows if (r.key, r.side) == ("levels", BLACK))
    assert row.values[-1] == LevelKey.EXTERNAL and row.names[-1][0] == "Bot · scripted.py"
    # a bot has no evaluator to pick
    assert ("evaluators", BLACK) not in [(r.key, r.side) for r in app.start.rows]
    canvas = RecordingCanvas(1000, 700)
    app.draw(canvas)
    assert "Bot · scripted.py" in canvas.texts()
    # step back to a built-in level and forward to the bot again, by keyboard
    keys = [(r.key, r.side) for r in app.start.rows]
    for _ in range(keys.index(("levels", BLACK))):
        app.handle(KeyPress("down"))
    app.handle(KeyPress("left"))
    assert app.start.settings.levels[BLACK] != LevelKey.EXTERNAL
    assert ("evaluators", BLACK) in [(r.key, r.side) for r in app.start.rows]
    app.handle(KeyPress("right"))
    assert app.start.settings.levels[BLACK] == LevelKey.EXTERNAL


def test_no_bot_no_bot_choice() -> None:
    rows = rows_for(Settings(mode=Mode.CVC))
    for side in (WHITE, BLACK):
        row = next(r for r in rows if (r.key, r.side) == ("levels", side))
        assert LevelKey.EXTERNAL not in row.values


def test_the_bot_plays_its_side_and_closes_with_the_app() -> None:
    source = FakeSource(["wait", "move"])
    app = App(MemoryStorage(FAST), 1000, 700, bots={BLACK: source})
    app.handle(KeyPress("enter"))
    match = app.game.match
    assert match.players[BLACK] is source.players[0]
    match.play(match.legal_moves()[0].child)
    for _ in range(40):
        if match.human_to_move:
            break
        frames(app, 1)
    assert match.history.cursor == 2
    assert source.bot.asked[0][1:] == ("b", 3)
    canvas = RecordingCanvas(1000, 700)
    app.draw(canvas)
    assert "Computer · bot scripted.py" in canvas.texts()
    app.close()
    assert source.closed == 1


def test_a_bot_chosen_for_hexapawn_is_refused_with_a_clear_message() -> None:
    app = App(MemoryStorage(FAST), 1000, 700, bots={WHITE: FakeSource(["move"])})
    app.handle(KeyPress("right"))  # Game: Oska -> Hexapawn
    assert app.start.settings.kind == "hexapawn"
    assert app.start.settings.levels[WHITE] == LevelKey.EXTERNAL
    row = next(r for r in app.start.rows if (r.key, r.side) == ("levels", WHITE))
    assert row.names[-1][0] == "Bot · scripted.py (Oska only)"
    assert app.status_text == BOT_OSKA_ONLY + "."
    canvas = RecordingCanvas(1000, 700)
    app.draw(canvas)
    assert BOT_OSKA_ONLY in canvas.texts()
    app.handle(KeyPress("enter"))
    assert app.game is None and app.scene is app.start  # not started
    app.handle(KeyPress("left"))  # back to Oska: the bot may play
    app.handle(KeyPress("enter"))
    assert app.game is not None and app.game.match.game.kind == "oska"


def test_a_forfeit_is_over_until_undo_and_the_bot_is_asked_again() -> None:
    """A bot that failed once plays on after an undo (its failure is forgotten)."""
    source = FakeSource(["fail", "move"])
    settings = Settings(mode=Mode.HVC, human_side=WHITE, animation="off", pace="instant")
    bot = source.player(GAME4)
    match = Match(GAME4, settings, lambda game, s, side: bot)
    match.play(match.legal_moves()[0].child)
    for _ in range(40):
        match.update(0.02, 0.01)
    assert match.over and match.outcome.winner == WHITE
    assert match.status_text == ("White wins: bot scripted.py forfeits: raised an exception: "
                                 "ValueError: boom (bot.py, line 3)")
    assert match.undo() and not match.over
    match.play(match.legal_moves()[0].child)
    for _ in range(40):
        match.update(0.02, 0.01)
    assert not match.over and match.history.cursor == 2 and len(source.bot.asked) == 2


def test_start_screen_clicks_on_start_are_refused_too() -> None:
    shown = [Settings(kind="hexapawn", n=4, human_side=BLACK,
                      levels=(LevelKey.EXTERNAL, "easy"))]
    scene = StartScene(lambda: shown[0], 1000, 700, bots={BLACK: "b.py", WHITE: "w.py"})
    assert scene.handle(PointerDown(*scene.layout().buttons["start"].center)) is None
    shown[0] = replace(shown[0], kind="oska")
    assert scene.handle(PointerDown(*scene.layout().buttons["start"].center)) == "start"
