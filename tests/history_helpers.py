"""Helpers for the tests of the kept games: random two-player games, a history of them."""

from __future__ import annotations

import random

from oska_gui.play.game import make_game
from oska_gui.play.levels import LevelKey
from oska_gui.session.game_history import GameHistory
from oska_gui.session.match import Match
from oska_gui.session.saved_game import GameKeeper
from oska_gui.session.settings import MemoryStorage, Mode, Settings
from oska_gui.ui.app import App
from oska_gui.ui.kit.events import KeyPress

FAST = dict(levels=(LevelKey.BEGINNER, LevelKey.BEGINNER), animation="off", pace="instant")
# the same choices as stored settings, for an App's storage
QUICK = {"levels": ["beginner", "beginner"], "animation": "off", "pace": "instant"}


def played(moves: int | None, seed: int = 1, n: int = 4, **settings: object) -> Match:
    """Return a match of Oska ``n`` (two players unless ``settings`` say otherwise)
    after ``moves`` random moves (None: to the end; a pass is played when due)."""
    game = make_game("oska", n)
    match = Match(game, Settings(**{"n": n, "mode": Mode.HVH, **FAST, **settings}))
    choose = random.Random(seed)
    while not match.over and (moves is None or len(match.history.positions) <= moves):
        if match.human_to_move or match.is_computer(match.turn):
            match.runner.push(choose.choice(game.children(match.position)))
        else:  # a pass: announced, then played
            match.update(2.0, 0.01)
    return match


def history_of(*matches: Match) -> GameHistory:
    """Return a history in memory that kept ``matches`` in order (the last is the newest)."""
    history = GameHistory(MemoryStorage())
    for match in matches:
        history.leave(match)
    return history


def app_one_move_in(history: GameHistory, saved: MemoryStorage) -> App:
    """Return an App keeping games in ``history`` and the game in progress in ``saved``,
    with a two-player game started and its first move played."""
    app = App(MemoryStorage({**QUICK, "mode": "hvh"}), history=history,
              keeper=GameKeeper(saved))
    app.handle(KeyPress("enter"))
    assert app.game is not None
    app.game.match.play(app.game.game.children(app.game.match.position)[0])
    app.update(0.05)
    return app
