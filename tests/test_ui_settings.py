"""Settings: round trip through storage, bad values fall back, broken stores are survived."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from oska_gui.desktop.storage import JsonFileStorage, default_path
from oska_gui.play.levels import LevelKey
from oska_gui.session.settings import (
    EVALUATOR_KEYS,
    Animation,
    MemoryStorage,
    Mode,
    Pace,
    Settings,
    load_settings,
    migrate,
    save_settings,
)

SETTINGS = st.builds(
    Settings,
    kind=st.just("oska"),
    n=st.integers(4, 8),
    mode=st.sampled_from(tuple(Mode)),
    human_side=st.sampled_from((0, 1)),
    levels=st.tuples(st.sampled_from(tuple(LevelKey)), st.sampled_from(tuple(LevelKey))),
    evaluators=st.tuples(st.sampled_from(EVALUATOR_KEYS), st.sampled_from(EVALUATOR_KEYS)),
    animation=st.sampled_from(tuple(Animation)),
    pace=st.sampled_from(tuple(Pace)),
    coordinates=st.booleans(),
    turned=st.booleans(),
)


@given(SETTINGS)
def test_round_trip_through_json(settings: Settings) -> None:
    """Settings read back are the ones saved, made consistent (``settled``)."""
    data = json.loads(json.dumps(settings.to_dict()))
    assert Settings.from_dict(data) == settings.settled()


def test_perfect_play_is_kept_only_where_it_is_at_hand() -> None:
    """'perfect' stays on n = 4 (its solved game ships) and becomes 'strongest' on a
    board nobody has solved, whether chosen or read back; an external bot's side stays."""
    perfect, external = LevelKey.PERFECT, LevelKey.EXTERNAL
    assert Settings(n=4, levels=(perfect, external)).settled().levels == (perfect, external)
    assert Settings(n=9, levels=(perfect, external)).settled().levels == (
        LevelKey.STRONGEST, external)
    stored = Settings(n=9, levels=(perfect, perfect)).to_dict()
    assert Settings.from_dict(stored).levels == (LevelKey.STRONGEST, LevelKey.STRONGEST)


def test_a_new_game_takes_its_classic_size_and_a_size_out_of_bounds_the_nearest() -> None:
    """with_game picks the game's first offered size; settled moves a size outside the
    game's sizes to the nearest one."""
    assert Settings(n=7).with_game("hexapawn").n == 3
    assert Settings(kind="hexapawn", n=5).with_game("oska").n == 4
    assert Settings(n=3).settled().n == 4


def test_round_trip_through_a_json_file(tmp_path: Path) -> None:
    storage = JsonFileStorage(tmp_path / "deep" / "settings.json")
    assert load_settings(storage) == Settings()
    chosen = Settings(n=6, mode=Mode.CVC, levels=("expert", "easy"), animation="fast")
    save_settings(storage, chosen)
    assert load_settings(JsonFileStorage(tmp_path / "deep" / "settings.json")) == chosen


def test_bad_values_fall_back_one_by_one() -> None:
    data = Settings(n=7, mode=Mode.HVH).to_dict()
    data.update(kind="chess", animation="warp", levels=["hard"], human_side=True,
                coordinates="yes", unknown=1)
    settings = Settings.from_dict(data)
    assert settings.n == 7 and settings.mode == Mode.HVH  # the good values are kept
    default = Settings()
    assert settings.kind == default.kind and settings.animation == default.animation
    assert settings.levels == default.levels and settings.human_side == default.human_side
    assert settings.coordinates is False


def test_size_not_offered_by_the_game_falls_back() -> None:
    assert Settings.from_dict({"kind": "oska", "n": 3}).n == 4
    assert Settings.from_dict({"kind": "hexapawn", "n": 3}).n == 3
    assert Settings.from_dict({"n": 40}).n == Settings().n


def test_junk_files_and_broken_stores_give_defaults(tmp_path: Path, capsys) -> None:
    path = tmp_path / "settings.json"
    path.write_text("{not json", encoding="utf-8")
    assert load_settings(JsonFileStorage(path)) == Settings()
    path.write_text("[1, 2]", encoding="utf-8")
    assert load_settings(JsonFileStorage(path)) == Settings()
    assert "ignoring" in capsys.readouterr().err

    class Broken:
        """A store whose every call fails."""

        def load(self) -> dict:
            """Fail to load."""
            raise OSError("disk on fire")

        def save(self, settings: dict) -> None:
            """Fail to save."""
            raise OSError("disk on fire")

    assert load_settings(Broken()) == Settings()
    save_settings(Broken(), Settings())  # must not raise


def test_unwritable_settings_file_is_reported_not_raised(tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    JsonFileStorage(blocker / "settings.json").save({"n": 5})
    assert "cannot save" in capsys.readouterr().err


def test_default_path_follows_xdg(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_path() == tmp_path / "oska-gui" / "settings.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert default_path() == Path.home() / ".config" / "oska-gui" / "settings.json"


def test_memory_storage_copies() -> None:
    storage = MemoryStorage({"n": 5})
    data = storage.load()
    data["n"] = 6
    assert storage.load() == {"n": 5}
    storage.save({"n": 7})
    assert storage.load() == {"n": 7} and storage.saves == 1


def test_computer_sides_follow_the_mode() -> None:
    assert Settings(mode=Mode.HVC, human_side=0).computer_sides() == (1,)
    assert Settings(mode=Mode.HVC, human_side=1).computer_sides() == (0,)
    assert Settings(mode=Mode.CVC).computer_sides() == (0, 1)
    assert Settings(mode=Mode.HVH).computer_sides() == ()


VERSION_1_FILE = {"kind": "hexapawn", "n": 5, "mode": "cvc", "human_side": 1,
                  "levels": ["expert", "external"], "evaluators": ["strong", "strong"],
                  "animation": "slow", "pace": "fast", "coordinates": True, "sound": False}


def test_a_version_1_file_is_read_and_saved_again_as_version_2(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(VERSION_1_FILE), encoding="utf-8")
    storage = JsonFileStorage(path)
    settings = load_settings(storage)
    assert settings == Settings(kind="hexapawn", n=5, mode="cvc", human_side=1,
                                levels=("expert", "external"), animation="slow",
                                pace="fast", coordinates=True, sound=False)
    assert settings.mode is Mode.CVC and settings.levels[1] is LevelKey.EXTERNAL
    save_settings(storage, settings)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["version"] == 2 and saved["human_side"] == "black"
    assert saved["levels"] == {"white": "expert", "black": "external"}
    assert load_settings(JsonFileStorage(path)) == settings


def test_migrate_passes_on_what_is_not_of_the_old_shape() -> None:
    old = {"human_side": True, "levels": ["hard"], "evaluators": "strong", "n": 6}
    new = migrate(old)
    assert new == {**old, "version": 2} and "version" not in old
    assert migrate(new) == new  # the current form is left as it is


def test_a_flipped_board_is_kept_for_the_next_game_and_run() -> None:
    """F turns the board; the choice is saved, so a new game and a new run (the same
    storage) show it turned too, and F again turns it back."""
    from oska_gui.ui.app import App
    from oska_gui.ui.kit.events import KeyPress

    storage = MemoryStorage({"levels": {"white": "easy", "black": "easy"}})
    app = App(storage, 900, 700)
    app.handle(KeyPress("enter"))
    assert app.game is not None and app.game.flipped  # you (White) at the bottom
    app.handle(KeyPress("f"))
    assert not app.game.flipped and storage.data["turned"] is True
    assert app.game.toast is not None and app.game.toast[0] == "Black at the bottom"
    app.new_game()
    assert not app.game.flipped
    again = App(storage, 900, 700)
    again.handle(KeyPress("enter"))
    assert again.game is not None and not again.game.flipped
    again.handle(KeyPress("f"))
    assert again.game.flipped and storage.data["turned"] is False


def test_a_tap_on_flip_turns_the_board_as_f_does() -> None:
    """Touch players have no F key: the game panel's Flip button turns the board, says
    which side is at the bottom, and keeps the choice, as F does."""
    from oska_gui.ui.app import App
    from oska_gui.ui.kit.events import KeyPress, PointerDown, PointerUp

    storage = MemoryStorage({"levels": {"white": "easy", "black": "easy"}})
    app = App(storage, 900, 700)
    app.handle(KeyPress("enter"))
    assert app.game is not None and app.game.flipped
    flip = app.game.panel().buttons["flip"]
    app.handle(PointerDown(*flip.center, touch=True))
    app.handle(PointerUp(*flip.center, touch=True))
    assert not app.game.flipped and storage.data["turned"] is True
    assert app.game.toast is not None and app.game.toast[0] == "Black at the bottom"
