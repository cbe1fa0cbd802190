"""Hostile and broken files (issue 12, items 11-13): game records and the settings file;
(issue 21, item 3) the tournament database.

A record that loads is a legal game; anything else, however absurd (nested 100,000
deep, n = 1,000,000, random bytes, any JSON value in any field), is a RecordError,
quickly. A settings file that cannot be used is ignored with a warning, and saving is
atomic and safe when two instances save at once; a settings file that is a symbolic
link is saved through the link (issue 21, item 7). A tournament database that is not
this project's is refused in one line and left byte for byte as it was.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from unittest import mock

import pytest
from database_files import FOREIGN, OLD_GAMES, database_4972aaf, fingerprint
from hostile_helpers import REPO_ROOT, run_python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tournament_helpers import played

from oska_gui.core.types import Termination
from oska_gui.desktop.storage import JsonFileStorage
from oska_gui.games.oska import SIZES, oska_rules
from oska_gui.play import records
from oska_gui.play.records import RecordError, from_json, from_positions, load
from oska_gui.tournament import schema
from oska_gui.tournament.store import Store, StoreError
from oska_gui.web.storage import LocalStorageSettings

OLD_GAME, OLD_RECORD = played("g")
DEEP = "[" * 100_000 + "]" * 100_000
FILE_TESTS = settings(max_examples=150, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


def finished_game(seed: int = 3) -> dict:
    """Return the JSON of a seeded random n = 4 game played to its end."""
    rules = oska_rules(4)
    rng, line = random.Random(seed), [rules.start()]
    while (outcome := rules.outcome(line[-1])) is None:
        line.append(rng.choice(rules.children(line[-1])))
    record = from_positions(line, rules, "one", "two", outcome,
                            opening_plies=2, seconds=(None, None, *[0.01] * (len(line) - 3)))
    return record.to_json()


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats()
    | st.text(max_size=20) | st.sampled_from(["w", "b", "draw", "white", "a4-b3", "pass"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=12)


# -- game records --------------------------------------------------------------------


@FILE_TESTS
@given(field=st.sampled_from([*finished_game(), "start", "extra"]), value=JSON_VALUES)
def test_any_value_in_any_record_field_loads_or_is_a_record_error(field: str, value) -> None:
    """Every field replaced by any JSON value: a legal game or a RecordError, no other
    exception; a record that loads replays to its stated result."""
    data = finished_game()
    data[field] = value
    try:
        record = from_json(data)
    except RecordError as error:
        assert len(str(error)) < 400
        return
    assert record.rules.outcome(record.positions()[-1]) is not None or record.forfeit
    assert 0 <= record.opening_plies <= len(record.moves) and record.n in SIZES
    assert all(isinstance(text, str)
               for text in (record.white, record.black, record.outcome.reason))
    assert isinstance(record.outcome.termination, Termination)
    assert record.forfeit is None or isinstance(record.forfeit, str)


@FILE_TESTS
@given(content=st.binary(max_size=300))
def test_random_bytes_are_a_record_error(tmp_path: Path, content: bytes) -> None:
    """A file of random bytes (not UTF-8, not JSON, JSON of the wrong kind)."""
    path = tmp_path / "junk.json"
    path.write_bytes(content)
    with pytest.raises(RecordError):
        load(path)


@pytest.mark.slow
@pytest.mark.parametrize(("spoil", "words"), [
    (lambda d: d.update(n=1_000_000), "supports n <= 24, got n = 1000000"),
    (lambda d: d.update(n=25), "supports n <= 24"),
    (lambda d: d.update(opening_plies=-5), "opening_plies must be a whole number >= 0"),
    (lambda d: d.update(opening_plies="2"), "opening_plies must be a whole number"),
    (lambda d: d.update(opening_plies=10_000), "opening_plies must be 0 to the"),
    (lambda d: d.update(forfeit=["timeout"]), "forfeit must be a string"),
    (lambda d: d.update(reason={"why": 1}), "reason must be a string"),
    (lambda d: d.update(players={"white": 1, "black": "b"}), "players.white must be a string"),
    (lambda d: d.update(seconds=[float("nan")] * len(d["moves"])), "seconds must be a list"),
    (lambda d: d.update(seconds="fast"), "seconds must be a list"),
    (lambda d: d.update(start=[]), "start must be an object"),
    (lambda d: d.update(start="wwww"), "start must be an object"),
    (lambda d: d.update(result=["white"]), "result must be one of"),
    (lambda d: (d["moves"].append("e1-d1"), d.pop("seconds")), "comes after the end of the game"),
])
def test_absurd_fields_are_refused_in_a_fresh_process(tmp_path: Path, spoil, words: str) -> None:
    """The issue's cases and more of the kind, each refused with its reason within 30 s
    (in a fresh interpreter, so that a regression to 'n = 1000000 hangs' fails)."""
    data = finished_game()
    spoil(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    output = run_python(f"""
        from oska_gui.play.records import RecordError, load
        try:
            load({str(path)!r})
        except RecordError as error:
            print(error)
    """, timeout=30)
    assert words in output


@pytest.mark.parametrize(("content", "words"), [
    (DEEP, "nested too deeply"),
    ('{"n": ' + "9" * 5000 + "}", "not JSON"),
    (" " * (records.MAX_BYTES + 1), "too big for a game record"),
])
def test_hostile_record_files_are_record_errors(tmp_path: Path, content: str, words: str) -> None:
    """Deep nesting, a 5,000-digit number and an oversized file: each a RecordError."""
    path = tmp_path / "hostile.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RecordError, match=words):
        load(path)


@pytest.mark.slow
@pytest.mark.parametrize(("content", "words"), [
    (DEEP, "nested too deeply"),
    (json.dumps({**finished_game(), "n": 1_000_000}), "supports n <= 24"),
    (json.dumps({**finished_game(), "opening_plies": -5}), "opening_plies must be"),
    (b"\xff\xfe\x00junk", "not UTF-8"),
])
def test_replay_of_a_hostile_record_is_one_line_and_exit_code_2(tmp_path: Path, content,
                                                               words: str) -> None:
    """``main.py --replay`` (issue item 11): one error line, exit code 2, no traceback."""
    path = tmp_path / "hostile.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    done = subprocess.run([sys.executable, str(REPO_ROOT / "main.py"), "--replay", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert words in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()[-1]) < 400


# -- the settings file ---------------------------------------------------------------


def load_with_warnings(storage: JsonFileStorage) -> tuple[dict, str]:
    """Return what ``storage.load()`` gives and what it printed on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        data = storage.load()
    return data, err.getvalue()


@FILE_TESTS
@given(content=st.binary(max_size=200) | JSON_VALUES.map(lambda v: json.dumps(v).encode()))
def test_any_settings_file_gives_a_dict_and_a_warning_unless_usable(tmp_path: Path,
                                                                    content: bytes) -> None:
    """Any content: load() never raises; it warns exactly when it ignores the file."""
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    data, warnings = load_with_warnings(JsonFileStorage(path))
    assert isinstance(data, dict)
    try:
        usable = isinstance(json.loads(content.decode("utf-8")), dict)
    except ValueError:
        usable = False
    assert (warnings == "") == usable, warnings
    assert len(warnings.splitlines()) <= 1


@pytest.mark.parametrize(("content", "words"), [
    (b'{"n": "\xff\xfe"}', "not UTF-8 text"),
    (DEEP.encode(), "nested too deeply"),
    (b" " * (2 * 1024 * 1024), "over 1,048,576 bytes"),
    (b"[1, 2]", "does not hold a JSON object"),
])
def test_the_warnings_storage_promises(tmp_path: Path, content: bytes, words: str) -> None:
    """Invalid UTF-8 and deep nesting (issue item 13) are warned about like other junk."""
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    data, warnings = load_with_warnings(JsonFileStorage(path))
    assert data == {} and words in warnings


def test_two_instances_saving_at_once_never_collide(tmp_path: Path) -> None:
    """Two savers and a reader at once: every read sees a whole saved file, nothing
    fails, and no temporary file is left (the temp name used to be fixed)."""
    path = tmp_path / "settings.json"
    JsonFileStorage(path).save({"saver": -1, "count": 0})
    seen: list[dict] = []
    err = io.StringIO()

    def saver(number: int) -> None:
        """Save 150 distinct settings through an instance of its own."""
        storage = JsonFileStorage(path)
        for count in range(150):
            storage.save({"saver": number, "count": count, "padding": "x" * 2000})

    threads = [threading.Thread(target=saver, args=(number,)) for number in (0, 1)]
    with contextlib.redirect_stderr(err):
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            seen.append(JsonFileStorage(path).load())
        for thread in threads:
            thread.join()
    assert err.getvalue() == ""
    assert all(entry.get("saver") in (-1, 0, 1) for entry in seen)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_a_save_is_synced_to_disk_before_the_rename(tmp_path: Path, monkeypatch) -> None:
    """The new file is flushed and fsync'ed before it replaces the old one."""
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        """Note the sync and do it."""
        events.append("fsync")
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        """Note the rename and do it."""
        events.append("replace")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    JsonFileStorage(tmp_path / "settings.json").save({"n": 5})
    assert events == ["fsync", "replace"]
    assert json.loads((tmp_path / "settings.json").read_text()) == {"n": 5}


def save_with_warnings(storage: JsonFileStorage, settings: dict) -> str:
    """Save ``settings`` in ``storage``; return what it warned on stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        storage.save(settings)
    return err.getvalue()


@pytest.mark.parametrize("links", [
    ["../dotfiles/oska.json"],  # relative, into another folder
    ["ABSOLUTE"],
    ["second.json", "../dotfiles/oska.json"],  # a chain of two links
])
def test_a_settings_file_that_is_a_link_is_saved_through_it(tmp_path: Path,
                                                            links: list[str]) -> None:
    """The file the link leads to gets the new settings, keeps its permissions (0644),
    and the link stays a link; nothing is left behind. It used to be replaced by a plain
    file (0600) while the file it led to stayed stale."""
    config, dotfiles = tmp_path / "config", tmp_path / "dotfiles"
    config.mkdir()
    dotfiles.mkdir()
    real = dotfiles / "oska.json"
    real.write_text('{"n": 4}\n', encoding="utf-8")
    real.chmod(0o644)
    names = ["settings.json", *(Path(link).name for link in links[:-1])]
    for name, link in zip(names, links, strict=True):
        (config / name).symlink_to(str(real) if link == "ABSOLUTE" else link)
    path = config / "settings.json"
    assert save_with_warnings(JsonFileStorage(path), {"n": 6}) == ""
    assert path.is_symlink() and path.resolve() == real.resolve()
    assert json.loads(real.read_text(encoding="utf-8")) == {"n": 6}
    assert JsonFileStorage(path).load() == {"n": 6}
    assert real.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in dotfiles.iterdir()) == ["oska.json"]
    assert sorted(p.name for p in config.iterdir()) == sorted(names)


def test_a_plain_settings_file_keeps_its_permissions(tmp_path: Path) -> None:
    """A saved-over file keeps its mode (it became 0600); a new one is private (0600)."""
    path = tmp_path / "settings.json"
    assert save_with_warnings(JsonFileStorage(path), {"n": 4}) == ""
    assert path.stat().st_mode & 0o777 == 0o600
    path.chmod(0o640)
    assert save_with_warnings(JsonFileStorage(path), {"n": 5}) == ""
    assert path.stat().st_mode & 0o777 == 0o640 and JsonFileStorage(path).load() == {"n": 5}


def test_links_that_lead_nowhere(tmp_path: Path) -> None:
    """A link to a file not there yet creates that file; a loop of links is one warning
    and stays as it was."""
    (tmp_path / "later.json").symlink_to("made.json")
    assert save_with_warnings(JsonFileStorage(tmp_path / "later.json"), {"n": 7}) == ""
    assert (tmp_path / "later.json").is_symlink()
    assert json.loads((tmp_path / "made.json").read_text(encoding="utf-8")) == {"n": 7}
    (tmp_path / "a.json").symlink_to("b.json")
    (tmp_path / "b.json").symlink_to("a.json")
    warning = save_with_warnings(JsonFileStorage(tmp_path / "a.json"), {"n": 8})
    assert "cannot save settings" in warning and len(warning.splitlines()) == 1
    assert (tmp_path / "a.json").is_symlink() and (tmp_path / "b.json").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json", "later.json",
                                                          "made.json"]


def test_browser_settings_nested_too_deeply_are_warned_about() -> None:
    """The browser's settings (localStorage) get the same warning for deep nesting."""
    warnings: list[str] = []
    store = mock.Mock(getItem=lambda key: DEEP)
    assert LocalStorageSettings(store, warnings.append).load() == {}
    assert warnings == ["ignoring saved settings nested too deeply"]


# -- the tournament database -----------------------------------------------------------


def marks(path: Path) -> tuple[bytes, int]:
    """Return the application id bytes and the user_version in the header of ``path``."""
    header = path.read_bytes()[:100]
    return header[68:72], int.from_bytes(header[60:64], "big")


@pytest.mark.parametrize("kind", FOREIGN)
def test_another_programs_database_is_refused_and_left_byte_for_byte(tmp_path: Path,
                                                                    kind: str) -> None:
    """Each file that is not a tournament database: one line naming it, and not a byte
    changed, nor a -wal, -shm or -journal file left beside it."""
    path = tmp_path / "theirs.sqlite"
    FOREIGN[kind](path)
    before = fingerprint(tmp_path)
    with pytest.raises(StoreError) as refused:
        Store(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: cannot use it as the tournament database (it ")
    assert "\n" not in message and len(message) < 300 + len(str(path))
    assert fingerprint(tmp_path) == before


def test_a_new_file_and_a_zero_byte_file_become_marked_databases(tmp_path: Path) -> None:
    """A missing file is created, a zero-byte one (nothing in it to lose) taken: both
    get the marks 'OSKA' and the schema version, and keep what is stored."""
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    for path in (tmp_path / "new.sqlite", empty):
        with Store(path) as store:
            store.add(OLD_GAME, OLD_RECORD)
        assert marks(path) == (b"OSKA", schema.SCHEMA_VERSION)
        with Store(path) as store:
            assert store.results(["g"]) == ({"g": OLD_GAME}, {})


@pytest.mark.parametrize("killed", [False, True])
def test_a_4972aaf_database_is_accepted_marked_and_keeps_its_games(tmp_path: Path,
                                                                   killed: bool) -> None:
    """A database of commit 4972aaf, closed or left by a killed writer (its last game
    only in the -wal file): its games are read back, and it is marked as ours."""
    path = tmp_path / "old.sqlite"
    database_4972aaf(path, killed=killed)
    with Store(path) as store:
        assert set(store.results([*OLD_GAMES, "other"]).results) == set(OLD_GAMES)
    assert marks(path) == (b"OSKA", schema.SCHEMA_VERSION)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]


def test_a_new_schema_step_migrates_every_older_database(tmp_path: Path,
                                                         monkeypatch) -> None:
    """A step appended to MIGRATIONS (as another kind of tournament would add its
    tables) brings both an unmarked 4972aaf database and a marked one of the current
    version to the next version in one go, with their games."""
    old, ours = tmp_path / "old.sqlite", tmp_path / "ours.sqlite"
    database_4972aaf(old)
    with Store(ours) as store:
        store.add(OLD_GAME, OLD_RECORD)
    step = ("CREATE TABLE rounds (number INTEGER PRIMARY KEY)",)
    following = schema.SCHEMA_VERSION + 1
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, step))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", following)
    for path, games in ((old, OLD_GAMES), (ours, ("g",))):
        with Store(path) as store:
            assert set(store.results([*games, "other"]).results) == set(games)
            assert store.db.execute("SELECT count(*) FROM rounds").fetchone() == (0,)
        assert marks(path) == (b"OSKA", following)


@pytest.mark.parametrize("old", [True, False])
def test_many_runs_opening_one_database_at_once_all_succeed(tmp_path: Path, old: bool) -> None:
    """Eight stores open the same 4972aaf database (or the same new file) at the same
    moment: none fails, and it ends marked, with its games."""
    path = tmp_path / "t.sqlite"
    if old:
        database_4972aaf(path)
    games = OLD_GAMES if old else ()
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def opener() -> None:
        """Open the database with the others and read its games."""
        start.wait()
        try:
            with Store(path) as store:
                assert set(store.results([*OLD_GAMES, "other"]).results) == set(games)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=opener) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert marks(path) == (b"OSKA", schema.SCHEMA_VERSION)


def test_a_name_with_no_room_for_its_journal_is_refused_before_anything_is_made(
        tmp_path: Path) -> None:
    """A 250-byte name fits the file system, but not with '-journal' after it: a clear
    reason at once, and no file made."""
    with pytest.raises(StoreError, match="the file name is too long"):
        Store(tmp_path / ("d" * 250))
    assert list(tmp_path.iterdir()) == []


def test_a_link_to_nothing_is_refused_and_left_alone(tmp_path: Path) -> None:
    """A symbolic link whose file does not exist: refused, saying where it points; the
    link stays and no file appears where it points."""
    link = tmp_path / "t.sqlite"
    link.symlink_to(tmp_path / "elsewhere.sqlite")
    with pytest.raises(StoreError, match="elsewhere.sqlite', which does not exist"):
        Store(link)
    assert [path.name for path in tmp_path.iterdir()] == ["t.sqlite"] and link.is_symlink()


@pytest.mark.parametrize("content", [
    b"SQLite format 3\x00", b"SQLite format 3\x00\x10\x00\x02",
    b"SQLite format 3\x00" + bytes(range(84)), b"SQLite format 3\x00" + b"\xff" * 5000,
], ids=["magic alone", "cut in the header", "a made-up header", "junk after the magic"])
def test_a_file_that_only_starts_like_sqlite_is_refused_in_one_line(tmp_path: Path,
                                                                    content: bytes) -> None:
    """The header is read before SQLite opens the file: one that stops short or holds
    junk is refused like any other file (SQLite refused these before the marks, too:
    this guards the reading of the header), and left as it was."""
    path = tmp_path / "t.sqlite"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="cannot use it as the tournament database"):
        Store(path)
    assert path.read_bytes() == content and [p.name for p in tmp_path.iterdir()] == ["t.sqlite"]
