"""The game in progress is kept between runs and read back only if it is sound."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from ui_fakes import WebStore

from oska_gui.desktop.storage import JsonFileStorage
from oska_gui.play import records
from oska_gui.play.game import make_game
from oska_gui.session.match import Match
from oska_gui.session.saved_game import GameKeeper, SavedGameError, from_dict, of_match
from oska_gui.session.settings import MemoryStorage, Mode, Settings, Storage
from oska_gui.ui.app import App
from oska_gui.ui.kit.events import KeyPress
from oska_gui.web.storage import LocalStorageSettings

FAST = dict(levels=("beginner", "beginner"), animation="off", pace="instant")


def played(moves: int, seed: int = 1, n: int = 5) -> Match:
    """Return a two-player match of Oska ``n`` after ``moves`` random moves."""
    game = make_game("oska", n)
    match = Match(game, Settings(n=n, mode=Mode.HVH, **FAST))
    choose = random.Random(seed)
    for _ in range(moves):
        match.play(choose.choice(game.children(match.position)))
    return match


def test_a_game_survives_the_trip_through_json() -> None:
    match = played(6)
    match.undo()
    saved = of_match(match)
    back = from_dict(json.loads(json.dumps(saved.to_dict())))
    assert back == saved and back.cursor == 5 and len(back.positions) == 7


def first_form(match: Match) -> dict:
    """Return ``match`` saved in the first form, as the version 1 code wrote it."""
    history = match.history
    return {"version": 1, "settings": match.settings.to_dict(),
            "positions": [list(pos) for pos in history.positions], "cursor": history.cursor}


def broken(change: str) -> dict:
    """Return a saved game's dict in the first form with one thing wrong with it."""
    data = first_form(played(6))
    if change == "version":
        data["version"] = 99
    elif change == "illegal move":
        data["positions"][3], data["positions"][4] = data["positions"][4], data["positions"][3]
    elif change == "bad position":
        data["positions"][2] = [1, 2]
    elif change == "cursor":
        data["cursor"] = 40
    elif change == "settings":
        data["settings"]["n"] = 99
    elif change == "start":
        data["positions"] = data["positions"][1:]
        data["cursor"] = 0
    return data


@pytest.mark.parametrize("change", ["version", "illegal move", "bad position", "cursor",
                                    "settings", "start"])
def test_a_damaged_saved_game_is_refused_with_a_reason(change: str) -> None:
    with pytest.raises(SavedGameError):
        from_dict(broken(change))


@pytest.mark.parametrize("junk", [None, [], "game", 3, {"version": 1}])
def test_junk_is_no_saved_game(junk: object) -> None:
    with pytest.raises(SavedGameError):
        from_dict(junk)


def test_the_keeper_writes_when_the_record_changes_and_clears_at_the_end() -> None:
    storage = MemoryStorage()
    keeper = GameKeeper(storage)
    match = Match(make_game("oska", 4), Settings(mode=Mode.CVC, **FAST))
    keeper.keep(match)
    keeper.keep(match)
    assert storage.saves == 1 and storage.data == {}  # no move yet: nothing to resume
    for _ in range(5000):
        match.update(0.05, 0.01)
        keeper.keep(match)
        if match.history.cursor == 1:
            assert from_dict(storage.data).cursor == 1
        if match.over:
            break
    assert match.over and storage.data == {}
    moves = len(match.history.positions) - 1
    assert storage.saves == moves + 1  # once a move, and once cleared


def test_a_bad_saved_game_is_reported_and_dropped() -> None:
    storage = MemoryStorage(broken("illegal move"))
    warnings: list[str] = []
    assert GameKeeper(storage, warnings.append).load() is None
    assert storage.data == {} and len(warnings) == 1
    assert "rules do not allow" in warnings[0]


def test_a_game_with_an_external_bot_is_not_kept() -> None:
    storage = MemoryStorage()
    settings = Settings(mode=Mode.HVC, levels=("beginner", "external"), animation="off")
    match = Match(make_game("oska", 4), settings, make=lambda *args: None)
    GameKeeper(storage).keep(match)
    assert storage.data == {}


# -- the saved game as a game record in progress -----------------------------------------


def test_a_saved_game_is_a_record_in_progress_with_settings_and_cursor() -> None:
    match = played(6)
    match.undo()
    data = of_match(match).to_dict()
    assert (data["format"], data["version"], data["game"], data["n"]) == ("oska-game", 3,
                                                                           "oska", 5)
    assert data["cursor"] == 5 and data["settings"] == match.settings.to_dict()
    record = records.from_json(json.loads(json.dumps(data)))
    assert not record.finished and record.positions() == match.history.positions
    assert (record.white, record.black) == ("Human", "Human")


def test_a_hexapawn_game_survives_the_trip_through_json() -> None:
    game = make_game("hexapawn", 4)
    settings = Settings(kind="hexapawn", n=4, mode=Mode.HVC, human_side=1, **FAST)
    match = Match(game, settings, make=lambda *args: None)
    choose = random.Random(3)
    for _ in range(3):
        match.history.push(choose.choice(game.children(match.position)))
    saved = of_match(match)
    data = saved.to_dict()
    assert data["game"] == "hexapawn" and data["players"]["white"] == "Computer (beginner)"
    assert from_dict(json.loads(json.dumps(data))) == saved


def spoiled(change: str) -> dict:
    """Return a saved game (a record in progress) with one thing wrong with it."""
    data = of_match(played(6)).to_dict()
    if change == "move":
        data["moves"][3] = "a1-a2"
    elif change == "unreadable":
        data["moves"][2] = "\x1b[2J" * 100
    elif change == "other game":
        data["settings"]["n"] = 4
    elif change == "finished":
        match = played(0)
        game = match.game
        line = [game.start()]
        while (outcome := game.outcome(line[-1])) is None:
            line.append(random.Random(len(line)).choice(game.children(line[-1])))
        record = records.from_positions(line, game.rules, "W", "B", outcome)
        data = {**record.to_json(), "settings": match.settings.to_dict(), "cursor": 0}
    elif change == "start":
        data["start"] = {"board": ["w-www", "-w--", "---", "--", "---", "----", "bbbbb"],
                         "turn": "b"}
        data["moves"] = []
        data["cursor"] = 0
    elif change == "cursor":
        data["cursor"] = 7
    return data


@pytest.mark.parametrize(("change", "words"), [
    ("move", "move 4 ('a1-a2')"), ("unreadable", "cannot read move"),
    ("other game", "another game than its settings"), ("finished", "it is over"),
    ("start", "does not begin at the starting position"), ("cursor", "out of range")])
def test_a_damaged_record_is_reported_and_dropped(change: str, words: str) -> None:
    storage = MemoryStorage(spoiled(change))
    warnings: list[str] = []
    assert GameKeeper(storage, warnings.append).load() is None
    assert storage.data == {} and len(warnings) == 1
    assert words in warnings[0] and warnings[0].isprintable() and len(warnings[0]) < 300


# As the first form's code wrote it (JsonFileStorage: indent 2, keys sorted): an n = 4
# two-player game after four moves, the last taken back.
FIRST_FORM = """{
  "cursor": 3,
  "positions": [[15, 61440, 0], [30, 61440, 1], [30, 57856, 0], [60, 57856, 1],
                [60, 42496, 0]],
  "settings": {"animation": "off", "coordinates": false,
               "evaluators": {"black": "strong", "white": "strong"}, "human_side": "white",
               "kind": "oska", "levels": {"black": "beginner", "white": "beginner"},
               "mode": "hvh", "n": 4, "pace": "instant", "sound": true, "version": 2},
  "version": 1
}
"""


def resumed(storage: Storage) -> Match:
    """Return the game an App offers to resume from ``storage``, resumed."""
    app = App(MemoryStorage(FAST), 900, 700, keeper=GameKeeper(storage))
    assert "resume" in app.start.button_names
    app.handle(KeyPress("escape"))  # Resume
    app.update(0.02)  # the keeper keeps the game again
    return app.game.match if app.game is not None else pytest.fail("not resumed")


def test_a_first_form_file_resumes_on_the_desktop_and_in_the_browser(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(FIRST_FORM)
    web = WebStore({"oska.game": FIRST_FORM})
    for storage in (JsonFileStorage(path, "saved game"),
                    LocalStorageSettings(web, pytest.fail, key="oska.game")):
        match = resumed(storage)
        assert match.history.cursor == 3 and len(match.history.positions) == 5
        assert match.history.positions[1] == (30, 61440, 1) and match.game.n == 4
        assert match.settings.mode == Mode.HVH
    assert json.loads(path.read_text())["version"] == 3  # kept again in the new form
    assert json.loads(web.items["oska.game"])["moves"][:3] == ["a1-b1", "e1-d1", "a2-b2"]


def test_a_damaged_desktop_file_is_ignored_with_a_warning(tmp_path: Path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"format": "oska-game", "version": 3, "moves": [')
    app = App(MemoryStorage(FAST), 900, 700,
              keeper=GameKeeper(JsonFileStorage(path, "saved game")))
    assert app.game is None and "resume" not in app.start.button_names
    assert "ignoring unreadable saved game in" in capsys.readouterr().err
