"""The game in words for screen readers: moves, the position, and calm announcements."""

from __future__ import annotations

import re

from ui_fakes import RecordingCanvas

from oska_gui.core.types import BLACK, WHITE, Move
from oska_gui.play.game import make_game
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.events import KeyPress, PointerDown
from oska_gui.ui.speech import Announcer, describe, move_sentence, pieces_sentence

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
    app = App(MemoryStorage(QUICK), 900, 700)
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
