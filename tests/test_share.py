"""Share links (``play.share``): a record in a page address and back, every bad link
refused in one line, names safe to show; and the page's side without a browser
(``web.record.open_link``): a good link replays the game at its start, a bad one changes
nothing."""

from __future__ import annotations

import base64
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from history_helpers import QUICK, app_one_move_in, history_of, played
from hypothesis import given, settings
from hypothesis import strategies as st
from random_games import random_game

from oska_gui.desktop.save_as import save_copy
from oska_gui.engine.registry import GameKind, game_info
from oska_gui.play import records, share
from oska_gui.play.kept_games import KeptGame
from oska_gui.play.records import Record
from oska_gui.play.share import (
    MAX_FRAGMENT,
    ShareError,
    file_name,
    record_from_fragment,
    shared_words,
)
from oska_gui.session.game_history import GameHistory
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.games.games_layout import BUTTONS, DOWNLOAD, LINK, SAVE
from oska_gui.ui.games.games_scene import GamesScene
from oska_gui.ui.kit.events import KeyPress, PointerDown
from oska_gui.ui.kit.intents import OpenKept, Use
from oska_gui.ui.speech import Announcer
from oska_gui.web.record import exported, open_link

HOSTILE = ["\x1b[31mred\x1b[0m", "a\nb\rc", "\u202eevil", "\ud800lone", "\x00nul",
           "x" * 100_000, "", "<script>alert(1)</script>"]


def game_record(kind: str = "oska", n: int = 5, seed: int = 1, white: str = "Ann",
                black: str = "Bob", finished: bool = True) -> Record:
    """Return a seeded random game of ``kind`` on ``n`` as a record, played to its end
    (or cut halfway, in progress, unless ``finished``)."""
    rules = game_info(GameKind(kind)).rules(n)
    line = random_game(rules, seed)
    if not finished:
        line = line[:max(1, len(line) // 2)]
    outcome = rules.outcome(line[-1]) if finished else None
    return records.from_positions(line, rules, white, black, outcome)


def encoded(data: object) -> str:
    """Return '#record=' and the unpadded base64url of ``data`` (JSON unless bytes)."""
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return "#record=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(["oska", "hexapawn"]), n=st.integers(4, 7),
       seed=st.integers(0, 10_000), finished=st.booleans(),
       white=st.text(max_size=30), black=st.text(max_size=30))
def test_a_link_round_trips_any_game_and_any_names(kind: str, n: int, seed: int,
                                                   finished: bool, white: str,
                                                   black: str) -> None:
    record = game_record(kind, n, seed, white, black, finished)
    fragment = share.fragment(record)
    assert fragment.startswith("record=") and "=" not in fragment[len("record="):]
    assert set(fragment[len("record="):]) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert record_from_fragment("#" + fragment) == record
    assert record_from_fragment(fragment) == record  # the '#' is optional
    words = shared_words(record)
    assert words.isprintable() and len(words) < 300


def test_a_link_leaves_out_the_move_times_and_replaces_the_page_fragment() -> None:
    base = game_record()
    timed = Record(**{**base.__dict__, "seconds": tuple(0.5 for _ in base.moves)})
    assert share.fragment(timed) == share.fragment(base)
    url = share.link("https://example.org/oska/index.html#record=old", base)
    assert url == "https://example.org/oska/index.html#" + share.fragment(base)


def test_a_40_ply_game_on_n5_makes_a_link_under_a_thousand_characters() -> None:
    record = next(r for seed in range(200) if len((r := game_record(seed=seed)).moves) >= 40)
    assert 500 < len(share.link("http://127.0.0.1:8000/index.html", record)) < 1000


@pytest.mark.parametrize("hash_text, why", [
    ("#record=", "holds no game"),
    ("#moves=abc", "not a share link"),
    ("#record=abc$def", "damaged"),
    ("#record=abc=", "damaged"),  # padding is not part of the alphabet
    ("#record=abcde", "damaged"),  # a length of 4k + 1 is no base64
    ("#record=a b", "damaged"),
    ("#record=%41%42", "damaged"),
])
def test_a_damaged_link_is_refused_in_one_line(hash_text: str, why: str) -> None:
    with pytest.raises(ShareError, match=why) as error:
        record_from_fragment(hash_text)
    assert "\n" not in str(error.value)


def test_a_cut_link_is_refused() -> None:
    fragment = "#" + share.fragment(game_record())
    for cut in (len(fragment) // 2, len(fragment) - 1, len(fragment) - 4, 20):
        with pytest.raises(ShareError):
            record_from_fragment(fragment[:cut])


@pytest.mark.parametrize("data, why", [
    (b"\xff\xfe not utf-8", "not UTF-8"),
    (b"{not json", "not JSON"),
    ([1, 2, 3], "not an Oska game record"),
    ({"format": "oska-game", "version": 99}, "unsupported record version"),
    (b"[" * 100_000, "nested too deeply"),
])
def test_a_link_of_something_else_than_a_record_is_refused(data: object, why: str) -> None:
    with pytest.raises(ShareError, match=why) as error:
        record_from_fragment(encoded(data))
    assert "\n" not in str(error.value) and str(error.value).startswith(
        "the link holds no playable game")


def test_a_link_with_an_illegal_move_or_a_false_result_is_refused() -> None:
    data = game_record().to_json()
    illegal = {**data, "moves": [*data["moves"][:3], "a1-a2", *data["moves"][4:]]}
    with pytest.raises(ShareError, match="move 4"):
        record_from_fragment(encoded(illegal))
    liar = {**data, "result": "black" if data["result"] == "white" else "white"}
    with pytest.raises(ShareError, match="final position says"):
        record_from_fragment(encoded(liar))
    with pytest.raises(ShareError, match="n must be"):
        record_from_fragment(encoded({**data, "n": -1}))


def test_an_oversized_link_is_refused_before_it_is_decoded() -> None:
    huge = "#record=" + "A" * (MAX_FRAGMENT + 1)
    started = time.perf_counter()
    with pytest.raises(ShareError, match="too long"):
        record_from_fragment(huge)
    assert time.perf_counter() - started < 0.05
    with pytest.raises(ShareError, match="too long"):
        record_from_fragment("#record=" + "!" * 10_000_000)  # length before alphabet


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_travel_and_are_shown_safely(name: str) -> None:
    record = game_record(white=name, black="Bob")
    back = record_from_fragment(share.fragment(record))
    assert back.white == name  # the record itself keeps the name as it was
    words = shared_words(back)
    assert words.isprintable() and len(words) < 300
    assert words.startswith("Shared game: ") and "(White) vs Bob (Black)" in words


def test_the_words_name_the_players_the_game_and_the_result() -> None:
    record = game_record(white="Ann", black="Bob")
    winner = "White" if record.outcome.winner == 0 else "Black"
    assert shared_words(record) == (f"Shared game: Ann (White) vs Bob (Black), Oska n = 5, "
                                    f"{winner} won in {len(record.moves)} moves")
    assert shared_words(game_record(finished=False)).endswith(
        f"unfinished after {len(game_record(finished=False).moves)} moves")


def test_a_good_link_opens_the_game_at_its_start_and_says_who_played() -> None:
    app = App(MemoryStorage(QUICK), history=history_of(played(None)))
    announcer = Announcer()
    announcer.news(app)
    record = game_record(white="\u202eMallory", black="Bob")
    assert open_link(app, "#" + share.fragment(record)) == ""
    assert isinstance(app.scene, GameScene) and app.scene is app.game
    match = app.game.match
    assert match.history.cursor == 0 and match.replay == record
    news = announcer.news(app) or ""
    assert "Shared game: \\u202eMallory (White) vs Bob (Black)" in news
    assert "won in" in news and "\u202e" not in news


def test_a_bad_link_changes_nothing_and_says_why_in_one_line() -> None:
    saved, kept = MemoryStorage(), MemoryStorage()
    history = GameHistory(kept)
    history.leave(played(None, seed=2))
    app = app_one_move_in(history, saved)
    scene, before_saved, before_kept = app.scene, dict(saved.data), dict(kept.data)
    saves = (saved.saves, kept.saves)
    for bad in ("#record=abc$", "#record=" + "A" * (MAX_FRAGMENT + 4), encoded(b"{x"),
                encoded({**game_record().to_json(), "moves": ["pass"]})):
        problem = open_link(app, bad)
        assert problem.startswith("Cannot open the shared game: ") and "\n" not in problem
        assert app.scene is scene and app.game is scene
        assert (saved.data, kept.data) == (before_saved, before_kept)
        assert (saved.saves, kept.saves) == saves


def games_app(exports: tuple[str, ...], size: tuple[int, int] = (1000, 700)) -> App:
    """Return an App on the Games screen with one finished game kept, offering the
    front end's ``exports``."""
    app = App(MemoryStorage(QUICK), *size, history=history_of(played(None)),
              exports=exports)
    app.handle(KeyPress("g"))
    assert isinstance(app.scene, GamesScene)
    return app


def test_save_as_and_copy_link_hand_the_game_to_the_front_end_and_say_what_it_did() -> None:
    app = games_app((DOWNLOAD, LINK))
    kept = app.scene.chosen  # type: ignore[union-attr]
    assert kept is not None and app.take_export() is None
    app.handle(KeyPress("s"))
    export = app.take_export()
    assert export is not None and export.use == Use.SAVE and export.game == kept
    assert app.take_export() is None  # once
    layout = app.scene.layout()  # type: ignore[union-attr]
    app.handle(PointerDown(*layout.buttons[LINK].center))
    export = app.take_export()
    assert export is not None and export.use == Use.LINK
    page_request = exported(export)
    assert page_request is not None
    assert record_from_fragment(page_request["fragment"]) == replace(kept.record, seconds=())
    app.exported("Share link copied to the clipboard (900 characters)")
    assert app.status_text.startswith("Share link copied to the clipboard")
    assert (Announcer().news(app) or "").startswith("Share link copied")
    file_request = exported(OpenKept(kept, Use.SAVE, 0))
    assert file_request is not None and file_request["name"].endswith("-won.json")
    assert records.parse(file_request["text"].encode(), "x") == kept.record


def test_without_exports_there_is_no_save_or_link_button_and_the_keys_do_nothing() -> None:
    app = games_app(())
    assert set(app.scene.layout().buttons) == set(BUTTONS)  # type: ignore[union-attr]
    for key in ("s", "l"):
        app.handle(KeyPress(key))
        assert app.take_export() is None
    desktop = games_app((SAVE,))
    assert LINK not in desktop.scene.layout().buttons  # type: ignore[union-attr]
    desktop.handle(KeyPress("l"))
    assert desktop.take_export() is None
    desktop.handle(KeyPress("s"))
    assert desktop.take_export() is not None


def test_save_as_writes_a_new_file_each_time_and_never_over_one(tmp_path: Path) -> None:
    kept = KeptGame("id", "2026-03-12T14:05:09Z", game_record(), {})
    first = save_copy(kept, tmp_path / "Oska games")
    name = file_name(kept.record, kept.kept)
    assert name.startswith("oska-n5-2026-03-12-1405-") and name.endswith("-won.json")
    path = tmp_path / "Oska games" / name
    assert first == f"Saved to {path}" and records.load(path) == kept.record
    second = save_copy(kept, tmp_path / "Oska games")
    assert second.endswith(name.replace(".json", "-2.json"))
    assert records.load(path) == kept.record  # the first file as it was
    blocked = tmp_path / "file"
    blocked.write_text("an input")
    problem = save_copy(kept, blocked / "inside")
    assert problem.startswith("Cannot save the game: ") and blocked.read_text() == "an input"
