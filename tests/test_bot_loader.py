"""The one bot loader (``oska_gui.play.bot_loader``): a bot given as a file is that file
alone, a bot given as a folder is loaded in place, and the folder a command is run
from is never on a bot's import path, in every command that plays bots.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from cli_helpers import CLI_TIMEOUT, REPO_ROOT, run_cli, table_rows, write_bot
from hostile_helpers import run_python, wait_until
from tournament_helpers import games_line, run_tournament, standings

from oska_gui import movegen
from oska_gui.bots.bot_process import LoadError
from oska_gui.desktop.options import parse_args
from oska_gui.play import bot_loader
from oska_gui.play.bot_loader import (
    STAGE_PREFIX,
    BotArchive,
    BotFile,
    BotFolder,
    BotUnusable,
    open_bot,
    pack_folder,
    parse_bot,
)
from oska_gui.tournament.entrants import identity
from oska_gui.tournament.games import Entrant
from oska_gui.web.build import browser_modules

START = ["wwww", "---", "--", "---", "bbbb"]
HELPER = """
from oska_gui import oskaplayer as ours

def best(board, player):
    return ours(board, player, 1)
"""
USES_HELPER = """
import helper

def oskaplayer(board, player, depth):
    return helper.best(board, player)
"""
# Plays only when its folder holds nothing but itself and the probe module beside the
# caller cannot be imported; otherwise it raises, saying what it saw.
ALONE = """
import importlib.util
import os
from oska_gui import oskaplayer as ours

def oskaplayer(board, player, depth):
    beside = sorted(os.listdir(os.path.dirname(os.path.abspath(__file__))))
    if beside != ["alone.py"] or importlib.util.find_spec("helper") is not None:
        raise ValueError(f"sees {beside} and helper")
    return ours(board, player, 1)
"""
# Imports random and json (raising stand-ins wait in the caller's folder) and plays only
# when the probe module of the caller's folder cannot be imported.
CWD_PROBE = """
import importlib.util
import json
import random
from oska_gui import oskaplayer as ours

def oskaplayer(board, player, depth):
    if importlib.util.find_spec("cwd_probe") is not None:
        raise ValueError("the caller's folder is on the import path")
    return ours(board, player, 1)
"""


def team(folder: Path) -> Path:
    """Write a bot of two modules (oskaplayer.py imports helper.py) into ``folder/team``."""
    path = folder / "team"
    path.mkdir()
    (path / "helper.py").write_text(HELPER, encoding="utf-8")
    (path / "oskaplayer.py").write_text(USES_HELPER, encoding="utf-8")
    return path


def shadowing_folder(folder: Path) -> Path:
    """Return a folder holding a random.py and a json.py that raise when imported, and a
    harmless module cwd_probe.py."""
    folder.mkdir()
    for name in ("random", "json"):
        (folder / f"{name}.py").write_text(f"raise ImportError('the {name}.py of the "
                                           "caller\\'s folder was imported')\n", "utf-8")
    (folder / "cwd_probe.py").write_text("PROBE = 1\n", encoding="utf-8")
    return folder


def oska(*args: object, cwd: Path) -> subprocess.CompletedProcess:
    """Run the ``oska`` command in ``cwd`` as the installed script runs it: its own import
    path does not hold the folder it was run from (``python -P``)."""
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    return subprocess.run([sys.executable, "-P", "-m", "oska_gui", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=CLI_TIMEOUT,
                          check=False)


def assert_no_forfeit(stdout: str) -> None:
    """Check that both players of a printed two-game match played both games unforfeited."""
    rows = table_rows(stdout, "player  ")
    assert [(row["games"], row["forfeits"]) for row in rows] == [("2", "0")] * 2, stdout


# -- reading what people type ---------------------------------------------------------


def test_a_file_is_read_with_its_source_and_a_folder_with_its_module(tmp_path: Path) -> None:
    """Defaults and explicit names, for a file and for a folder; names as typed."""
    bot = write_bot(tmp_path, "good")
    folder = team(tmp_path)
    as_file = parse_bot(str(bot))
    assert isinstance(as_file, BotFile)
    assert (as_file.function, as_file.name) == ("oskaplayer", f"{bot}:oskaplayer")
    assert as_file.source == bot.read_bytes()
    assert parse_bot(f"{bot}:movegen").function == "movegen"
    default = parse_bot(str(folder))
    assert isinstance(default, BotFolder)
    assert (default.path, default.module, default.function) == (str(folder), "oskaplayer",
                                                                "oskaplayer")
    assert default.name == f"{folder}:oskaplayer.oskaplayer"
    named = parse_bot(f"{folder}:helper.best")
    assert isinstance(named, BotFolder) and (named.module, named.function) == ("helper", "best")
    assert named.name == f"{folder}:helper.best"
    odd = tmp_path / "a:b.py"  # a path that holds ':' itself is read whole
    odd.write_text("X = 1\n", encoding="utf-8")
    assert parse_bot(str(odd)).name == f"{odd}:oskaplayer"


@pytest.mark.parametrize(("spec", "words"), [
    ("{tmp}/nowhere.py", "no such bot file or folder: '{tmp}/nowhere.py'"),
    ("{tmp}/nowhere.py:play", "no such bot file or folder: '{tmp}/nowhere.py'"),
    ("{tmp}/good.py:1play", "'1play' is not a function name"),
    ("{tmp}/good.py:team.play", "module.function follows a folder"),
    ("{tmp}/team:helper", "after a bot folder give module.function"),
    ("{tmp}/team:nothing.play", "has no module 'nothing' (no nothing.py in it)"),
    ("{tmp}/big.py", "is over 100 bytes, the most a bot may have"),
    ("{tmp}/team.zip", "is not a zip archive Python can read"),
])
def test_bad_specs_are_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      spec: str, words: str) -> None:
    """A missing path, a bad function name, a folder without module.function or without
    the module, a file too big, a zip that is not one: ValueError with one line saying
    which."""
    write_bot(tmp_path, "good")
    team(tmp_path)
    (tmp_path / "big.py").write_text("#" * 101, encoding="utf-8")
    (tmp_path / "team.zip").write_bytes(b"PK not really")
    monkeypatch.setattr(bot_loader, "MAX_BOT_BYTES", 100)
    with pytest.raises(ValueError) as error:
        parse_bot(spec.format(tmp=tmp_path))
    assert words.format(tmp=tmp_path) in str(error.value)
    assert "\n" not in str(error.value)


def test_a_folder_fingerprint_follows_every_python_file(tmp_path: Path) -> None:
    """A tournament replays a folder bot's games when any of its modules changed."""
    folder = team(tmp_path)
    before = identity(Entrant("team", bot=parse_bot(str(folder))))
    assert identity(Entrant("team", bot=parse_bot(str(folder)))) == before
    (folder / "helper.py").write_text(HELPER + "\n# changed\n", encoding="utf-8")
    assert identity(Entrant("team", bot=parse_bot(str(folder)))) != before


def test_the_window_takes_a_folder_too(tmp_path: Path) -> None:
    """main.py --white/--black read bots with the same loader; the browser's bundle, which
    cannot start processes, leaves the loader out."""
    options = parse_args(["--white", str(team(tmp_path)), "--black", str(
        write_bot(tmp_path, "good"))])
    assert isinstance(options.white, BotFolder) and isinstance(options.black, BotFile)
    assert "oska_gui/play/bot_loader.py" not in browser_modules()


# -- a file alone, a folder in place ---------------------------------------------------


def test_a_file_bot_sees_nothing_beside_it(tmp_path: Path) -> None:
    """The file is copied alone into a folder of its own: its folder holds only it, and
    a module beside the original cannot be imported."""
    (tmp_path / "helper.py").write_text(HELPER, encoding="utf-8")
    (tmp_path / "alone.py").write_text(ALONE, encoding="utf-8")
    player = open_bot(str(tmp_path / "alone.py"), time_limit=20)
    try:
        reply = player.ask(START, "w", 1)
        assert reply.ok, reply.describe()
        assert Path(player.process.code.path).parent != tmp_path
    finally:
        player.close()


def test_a_file_that_imports_a_sibling_is_told_to_pass_its_folder(tmp_path: Path) -> None:
    """The load error names the module and gives the folder form to use instead, from
    wait_ready and as the reason of a forfeit alike; the folder form then plays."""
    folder = team(tmp_path)
    player = open_bot(str(folder / "oskaplayer.py"))
    advice = (f"oskaplayer.py imports 'helper', which a bot given as a file cannot see: "
              f"pass its folder instead: {folder}:oskaplayer.oskaplayer")
    try:
        with pytest.raises(LoadError) as error:
            player.wait_ready()
        assert str(error.value) == f"cannot load oskaplayer.py: {advice}"
        reply = player.ask(START, "w", 1)
        assert reply.reason == "load" and reply.detail == advice
    finally:
        player.close()
    in_place = open_bot(f"{folder}:oskaplayer.oskaplayer", time_limit=20)
    try:
        assert in_place.ask(START, "w", 1).ok
    finally:
        in_place.close()


def test_a_missing_module_that_is_not_a_sibling_keeps_its_traceback(tmp_path: Path) -> None:
    """Only a module that was beside the file gets the advice."""
    bot = tmp_path / "bot.py"
    bot.write_text("import no_such_module_anywhere\n", encoding="utf-8")
    player = open_bot(str(bot))
    try:
        with pytest.raises(LoadError, match="No module named 'no_such_module_anywhere'"):
            player.wait_ready()
    finally:
        player.close()


def test_messages_name_the_file_not_its_copy(tmp_path: Path) -> None:
    """A load error and a traceback of a bot given as a file name the file, never the
    temporary folder it was copied to."""
    broken = open_bot(str(write_bot(tmp_path, "broken")))
    raises = open_bot(str(write_bot(tmp_path, "raises")), time_limit=20)
    try:
        with pytest.raises(LoadError) as error:
            broken.wait_ready()
        assert str(error.value).startswith("cannot load broken.py: SyntaxError: ")
        assert str(error.value).endswith("(broken.py, line 1)")
        assert error.value.traceback.startswith('  File "broken.py", line 1\n')
        reply = raises.ask(START, "w", 1)
        assert reply.reason == "exception" and 'File "raises.py", line 5' in reply.detail
        for text in (str(error.value), error.value.traceback, reply.detail):
            assert STAGE_PREFIX not in text and str(tmp_path) not in text
    finally:
        broken.close()
        raises.close()


@pytest.mark.slow
def test_the_staged_folder_lives_until_the_bot_is_closed(tmp_path: Path) -> None:
    """The copy outlives a restarted process (after a timeout) and goes on close()."""
    player = open_bot(str(write_bot(tmp_path, "hangs")), time_limit=0.5)
    staged = Path(player.process.code.path).parent
    try:
        assert player.ask(START, "w", 1).reason == "timeout"
        assert player.ask(START, "w", 1).reason == "timeout"
        assert player.process.starts == 2 and staged.is_dir()
    finally:
        player.close()
    assert not staged.exists()


def test_a_caller_killed_outright_leaves_no_staged_folder(tmp_path: Path) -> None:
    """The caller dies without any clean-up: the bot's host, which notices, removes the
    copy of the bot file."""
    staged = run_python(f"""
        import os
        from pathlib import Path
        from oska_gui.play.bot_loader import open_bot
        player = open_bot({str(write_bot(tmp_path, "good"))!r}, time_limit=20)
        assert player.ask({START!r}, "w", 1).ok
        print(Path(player.process.code.path).parent, flush=True)
        os._exit(0)  # no clean-up at all
    """).strip()
    assert Path(staged).name.startswith(STAGE_PREFIX)
    assert wait_until(lambda: not Path(staged).exists(), 10)


# -- the caller's folder ----------------------------------------------------------------


@pytest.mark.slow
def test_the_callers_folder_is_never_on_a_bots_import_path(tmp_path: Path) -> None:
    """Run from a folder whose random.py and json.py raise: the bots (as a file and as a
    folder) play whole games, without a forfeit, and cannot import its probe module."""
    bot = tmp_path / "probe.py"
    bot.write_text(CWD_PROBE, encoding="utf-8")
    here = shadowing_folder(tmp_path / "here")
    result = oska("match", bot, team(tmp_path), "--games", 2, cwd=here)
    assert result.returncode == 0, result.stderr
    assert_no_forfeit(result.stdout)
    checked = oska("check", bot, "--sizes", 4, "--games", 2, cwd=here)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_an_entry_naming_the_callers_folder_is_dropped(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """PYTHONPATH=. would put the caller's folder on the bot's path: the host drops it."""
    bot = tmp_path / "probe.py"
    bot.write_text(CWD_PROBE.replace("import json\nimport random\n", ""), encoding="utf-8")
    here = tmp_path / "here"
    here.mkdir()
    (here / "cwd_probe.py").write_text("PROBE = 1\n", encoding="utf-8")
    monkeypatch.chdir(here)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([os.curdir, str(REPO_ROOT)]))
    player = open_bot(str(bot), time_limit=20)
    try:
        reply = player.ask(START, "w", 1)
        assert reply.ok, reply.describe()
    finally:
        player.close()


# -- the same bot in every command ---------------------------------------------------------


@pytest.mark.slow
def test_a_folder_bot_plays_the_same_in_match_and_tournament(tmp_path: Path) -> None:
    """A bot importing a module beside it plays as a folder in ``oska match`` and in a
    local ``oska tournament``, without a forfeit; given as a file it cannot load, in
    both, with the advice."""
    folder = team(tmp_path)
    match = run_cli("match", folder, "--games", 2, "--ai", 1)
    assert match.returncode == 0, match.stderr
    assert_no_forfeit(match.stdout)
    as_file = run_cli("match", folder / "oskaplayer.py", "--games", 2, "--ai", 1)
    assert as_file.returncode == 2 and "pass its folder instead" in as_file.stderr
    name = f"{folder}:oskaplayer.oskaplayer"
    result = run_tournament(folder, folder / "oskaplayer.py", "--ai", 1, "--db",
                            tmp_path / "t.sqlite", "--workers", 1)
    assert result.returncode == 0, result.stderr
    table = standings(result.stdout)
    assert table[name]["forfeits"] == "0" and table[name]["games"] == "4"
    file_name = f"{folder / 'oskaplayer.py'}:oskaplayer"
    assert table[file_name]["load"] == table[file_name]["forfeits"] != "0"
    assert "pass its folder instead" in " ".join(result.stdout.split())


def zipped(folder: Path, archive: Path, top: str = "") -> Path:
    """Zip the files of ``folder`` into ``archive`` (under the folder ``top`` inside it)."""
    with zipfile.ZipFile(archive, "w") as out:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                out.write(file, top + file.relative_to(folder).as_posix())
    return archive


@pytest.mark.parametrize("top", ["", "team/"])
def test_a_zip_plays_as_its_folder_does_and_keeps_its_fingerprint(tmp_path: Path,
                                                                  top: str) -> None:
    """A zip of a two-module bot (at the archive's top, or in its one folder) plays a
    legal move from its own private folder; its fingerprint is the folder's, and the
    folder packed for a cluster plays too, with the same fingerprint."""
    folder = team(tmp_path)
    archive = parse_bot(str(zipped(folder, tmp_path / "team.zip", top)))
    as_folder = parse_bot(str(folder))
    assert isinstance(archive, BotArchive) and isinstance(as_folder, BotFolder)
    assert archive.prefix == top and archive.fingerprint == as_folder.fingerprint
    assert pack_folder(as_folder).fingerprint == as_folder.fingerprint
    start = ["wwww", "---", "--", "---", "bbbb"]
    for spec in (archive, pack_folder(as_folder)):
        player = open_bot(spec)
        try:
            result = player.process.run("oskaplayer", [start, "w", 1], 30)
        finally:
            player.close()
        assert result.ok and result.value in movegen(start, "w")


@pytest.mark.parametrize(("members", "words"), [
    ({"../evil.py": b"X = 1"}, "would be unpacked outside its folder"),
    ({"/abs/oskaplayer.py": b"X = 1"}, "would be unpacked outside its folder"),
    ({"readme.txt": b"hello"}, "has no module 'oskaplayer'"),
    ({"a/oskaplayer.py": b"X = 1", "b/oskaplayer.py": b"X = 1"}, "has no module"),
])
def test_an_unsafe_or_empty_zip_is_unusable(tmp_path: Path, members: dict[str, bytes],
                                            words: str) -> None:
    """Names that would land outside the folder, or no module where expected: one line,
    as BotUnusable (a tournament charges such a bot's games as load forfeits)."""
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for name, data in members.items():
            out.writestr(name, data)
    with pytest.raises(BotUnusable, match=re.escape(words)):
        parse_bot(str(archive))


def test_a_zip_bomb_is_refused_before_unpacking(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A small archive that unpacks to more than the cap is refused from its directory."""
    monkeypatch.setattr(bot_loader, "MAX_BOT_BYTES", 10_000)
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("oskaplayer.py", b"#" * 100_000)
    assert archive.stat().st_size < 10_000
    with pytest.raises(BotUnusable, match="unpacks to over 10,000 bytes"):
        parse_bot(str(archive))


@pytest.mark.parametrize(("coding", "plays"), [(True, True), (False, False)])
def test_a_latin1_file_plays_when_python_can_import_it(tmp_path: Path, coding: bool,
                                                       plays: bool) -> None:
    """A bot saved as latin-1: with a PEP 263 coding line it plays; without one it does
    not load, with Python's own reason: ``oska match`` says so, and a tournament plays
    on, charging its games as load forfeits."""
    text = ("# -*- coding: latin-1 -*-\n" if coding else "") + textwrap.dedent("""\
        from oska_gui import oskaplayer as ours
        NAME = "café"

        def oskaplayer(board, player, depth):
            return ours(board, player, 1)
        """)
    path = tmp_path / "latin1.py"
    path.write_bytes(text.encode("latin-1"))
    result = run_cli("match", path, "--games", 2, "--ai", 1)
    if plays:
        assert result.returncode == 0, result.stderr
        assert_no_forfeit(result.stdout)
        return
    assert result.returncode == 2 and "utf-8" in result.stderr.lower()
    tournament = run_tournament(path, "--ai", 1, "--db", tmp_path / "t.sqlite",
                                "--workers", 1)
    assert tournament.returncode == 0, tournament.stderr
    row = standings(tournament.stdout)[f"{path}:oskaplayer"]
    assert row["load"] == row["forfeits"] == "2"


def test_no_staged_folder_is_left_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a match, the folder each bot file was copied to is gone."""
    staging = tmp_path / "tmp"
    staging.mkdir()
    monkeypatch.setenv("TMPDIR", str(staging))
    note = tmp_path / "where.txt"
    bot = tmp_path / "notes.py"
    bot.write_text(textwrap.dedent(f"""
        import os
        from oska_gui import oskaplayer as ours
        with open({str(note)!r}, "a") as out:
            out.write(os.path.dirname(os.path.abspath(__file__)) + "\\n")

        def oskaplayer(board, player, depth):
            return ours(board, player, 1)
    """), encoding="utf-8")
    result = run_cli("match", bot, write_bot(tmp_path, "raises"), "--games", 2)
    assert result.returncode == 0, result.stderr
    folders = set(note.read_text(encoding="utf-8").split())
    assert folders and all(Path(folder).parent == staging for folder in folders)
    assert wait_until(lambda: not any(Path(folder).exists() for folder in folders), 5)
    assert not list(staging.glob("oska-bot-*"))


@pytest.mark.slow
def test_a_folder_of_submissions_enters_files_folders_and_zips(tmp_path: Path) -> None:
    """--bots DIR: a file, a folder, a zip of a folder, a file over the size cap and a
    folder without oskaplayer.py are five entrants named after them; the first three
    play without forfeits, the last two forfeit as load (all but the game between them,
    where only the one with White does), and the run goes on."""
    submissions = tmp_path / "class"
    submissions.mkdir()
    write_bot(submissions, "good").rename(submissions / "alice.py")
    team(submissions).rename(submissions / "bob")
    zipped(team(tmp_path), submissions / "carol.zip", "carol/")
    (submissions / "dave.py").write_bytes(b"#" * (bot_loader.MAX_BOT_BYTES + 1))
    (submissions / "eve").mkdir()
    (submissions / "eve" / "notes.txt").write_text("no bot here", encoding="utf-8")
    result = run_tournament("--bots", submissions, "--games", 1, "--db",
                            tmp_path / "t.sqlite", "--workers", 2)
    assert result.returncode == 0, result.stderr
    table = standings(result.stdout)
    assert sorted(table) == ["alice.py", "bob", "carol.zip", "dave.py", "eve"]
    for name in ("alice.py", "bob", "carol.zip"):
        assert table[name]["forfeits"] == "0", result.stdout
    for name in ("dave.py", "eve"):  # against each other, only White forfeits
        assert table[name]["load"] == table[name]["forfeits"]
    assert int(table["dave.py"]["forfeits"]) + int(table["eve"]["forfeits"]) == 7
    text = " ".join(result.stdout.split())
    assert "the most a bot may have" in text and "has no module 'oskaplayer'" in text


def test_a_renamed_bot_keeps_its_games_and_a_copy_plays_its_own(tmp_path: Path) -> None:
    """Game ids follow a bot's code, not its name: renaming the file reuses its games
    (shown under the new name); two copies of one file are two entrants, each with its
    own games."""
    first = write_bot(tmp_path, "good")
    db = tmp_path / "t.sqlite"
    before = run_tournament(first, "--ai", 1, "--db", db, "--workers", 1)
    assert before.returncode == 0, before.stderr
    renamed = first.rename(tmp_path / "renamed.py")
    after = run_tournament(renamed, "--ai", 1, "--db", db, "--workers", 1)
    assert games_line(after.stdout) == f"games: 0 played now, 2 reused from {db}"
    assert set(standings(after.stdout)) == {f"{renamed}:oskaplayer", "AI depth 1 (strong)"}
    copy = tmp_path / "copy.py"
    copy.write_bytes(renamed.read_bytes())
    both = run_tournament(renamed, copy, "--ai", 1, "--db", db, "--workers", 1)
    assert games_line(both.stdout) == f"games: 4 played now, 2 reused from {db}"
