"""The history of kept games: its format, cap, damaged entries and files written whole."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from history_helpers import played
from ui_fakes import WebStore

from oska_gui.cli import main as cli_main
from oska_gui.desktop.storage import HistoryFileStorage
from oska_gui.play import kept_games
from oska_gui.play.kept_games import KeptGame, capped, listing, read_file, with_game
from oska_gui.play.levels import LevelKey
from oska_gui.play.records import from_json
from oska_gui.session.game_history import GameHistory, continued, kept_record
from oska_gui.session.saved_game import from_dict, of_match
from oska_gui.session.settings import MemoryStorage, Mode, Settings
from oska_gui.web.storage import LocalStorageSettings


def ticking() -> object:
    """Return a clock for GameHistory that says a new second at each call."""
    seconds = iter(range(10**6))
    return lambda: kept_games.now_text(1_700_000_000 + next(seconds))


def test_a_finished_game_is_kept_once_and_its_entry_is_a_record_file() -> None:
    storage = MemoryStorage()
    history = GameHistory(storage, clock=ticking())
    match = played(None)
    for _ in range(3):  # every frame hands the game over: it is written once
        history.follow(match)
    assert storage.saves == 1
    (game,) = history.listing().games
    assert game.record.finished and game.plies == len(match.history.positions) - 1
    assert game.result_text() in ("White won", "Black won")
    entry = storage.data["games"][0]
    assert from_json(entry) == game.record  # oska review reads an entry as it is
    assert Settings.from_dict(entry["settings"]) == match.settings


def test_a_game_left_with_a_move_is_kept_and_one_without_is_not() -> None:
    storage = MemoryStorage()
    history = GameHistory(storage)
    history.leave(played(0))
    history.follow(played(3))  # in progress: follow keeps only ended games
    assert storage.saves == 0
    history.leave(played(3))
    (game,) = history.listing().games
    assert not game.record.finished and game.result_text() == "Unfinished"
    assert game.plies == 3


def test_a_game_kept_again_replaces_its_entry_and_becomes_the_newest() -> None:
    storage = MemoryStorage()
    history = GameHistory(storage, clock=ticking())
    first, second = played(4, seed=1), played(None, seed=2)
    history.leave(first)
    history.follow(second)
    first.play(first.game.children(first.position)[0])
    history.leave(first)
    games = history.listing().games
    assert [game.id for game in games] == [second.kept_as, first.kept_as]
    assert games[-1].plies == 5


def test_a_finished_game_looked_at_again_after_an_undo_stays_finished() -> None:
    match = played(None)
    ended = kept_record(match, {})
    match.undo()
    assert not match.over
    assert kept_record(match, {}) == ended


def test_the_saved_game_carries_its_history_entry_across_a_restart() -> None:
    match = played(4)
    GameHistory(MemoryStorage()).leave(match)
    back = from_dict(json.loads(json.dumps(of_match(match).to_dict())))
    assert back.kept_as == match.kept_as is not None
    data = of_match(match).to_dict()
    data["kept_as"] = ["not", "an", "id"]
    assert from_dict(data).kept_as is None


def test_the_cap_drops_the_oldest_games_first() -> None:
    storage = MemoryStorage()
    history = GameHistory(storage, max_games=3)
    matches = [played(2, seed=seed) for seed in range(5)]
    for match in matches:
        history.leave(match)
    assert [game.id for game in history.listing().games] == [m.kept_as for m in matches[2:]]


def test_the_cap_in_characters_keeps_the_newest_that_fit() -> None:
    entries = [{"id": str(i), "pad": "x" * 100} for i in range(10)]
    size = len(json.dumps(entries[0], sort_keys=True)) + 2
    assert [e["id"] for e in capped(entries, 100, 3 * size)] == ["7", "8", "9"]
    assert [e["id"] for e in capped(entries, 100, 1)] == ["9"]  # the newest always stays


def test_a_full_history_holds_its_figures() -> None:
    """The cap's figures: 200 games of n = 8 stay well under the characters' cap."""
    match = played(None, n=8)
    data: dict = {}
    for number in range(kept_games.MAX_GAMES + 5):
        game = KeptGame(f"g{number}", kept_games.now_text(), kept_record(match, {}),
                        match.settings.to_dict())
        data = with_game(data, game)
    assert len(data["games"]) == kept_games.MAX_GAMES
    assert data["games"][0]["id"] == "g5"
    assert len(json.dumps(data)) < kept_games.MAX_CHARS


@pytest.mark.parametrize("damage", ["not an object", "bad id", "illegal move", "bad result"])
def test_a_damaged_entry_is_skipped_with_a_note_and_left_as_stored(damage: str) -> None:
    storage = MemoryStorage()
    history = GameHistory(storage)
    for seed in range(3):
        history.leave(played(3, seed=seed))
    entry = storage.data["games"][1]
    if damage == "not an object":
        storage.data["games"][1] = [1, 2]
    elif damage == "bad id":
        entry["id"] = 7
    elif damage == "illegal move":
        entry["moves"][1] = entry["moves"][0]
    else:
        entry["result"] = "purple"
    damaged = json.loads(json.dumps(storage.data["games"][1]))
    found = history.listing()
    assert len(found.games) == 2
    (note,) = found.notes
    assert note.startswith("game 2 of the history is damaged and skipped")
    history.leave(played(3, seed=9))  # writing again keeps the damaged entry as it was
    assert storage.data["games"][1] == damaged and len(storage.data["games"]) == 4


def test_a_history_that_is_not_one_is_set_aside_before_the_next_game() -> None:
    storage = MemoryStorage({"format": "something else", "games": []})
    warnings: list[str] = []
    history = GameHistory(storage, warnings.append)
    assert history.listing().notes and not history.listing().games
    history.leave(played(2))
    assert storage.aside == {"format": "something else", "games": []}
    assert len(history.listing().games) == 1
    assert "set aside as memory" in warnings[0]


def test_a_history_file_is_written_whole_one_game_a_line(tmp_path: Path) -> None:
    path = tmp_path / "data" / "history.json"
    history = GameHistory(HistoryFileStorage(path))
    for seed in range(3):
        history.leave(played(3, seed=seed))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5 and all(json.loads(line.rstrip(","))["id"] for line in lines[1:4])
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)  # private to the user
    assert [game.id for game in read_file(path).games] == [
        game.id for game in history.listing().games]


def test_a_failed_write_leaves_the_history_as_it_was(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "history.json"
    history = GameHistory(HistoryFileStorage(path))
    history.leave(played(3))
    before = path.read_bytes()

    def full_disk(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    history.leave(played(3, seed=5))
    assert "No space left on device" in capsys.readouterr().err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.json"]  # no temp file


def test_an_unreadable_history_file_is_set_aside_never_written_over(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "history.json"
    path.write_text('{"format": "oska-history", "version": 1, "games": [', encoding="utf-8")
    history = GameHistory(HistoryFileStorage(path))
    history.leave(played(3))
    assert "set aside as" in capsys.readouterr().err
    aside = tmp_path / "history.json.set-aside"
    assert aside.read_text(encoding="utf-8").endswith("[")
    assert len(read_file(path).games) == 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_at_the_history_path_is_set_aside(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "history.json"
    os.mkfifo(path)
    assert read_file(path).notes  # the command line reads nothing, waits for nothing
    history = GameHistory(HistoryFileStorage(path))
    assert history.listing().games == []
    history.leave(played(3))
    assert "a FIFO, not a regular file" in capsys.readouterr().err
    assert (tmp_path / "history.json.set-aside").is_fifo()
    assert len(read_file(path).games) == 1


def test_the_page_keeps_its_history_in_local_storage_and_sets_bad_text_aside() -> None:
    store = WebStore({})
    warnings: list[str] = []
    storage = LocalStorageSettings(store, warnings.append, key="oska.history",
                                   what="game history", aside_unreadable=True)
    history = GameHistory(storage)
    history.leave(played(3))
    assert json.loads(store.getItem("oska.history"))["format"] == "oska-history"
    store.setItem("oska.history", "{not json")
    history.leave(played(3, seed=4))
    assert store.getItem("oska.history.set-aside") == "{not json"
    assert "set aside as oska.history.set-aside" in warnings[0]
    assert len(history.listing().games) == 1


def test_a_store_that_fails_costs_the_history_never_the_game() -> None:
    class Broken(MemoryStorage):
        def load(self) -> dict:
            raise RuntimeError("blocked")

        def save(self, settings: dict) -> None:
            raise RuntimeError("quota")

    warnings: list[str] = []
    history = GameHistory(Broken(), warnings.append)
    history.leave(played(3))
    assert history.listing().games == []
    assert any("quota" in warning for warning in warnings)


def test_continuing_a_bots_game_offers_a_level_and_says_so() -> None:
    match = played(3)
    bot_settings = Settings(n=4, mode=Mode.HVC, human_side=0,
                            levels=(LevelKey.HARD, LevelKey.EXTERNAL))
    game = KeptGame("x", kept_games.now_text(), kept_record(match, {}),
                    bot_settings.to_dict())
    current = Settings(n=6, animation="off")
    settings, note = continued(game, current)
    assert settings.levels == (LevelKey.HARD, LevelKey.HARD) and settings.mode == Mode.HVC
    assert (settings.n, settings.animation) == (4, "off")
    assert note.startswith("Black was an external bot") and "Hard" in note
    settings, note = continued(game, current, bots=(1,))  # the window has a bot for Black
    assert settings.levels[1] == LevelKey.EXTERNAL and note == ""


def test_the_command_line_reads_a_missing_or_damaged_history_without_failing(
        tmp_path: Path) -> None:
    assert read_file(tmp_path / "none.json").games == []
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not text")
    (note,) = read_file(bad).notes
    assert "not JSON" in note
    assert listing([]).notes  # a list is not a history


def test_oska_review_last_reviews_the_newest_game_and_oska_games_lists_newest_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    history = GameHistory(HistoryFileStorage(), clock=ticking())
    older, newer = played(3, seed=1), played(None, seed=2, n=5)
    history.leave(older)
    history.follow(newer)
    assert cli_main(["review", "--last", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Oska · n = 5: Human (White) vs Human (Black), ")
    assert cli_main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 kept games in ") and lines[0].endswith("newest first")
    assert [line.split("Oska n = ")[1][:1] for line in lines[3:]] == ["5", "4"]
