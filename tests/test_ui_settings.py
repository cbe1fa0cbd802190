"""Settings: round trip through storage, bad values fall back, broken stores are survived."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from oska_gui.desktop.storage import JsonFileStorage, default_path
from oska_gui.ui.settings import (
    ANIMATIONS,
    CVC,
    EVALUATOR_KEYS,
    HVC,
    HVH,
    LEVEL_KEYS,
    MODES,
    PACES,
    MemoryStorage,
    Settings,
    load_settings,
    save_settings,
)

SETTINGS = st.builds(
    Settings,
    kind=st.just("oska"),
    n=st.integers(4, 8),
    mode=st.sampled_from(MODES),
    human_side=st.sampled_from((0, 1)),
    levels=st.tuples(st.sampled_from(LEVEL_KEYS), st.sampled_from(LEVEL_KEYS)),
    evaluators=st.tuples(st.sampled_from(EVALUATOR_KEYS), st.sampled_from(EVALUATOR_KEYS)),
    animation=st.sampled_from(ANIMATIONS),
    pace=st.sampled_from(PACES),
    coordinates=st.booleans(),
)


@given(SETTINGS)
def test_round_trip_through_json(settings: Settings) -> None:
    data = json.loads(json.dumps(settings.to_dict()))
    assert Settings.from_dict(data) == settings


def test_round_trip_through_a_json_file(tmp_path: Path) -> None:
    storage = JsonFileStorage(tmp_path / "deep" / "settings.json")
    assert load_settings(storage) == Settings()
    chosen = Settings(n=6, mode=CVC, levels=("expert", "easy"), animation="fast")
    save_settings(storage, chosen)
    assert load_settings(JsonFileStorage(tmp_path / "deep" / "settings.json")) == chosen


def test_bad_values_fall_back_one_by_one() -> None:
    data = Settings(n=7, mode=HVH).to_dict()
    data.update(kind="chess", animation="warp", levels=["hard"], human_side=True,
                coordinates="yes", unknown=1)
    settings = Settings.from_dict(data)
    assert settings.n == 7 and settings.mode == HVH  # the good values are kept
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
    assert Settings(mode=HVC, human_side=0).computer_sides() == (1,)
    assert Settings(mode=HVC, human_side=1).computer_sides() == (0,)
    assert Settings(mode=CVC).computer_sides() == (0, 1)
    assert Settings(mode=HVH).computer_sides() == ()
