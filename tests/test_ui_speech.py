"""The game in words for screen readers: moves, the position, and calm announcements."""

from __future__ import annotations

import re

from ui_fakes import RecordingCanvas

from oska_gui.core.types import BLACK, WHITE, Move
from oska_gui.play.game import LegalMove, make_game
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.kit.events import KeyPress, PointerDown
from oska_gui.ui.speech import (
    Announcer,
    cell_sentence,
    describe,
    move_sentence,
    pick_sentence,
    pieces_sentence,
)

QUICK = {"levels": ["beginner", "beginner"], "animation": "off", "pace": "instant"}
PROGRESS = re.compile(r"depth|\d\.\d s")


def test_moves_in_words() -> None:
    game = make_game("oska", 4)
    step = game.legal_moves(game.start())[0].move
    assert move_sentence(game, WHITE, step) == (
        f"White moves {game.cell_name(step.frm)} to {game.cell_name(step.to)}")
    jump = Move(0, 8, 5)
    assert move_sentence(game, BLACK, jump) == (
        f"Black jumps {game.cell_name(0)} to {game.cell_name(8)} and captures on "
        f"{game.cell_name(5)}")
    assert move_sentence(game, WHITE, Move(-1, -1, -1)) == "White passes"


def test_the_position_in_words_names_every_piece() -> None:
    game = make_game("oska", 5)
    pos = game.start()
    text = pieces_sentence(game, pos, WHITE)
    named = text.split(": ")[1].split(", ")
    assert text.startswith(f"White, {game.count(pos, WHITE)} pieces")
    assert sorted(named) == sorted(game.cell_name(c) for c in range(game.cell_count)
                                   if game.piece_at(pos, c) == WHITE)


def test_a_game_is_described_and_announced_without_the_search_progress() -> None:
    app = App(MemoryStorage({**QUICK, "mode": "cvc", "levels": ["hard", "hard"]}), 900, 700)
    canvas = RecordingCanvas(900, 700)
    announcer = Announcer()
    assert announcer.news(app) == app.status_text
    assert announcer.news(app) is None  # nothing changed
    app.handle(KeyPress("enter"))
    said: list[str] = []
    for _ in range(20_000):
        app.update(0.02)
        app.draw(canvas)
        news = announcer.news(app)
        if news is not None:
            said.append(news)
        assert app.game is not None
        if app.game.match.over and news is None:
            break
    match = app.game.match
    assert match.over
    moves = len(match.history.positions) - 1
    played = [s for s in said if re.search(r"(moves|jumps) \w+ to \w+|passes", s)]
    assert len(played) == moves  # each move once
    assert not any(PROGRESS.search(s) for s in said)
    assert len(said) <= 2 * moves + 2  # a move, then whose turn: nothing per frame
    outcome = match.outcome
    assert outcome is not None and outcome.describe() in said[-1]
    words = describe(app)
    assert words.startswith("Oska, n = 4.") and "Last move: " in words
    assert outcome.describe() in words


def test_a_hint_is_announced_once_found_not_while_it_thinks() -> None:
    """On n = 5 (no solved file here: the hint searches; n = 4's ships and answers at
    once) the search is announced when it starts, then the hint, nothing between."""
    app = App(MemoryStorage({**QUICK, "n": 5}), 900, 700)
    announcer = Announcer()
    app.handle(KeyPress("enter"))
    announcer.news(app)
    app.handle(KeyPress("h"))
    said = []
    for _ in range(400):
        app.update(0.02)
        news = announcer.news(app)
        if news is not None:
            said.append(news)
    assert app.game is not None and app.game.match.hint is not None
    assert len(said) == 2, said  # looking for a hint…, then the hint
    assert said[0] == "White to move: looking for a hint."
    assert said[1].startswith("Hint for White: ")


def test_the_start_screen_says_tap_after_a_touch_and_enter_after_a_key() -> None:
    app = App(MemoryStorage(QUICK), 390, 844)
    assert app.status_text.endswith("Press Enter to start.")
    app.handle(PointerDown(2, 2, touch=True))
    assert app.status_text.endswith("Tap Start to begin.")
    app.handle(KeyPress("down"))
    assert app.status_text.endswith("Press Enter to start.")


def spoken(app: App, announcer: Announcer, *keys: str) -> str | None:
    """Press ``keys``, let a frame pass and return what the announcer says then."""
    for key in keys:
        app.handle(KeyPress(key))
    app.update(0.0)
    return announcer.news(app)


def game_heard() -> tuple[App, Announcer, GameScene]:
    """Return an App whose game Enter started, an announcer that has heard it start,
    and the game's scene."""
    app = App(MemoryStorage(QUICK), 1000, 700)
    announcer = Announcer()
    app.handle(KeyPress("enter"))
    announcer.news(app)
    assert app.game is not None
    return app, announcer, app.game


def test_the_cursor_a_piece_picked_up_and_its_targets_are_announced() -> None:
    app = App(MemoryStorage(QUICK), 1000, 700)
    announcer = Announcer()
    announcer.news(app)
    assert spoken(app, announcer, "enter") == "Your move (White)."
    scene = app.game
    assert scene is not None
    game, pos = scene.game, scene.match.position
    assert spoken(app, announcer, "up") == f"{game.cell_name(0)}, White piece."
    targets = scene.input.targets(scene.match.legal_moves(), 0)
    names = sorted(game.cell_name(cell) for cell in targets)
    assert spoken(app, announcer, "enter") == (
        f"Picked up {game.cell_name(0)}: it can go to {' or '.join(names)}.")
    assert spoken(app, announcer, "up") == (
        f"{names[0]}, empty, {game.cell_name(0)} can go here.")  # up: towards Black
    assert scene.cursor is not None and game.piece_at(pos, scene.cursor) is None
    assert spoken(app, announcer, "escape") == f"Put {game.cell_name(0)} back."
    assert spoken(app, announcer) is None  # nothing new: nothing said


def test_a_capture_target_names_the_piece_it_takes() -> None:
    game = make_game("oska", 4)
    jump = Move(0, 8, 5)
    targets = {8: LegalMove(jump, game.start())}
    assert pick_sentence(game, 0, targets) == (
        f"Picked up {game.cell_name(0)}: it can go to {game.cell_name(8)} capturing on "
        f"{game.cell_name(5)}")
    assert cell_sentence(game, game.start(), 8, 0, targets).endswith(
        f"{game.cell_name(0)} can go here and capture on {game.cell_name(5)}")


def test_each_start_screen_change_is_spoken() -> None:
    app = App(MemoryStorage(), 1000, 700)  # the default strength: Hard
    announcer = Announcer()
    assert announcer.news(app) == app.status_text
    rows = app.start.rows
    assert spoken(app, announcer, "down") == f"Board size: 4, row 2 of {len(rows)}."
    said = spoken(app, announcer, "right")
    assert said is not None and said.endswith(f"Board size: 5, row 2 of {len(rows)}.")
    assert "Oska n = 5" in said  # the status line changed too
    level_row = next(i for i, row in enumerate(rows) if row.key == "levels")
    said = spoken(app, announcer, *["down"] * (level_row - 1))
    assert said is not None and said.startswith("Computer: Hard · ")
    said = spoken(app, announcer, "right")
    assert said is not None and said.startswith("Computer: Expert · ")
    assert app.settings.levels[1] == "expert"


def test_the_typed_move_line_is_spoken_as_it_is_used() -> None:
    app, announcer, scene = game_heard()
    example = scene.game.move_text(scene.match.legal_moves()[0].move)
    assert spoken(app, announcer, "/") == (
        f"Type a move, like {example}. Enter plays it, Escape closes the line.")
    assert spoken(app, announcer, "a", "1") == "Typed a 1."
    assert spoken(app, announcer, "enter").startswith("Cannot read move 'a1'")
    assert spoken(app, announcer, "enter").startswith("Cannot read move 'a1'")  # again
    assert spoken(app, announcer, "backspace", "backspace") == "Line empty."
    said = spoken(app, announcer, *example, "enter")
    assert said is not None and said.startswith(f"White moves {example[:2]} to {example[3:]}")
    assert "Line empty" not in said
    assert spoken(app, announcer, "escape") == "Move line closed."
    said = spoken(app, announcer, "/", "b")  # quick keys: opened and typed in one frame
    assert said is not None and said.startswith("Type a move") and said.endswith("Typed b.")


def test_a_piece_picked_up_by_a_click_is_not_announced_only_its_move() -> None:
    app, announcer, scene = game_heard()
    legal = scene.match.legal_moves()[0]
    board = scene.board()
    app.handle(PointerDown(*board.center(legal.move.frm)))
    assert scene.input.selected == legal.move.frm
    assert announcer.news(app) is None
    app.handle(PointerDown(*board.center(legal.move.to)))
    said = announcer.news(app)
    assert said is not None and said.startswith("White moves ")
