"""The Games screen: the kept games listed, opened (replay, review, continue) and deleted
by keys, pointer and touch, announced, and laid out at every window size."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from history_helpers import QUICK, app_one_move_in, history_of, played
from ui_fakes import RecordingCanvas

from oska_gui.play import kept_games
from oska_gui.play.levels import LevelKey
from oska_gui.session.game_history import GameHistory, kept_record
from oska_gui.session.settings import MemoryStorage, Mode
from oska_gui.ui.app import App
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.games.games_layout import (
    BACK,
    CONTINUE,
    DELETE,
    DOWNLOAD,
    LINK,
    OLDER,
    REPLAY,
    REVIEW,
    games_layout,
)
from oska_gui.ui.games.games_scene import GamesScene
from oska_gui.ui.kit.events import KeyPress, PointerDown, Resize
from oska_gui.ui.kit.intents import Action
from oska_gui.ui.kit.rect import Rect
from oska_gui.ui.kit.typescale import TOUCH_TARGET
from oska_gui.ui.overlays.confirm import NEW_GAME_KEPT
from oska_gui.ui.review.review_scene import ReviewScene
from oska_gui.ui.speech import Announcer, describe
from oska_gui.ui.start.start_scene import StartScene


def app_with(history: GameHistory, size: tuple[int, int] = (1280, 800),
             touch: bool = False) -> App:
    """Return an App on the start screen that keeps games in ``history``."""
    return App(MemoryStorage(QUICK), size[0], size[1], history=history, touch=touch)


def on_games(app: App) -> GamesScene:
    """Open the Games screen with G from the start screen; return it."""
    app.handle(KeyPress("g"))
    assert isinstance(app.scene, GamesScene)
    return app.scene


def three_games() -> tuple[GameHistory, list]:
    """Return a history of three games (an unfinished n = 5 one the newest) and them."""
    matches = [played(None, seed=1), played(None, seed=2, n=5), played(6, seed=3, n=5)]
    return history_of(*matches), matches


def test_g_lists_the_kept_games_newest_first_with_their_facts() -> None:
    history, matches = three_games()
    app = app_with(history)
    games = on_games(app)
    assert [game.id for game in games.games] == [m.kept_as for m in reversed(matches)]
    status = app.status_text
    assert status.startswith("Games, 1 of 3: Human vs Human, Oska n = 5, Unfinished, 6 moves")
    assert "Move 6 of 6" in status and "Enter replays" in status
    canvas = RecordingCanvas(1280, 800)
    app.draw(canvas)
    texts = canvas.texts()
    assert "Games (3)" in texts
    assert sum("Human vs Human" in text for text in texts) == 3
    assert any(text.startswith("Oska n = 5 · Unfinished · 6 moves · ") for text in texts)
    assert any("won" in text for text in texts)


def test_the_keys_choose_a_game_and_step_its_moves() -> None:
    history, matches = three_games()
    app = app_with(history)
    games = on_games(app)
    app.handle(KeyPress("down"))
    plies = len(matches[1].history.positions) - 1
    assert app.status_text.startswith("Games, 2 of 3: Human vs Human, Oska n = 5")
    assert app.status_text.endswith(f"Move {plies} of {plies}.")  # the key help is gone
    app.handle(KeyPress("left"))
    assert games.ply == plies - 1 and f"Move {plies - 1} of {plies}" in app.status_text
    app.handle(KeyPress("home"))
    assert games.ply == 0 and f"Start of {plies} moves" in app.status_text
    app.handle(KeyPress("left"))
    assert games.ply == 0
    app.handle(KeyPress("end"))
    app.handle(KeyPress("down"))
    app.handle(KeyPress("down"))  # past the last: stays there
    assert games.choice == 2 and games.ply == games.games[2].plies
    app.handle(KeyPress("escape"))
    assert isinstance(app.scene, StartScene)


def test_enter_replays_the_game_from_its_start() -> None:
    history, matches = three_games()
    app = app_with(history)
    on_games(app)
    app.handle(KeyPress("down"))
    app.handle(KeyPress("enter"))
    assert isinstance(app.scene, GameScene) and app.game is not None
    match = app.game.match
    assert match.replay is not None and match.history.cursor == 0
    assert match.replay.moves == history.listing().games[1].record.moves


def test_e_reviews_the_game_at_the_move_chosen() -> None:
    history, _ = three_games()
    app = app_with(history)
    on_games(app)
    for key in ("down", "left", "left"):
        app.handle(KeyPress(key))
    ply = app.scene.ply
    app.handle(KeyPress("e"))
    assert isinstance(app.scene, ReviewScene) and app.scene.session.cursor == ply
    app.handle(KeyPress("escape"))  # back to its replay
    assert isinstance(app.scene, GameScene)


def test_c_continues_from_the_move_chosen_with_the_kept_players() -> None:
    vs_computer = played(8, seed=4, n=5, mode=Mode.HVC, human_side=0)
    history = history_of(played(None, seed=2), vs_computer)
    app = app_with(history)
    games = on_games(app)
    for _ in range(3):
        app.handle(KeyPress("left"))
    app.handle(KeyPress("c"))
    assert isinstance(app.scene, GameScene) and app.game is not None
    match = app.game.match
    assert match.replay is None and match.history.cursor == 5
    assert match.history.positions == vs_computer.history.positions  # the rest to redo
    assert match.settings.mode == Mode.HVC and (match.settings.n, match.game.n) == (5, 5)
    assert app.game.toast is not None and "from move 5" in app.game.toast[0]
    app.handle(KeyPress("m"))
    games = on_games(app)
    app.handle(KeyPress("down"))  # a finished game at its end cannot go on
    assert games.chosen is not None and games.chosen.record.finished
    app.handle(KeyPress("c"))
    assert app.scene is games


def test_continuing_a_bots_game_plays_a_level_instead_and_says_so() -> None:
    bot_game = played(4, seed=5)
    bot_game.settings = replace(bot_game.settings, mode=Mode.HVC, human_side=0,
                                levels=(LevelKey.HARD, LevelKey.EXTERNAL))
    app = app_with(history_of(bot_game))
    on_games(app)
    app.handle(KeyPress("c"))
    assert app.game is not None
    assert app.game.match.settings.levels[1] == LevelKey.HARD
    assert app.game.toast is not None
    assert app.game.toast[0].startswith("Black was an external bot")
    news = Announcer()
    news.news(app)  # what the game screen says first
    assert "external bot" in (describe(app) + app.game.toast[0])


def test_delete_asks_by_a_second_press_and_deletes_the_game() -> None:
    history, matches = three_games()
    app = app_with(history)
    games = on_games(app)
    app.handle(KeyPress("delete"))
    assert "Press Delete again" in app.status_text and len(games.games) == 3
    app.handle(KeyPress("down"))  # anything else keeps it
    assert "Delete this game" not in app.status_text
    app.handle(KeyPress("delete"))
    app.handle(KeyPress("delete"))
    assert [game.id for game in history.listing().games] == [matches[0].kept_as,
                                                             matches[2].kept_as]
    assert app.status_text.startswith("Deleted the game of Human vs Human. Games, 2 of 2")
    canvas = RecordingCanvas(1280, 800)
    app.draw(canvas)
    assert "Games (2)" in canvas.texts()


def test_the_pointer_chooses_rows_and_presses_buttons() -> None:
    history, matches = three_games()
    app = app_with(history)
    games = on_games(app)
    layout = games.layout()
    app.handle(PointerDown(*layout.rows[2].center))
    assert games.choice == 2
    back, _, forward = layout.stepper
    app.handle(PointerDown(*back.center))
    assert games.ply == games.games[2].plies - 1
    assert games.clickable(*layout.buttons[REPLAY].center)
    assert games.clickable(*layout.buttons[CONTINUE].center)  # a move before the end
    app.handle(PointerDown(*layout.buttons[DELETE].center))
    app.handle(PointerDown(*layout.buttons[DELETE].center))
    assert len(history.listing().games) == 2
    app.handle(PointerDown(*games.layout().buttons[REVIEW].center))
    assert isinstance(app.scene, ReviewScene)


def test_touch_gets_finger_sized_targets_and_tap_wording() -> None:
    history = history_of(*(played(3, seed=seed) for seed in range(12)))
    app = app_with(history, (390, 844), touch=True)
    app.handle(PointerDown(*app.start.layout().buttons[Action.GAMES].center, touch=True))
    games = app.scene
    assert isinstance(games, GamesScene)
    assert app.status_text.endswith("Tap a game, then Replay, Review, Continue or Delete.")
    layout = games.layout()
    targets = [*layout.rows, *layout.buttons.values(), *layout.pager.values(),
               layout.stepper[0], layout.stepper[2]]
    assert layout.pager and all(min(rect.w, rect.h) >= TOUCH_TARGET for rect in targets)
    app.handle(PointerDown(*layout.pager[OLDER].center, touch=True))
    assert games.choice == len(layout.rows)  # the first game of the next page
    assert games.top == len(games.games) - len(layout.rows)  # the last page: full
    app.handle(PointerDown(*games.layout().buttons[BACK].center, touch=True))
    assert isinstance(app.scene, StartScene)


@pytest.mark.parametrize("size", [(360, 300), (1280, 800), (390, 844), (800, 600),
                                  (1920, 1080)])
@pytest.mark.parametrize("touch", [False, True])
@pytest.mark.parametrize("extra", [(), (DOWNLOAD, LINK)], ids=["own", "page"])
def test_every_part_fits_the_window_and_nothing_overlaps(size: tuple[int, int],
                                                         touch: bool,
                                                         extra: tuple[str, ...]) -> None:
    layout = games_layout(*size, 30, 1.1, touch, notes=True, extra=extra)
    window = Rect(0, 0, *size)
    parts = [layout.title, *layout.rows, *layout.pager.values(), *layout.stepper,
             *layout.buttons.values()] + ([layout.board] if layout.board.w else [])
    assert len(layout.rows) >= 1
    for rect in parts:
        assert window.x <= rect.x and rect.right <= window.right + 0.5, rect
        assert window.y <= rect.y and rect.bottom <= window.bottom + 0.5, rect
    for i, one in enumerate(parts):
        for other in parts[i + 1:]:
            overlap = (min(one.right, other.right) - max(one.x, other.x),
                       min(one.bottom, other.bottom) - max(one.y, other.y))
            assert min(overlap) <= 0.5, (one, other)
    assert (layout.board.w > 0) == (size != (360, 300))


def test_without_games_the_screen_says_so_and_offers_only_back() -> None:
    app = app_with(GameHistory(MemoryStorage()))
    games = on_games(app)
    assert app.status_text.startswith("Games: No games yet.")
    for name in (REPLAY, REVIEW, CONTINUE, DELETE):
        assert not games.clickable(*games.layout().buttons[name].center)
    for key in ("enter", "e", "c", "delete", "down", "left"):
        app.handle(KeyPress(key))
    assert app.scene is games
    app.draw(RecordingCanvas(1280, 800))
    app.handle(PointerDown(*games.layout().buttons[BACK].center))
    assert isinstance(app.scene, StartScene)


def test_a_damaged_entry_is_left_out_and_the_screen_says_so() -> None:
    history, matches = three_games()
    assert history.storage is not None
    stored = history.storage.data["games"]
    stored[-1]["moves"] = ["z9-z8"]  # the newest: found at once
    stored[0]["moves"][2] = stored[0]["moves"][0]  # the oldest: found when reached
    app = app_with(history)
    games = on_games(app)
    assert [game.id for game in games.games] == [matches[1].kept_as, matches[0].kept_as]
    assert "1 damaged game skipped" in app.status_text
    app.handle(KeyPress("down"))
    assert [game.id for game in games.games] == [matches[1].kept_as]
    assert "2 damaged games skipped" in app.status_text
    assert games.notes[1].startswith("the game of Human vs Human kept ")
    canvas = RecordingCanvas(1280, 800)
    app.draw(canvas)
    assert "2 damaged games skipped" in canvas.texts()
    app.handle(KeyPress("enter"))  # the game left opens as it should
    assert app.game is not None and app.game.match.replay is not None


def test_the_start_screen_offers_games_only_where_they_are_kept() -> None:
    app = app_with(GameHistory(MemoryStorage()))
    assert Action.GAMES in app.start.button_names
    plain_app = App(MemoryStorage(QUICK))
    assert Action.GAMES not in plain_app.start.button_names
    plain_app.handle(KeyPress("g"))
    assert plain_app.scene is plain_app.start


def test_the_app_keeps_a_finished_game_and_one_left_for_a_new_one() -> None:
    history = GameHistory(MemoryStorage())
    app = App(MemoryStorage({**QUICK, "mode": "cvc"}), history=history)
    app.handle(KeyPress("enter"))
    assert app.game is not None
    for _ in range(5000):
        app.update(0.05)
        if app.game.match.over:
            break
    app.update(0.05)
    (finished,) = history.listing().games
    assert finished.record.finished
    app.handle(KeyPress("n"))  # a new game: the ended one is not kept twice
    for _ in range(4):
        app.update(0.05)
    assert len(app.game.match.history.positions) > 1
    app.handle(KeyPress("n"))
    assert app.question is NEW_GAME_KEPT and "goes to Games" in app.status_text
    app.handle(KeyPress("enter"))  # "Start a new game?" yes: this one is left, so kept
    games = history.listing().games
    assert len(games) == 2 and not games[-1].record.finished
    app.close()  # the new game has no move: nothing more
    assert len(history.listing().games) == 2


def test_each_change_on_the_games_screen_is_announced_once() -> None:
    history, _ = three_games()
    app = app_with(history)
    news = Announcer()
    news.news(app)
    on_games(app)
    first = news.news(app)
    assert first is not None and first.startswith("Games, 1 of 3") and "Esc goes back" in first
    assert news.news(app) is None
    app.handle(KeyPress("down"))
    said = news.news(app)
    assert said is not None and said.startswith("Games, 2 of 3")
    app.handle(KeyPress("delete"))
    said = news.news(app)
    assert said is not None and "Press Delete again to delete it" in said
    assert describe(app) == app.status_text


def test_the_screen_follows_a_resize() -> None:
    history, _ = three_games()
    app = app_with(history)
    games = on_games(app)
    app.handle(Resize(360, 300))
    assert (games.width, games.height) == (360, 300)
    assert all(rect.right <= 360 for rect in games.layout().buttons.values())


@pytest.mark.timing
def test_a_full_history_opens_quickly() -> None:
    """The Games screen reads the kept games without playing their moves, and plays
    those of the game chosen only: with the cap's 200 games of n = 12 (360 plies each,
    770,000 characters) it opened in 47 ms here, where playing every game's moves took
    4 s."""
    match = played(None, seed=3, n=12)
    record = kept_record(match, {})
    data: dict = {}
    for number in range(kept_games.MAX_GAMES):
        game = kept_games.KeptGame(f"g{number}", kept_games.now_text(), record,
                                   match.settings.to_dict())
        data = kept_games.with_game(data, game)
    app = app_with(GameHistory(MemoryStorage(data)))
    started = time.perf_counter()
    games = on_games(app)
    app.draw(RecordingCanvas(1280, 800))
    seconds = time.perf_counter() - started
    assert len(games.games) == kept_games.MAX_GAMES
    assert seconds < 1.0, seconds


def test_a_game_left_for_a_kept_one_is_kept_and_its_saved_game_names_its_entry() -> None:
    history, _ = three_games()
    saved = MemoryStorage()
    app = app_one_move_in(history, saved)
    app.handle(KeyPress("m"))
    on_games(app)
    app.handle(KeyPress("enter"))  # replay the newest kept game: the one on show is left
    games = history.listing().games
    assert len(games) == 4 and games[-1].plies == 1
    assert saved.data["kept_as"] == games[-1].id  # resumed next time, it replaces it
