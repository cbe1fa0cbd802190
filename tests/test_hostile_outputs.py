"""Hostile outputs (issue 37, items 3, 4, 7, 8 and 10): what the commands write.

An output may not be an input or lie inside one (a bot's file, folder or zip, a game
record, the database), and the tournament's own outputs kept among the submissions of
``--bots`` are no entrants. Every file is written whole or not at all: on a full disk
the old file stays as it was and nothing half-written or empty is left. ``oska check``
says 2, not 1, when its result cannot be written. A symbolic link is written through;
an output that is a named pipe is refused at once instead of blocking, and ``--json -``
or ``--json /dev/stdout`` puts the JSON alone on standard output.

The full disk is simulated by ``io.open``: every file opened for writing through it
(as ``Path.write_text`` and ``os.fdopen`` do) takes a few bytes, then fails with ENOSPC.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import shutil
import stat
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import cli_command, run_cli, write_bot
from tournament_helpers import games_line, run_tournament, standings

from oska_gui import cli

FAST_CHECK = ["--sizes", "4", "--games", "2", "--player-positions", "1"]
PIPE_SECONDS = 30  # a refusal takes a second or two; a command stuck on the pipe, forever


def tree(folder: Path) -> dict[str, tuple[str, str]]:
    """Return every entry below ``folder``: {relative path: (kind, content hash or link)}."""
    entries = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            entries[name] = ("link", os.readlink(path))
        elif path.is_dir():
            entries[name] = ("folder", "")
        elif path.is_file():
            entries[name] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
        else:
            entries[name] = ("other", "")
    return entries


def one_line_error(code: int, err: str, *words: str) -> None:
    """Check an in-process command's end: exit code 2, one line on stderr with ``words``."""
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    for word in words:
        assert word in err, err


def make_inputs(folder: Path) -> None:
    """Write the inputs the commands below read: a bot file, a bot folder, a zip, a
    broken zip and a game record."""
    write_bot(folder, "good").rename(folder / "mine.py")
    (folder / "team").mkdir()
    shutil.copy(folder / "mine.py", folder / "team" / "oskaplayer.py")
    with zipfile.ZipFile(folder / "carol.zip", "w") as archive:
        archive.write(folder / "mine.py", "oskaplayer.py")
    (folder / "broken.zip").write_bytes(b"not a zip")
    code = cli.main(["selfplay", "--white", "1", "--black", "1", "--brief",
                     "--save", str(folder / "g.json")])
    assert code == 0


TOURNAMENT = ["tournament", "carol.zip", "team", "--depth", "1", "--workers", "1", "--games", "1"]


# -- item 3: no output over an input, nor inside one -------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    ([*TOURNAMENT, "--db", "t.sqlite", "--json", "carol.zip"],
     "--json 'carol.zip' would overwrite the bot carol.zip"),
    ([*TOURNAMENT, "--db", "t.sqlite", "--json", "team/oskaplayer.py"],
     "--json 'team/oskaplayer.py' would write inside the bot team"),
    ([*TOURNAMENT, "--db", "t.sqlite", "--json", "link.json"],
     "--json 'link.json' would overwrite the bot carol.zip"),
    ([*TOURNAMENT, "--db", "t.sqlite", "--report", "team/oskaplayer.py"],
     "--report 'team/oskaplayer.py' would write inside the bot team"),
    ([*TOURNAMENT, "--db", "t.sqlite", "--report", "team/r.html"],
     "--report 'team/r.html' would write inside the bot team"),
    ([*TOURNAMENT, "--db", "team/t.sqlite"], "--db 'team/t.sqlite' would write inside the bot"),
    (["tournament", "broken.zip", "team", "--db", "t.sqlite", "--json", "broken.zip"],
     "--json 'broken.zip' would overwrite the bot broken.zip"),
    (["check", "mine.py", "--json", "mine.py"], "--json 'mine.py' would overwrite the bot"),
    (["check", "team", "--json", "team/oskaplayer.py"],
     "--json 'team/oskaplayer.py' would write inside the bot team"),
    (["review", "g.json", "--html", "g.json"],
     "--html 'g.json' would overwrite the game record 'g.json'"),
    (["match", "team", "--save-dir", "team/games"],
     "--save-dir 'team/games' would write inside the bot 'team'"),
])
def test_an_output_that_is_an_input_or_lies_inside_one_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
        args: list[str], words: str) -> None:
    """Each of the issue's commands (a zip turned into JSON, a folder bot's module, a
    checked file or a record replaced, a report or database changing a folder bot's
    fingerprint): one line, exit code 2, before anything runs, every file as it was."""
    make_inputs(tmp_path)
    (tmp_path / "link.json").symlink_to("carol.zip")
    monkeypatch.chdir(tmp_path)
    before = tree(tmp_path)
    capsys.readouterr()
    code = cli.main(args)
    out, err = capsys.readouterr()
    one_line_error(code, err, words)
    assert "Tournament" not in out and "Checking" not in out
    assert tree(tmp_path) == before


# -- item 4: the tournament's outputs among the submissions ------------------------------


@pytest.mark.slow
def test_a_report_kept_among_the_submissions_is_no_entrant_on_the_rerun(tmp_path: Path) -> None:
    """``--bots class --report class/report.html``: the report's records folder, made in
    class/ by the first run, used to be a third entrant of the second, forfeiting every
    game as 'load'. The rerun has the same two entrants and replays nothing."""
    submissions = tmp_path / "class"
    submissions.mkdir()
    write_bot(submissions, "good")
    args = ["--bots", submissions, "--ai", 1, "--db", tmp_path / "t.sqlite", "--report",
            submissions / "report.html", "--depth", 1, "--workers", 1, "--games", 1]
    first = run_tournament(*args)
    assert first.returncode == 0, first.stderr
    assert (submissions / "report-games").is_dir()
    again = run_tournament(*args)
    assert again.returncode == 0, again.stderr
    assert sorted(standings(again.stdout)) == ["AI depth 1 (strong)", "good.py"]
    assert games_line(again.stdout).startswith("games: 0 played now, 1 reused")


# -- items 7 and 8: a full disk -----------------------------------------------------------


class FullDisk:
    """A file open for writing on a disk that is full after ``room`` more bytes."""

    def __init__(self, file: Any, room: int = 10) -> None:
        """Wrap the open ``file``."""
        self.file = file
        self.room = room

    def write(self, data: Any) -> int:
        """Write what fits, then fail as a full disk does."""
        if len(data) <= self.room:
            self.room -= len(data)
            return self.file.write(data)
        self.file.write(data[:self.room])
        self.file.flush()
        self.room = 0
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name: str) -> Any:
        """Everything else is the file's."""
        return getattr(self.file, name)

    def __enter__(self) -> FullDisk:
        """Use it in a with statement, as the file."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close the file."""
        self.file.close()


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every regular file opened for writing through ``io.open`` run out of room
    (not pipes: a bot's process is talked to through them)."""
    real_open = io.open

    def opener(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        """Open as usual; wrap a regular file opened for writing in FullDisk."""
        opened = real_open(file, mode, *args, **kwargs)
        if "w" in mode and stat.S_ISREG(os.fstat(opened.fileno()).st_mode):
            return FullDisk(opened)
        return opened

    monkeypatch.setattr(io, "open", opener)


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """Return a game record in its own folder (made before the disk fills up)."""
    folder = tmp_path / "records"
    folder.mkdir()
    code = cli.main(["selfplay", "--white", "1", "--black", "1", "--brief",
                     "--save", str(folder / "g.json")])
    assert code == 0
    return folder / "g.json"


def command(kind: str, out: Path, record: Path) -> list[str]:
    """Return the command line that writes ``out``: selfplay, review or check."""
    if kind == "selfplay":
        return ["selfplay", "--white", "1", "--black", "1", "--brief", "--save", str(out)]
    if kind == "review":
        return ["review", str(record), "--no-exact", "--depth", "1", "--html", str(out)]
    bot = write_bot(record.parent.parent, "good")
    return ["check", str(bot), *FAST_CHECK, "--json", str(out)]


@pytest.mark.parametrize("kind", ["selfplay", "review", "check"])
@pytest.mark.parametrize("existing", [True, False])
def test_a_full_disk_leaves_the_old_file_and_nothing_else(
        tmp_path: Path, record: Path, capsys: pytest.CaptureFixture, request: Any,
        kind: str, existing: bool) -> None:
    """``selfplay --save``, ``review --html`` and ``check --json`` on a full disk: one
    line naming the file and the reason, exit code 2 (for check: not 1, which says its
    calls disagreed; it used to be a traceback), and the file there before is byte for
    byte as it was (it was truncated), or no file at all (it was left empty)."""
    out = tmp_path / "out" / "result"
    out.parent.mkdir()
    if existing:
        out.write_text("the old result\n", encoding="utf-8")
    before = tree(out.parent)
    args = command(kind, out, record)
    capsys.readouterr()
    request.getfixturevalue("full_disk")
    code = cli.main(args)
    _, err = capsys.readouterr()
    one_line_error(code, err, "result", "No space left on device")
    assert tree(out.parent) == before


def test_match_records_on_a_full_disk_leave_no_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture, request: Any) -> None:
    """``match --save-dir`` into a new folder on a full disk: one line, exit code 2, and
    neither the folder nor a part of a record is left (the folder kept a cut record)."""
    bot = write_bot(tmp_path, "good")
    request.getfixturevalue("full_disk")
    code = cli.main(["match", str(bot), "--ai", "1", "--games", "2", "--save-dir",
                     str(tmp_path / "games" / "new")])
    _, err = capsys.readouterr()
    one_line_error(code, err, "games", "No space left on device")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["good.py"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a folder holding a finished tournament's database and report (played once
    for the module: the tests below copy it and rerun, reusing every game)."""
    folder = tmp_path_factory.mktemp("played")
    result = run_tournament("--ai", 1, "--ai", 2, "--db", folder / "t.sqlite", "--report",
                            folder / "r.html", "--workers", 1, "--games", 1)
    assert result.returncode == 0, result.stderr
    return folder


@pytest.fixture
def rerun(played: Path, tmp_path: Path) -> Path:
    """Return a copy of the played tournament's folder to rerun in."""
    folder = tmp_path / "played"
    shutil.copytree(played, folder)
    return folder


def tournament_again(folder: Path, *options: str) -> list[str]:
    """Return the command line that reruns the played tournament in ``folder``."""
    return ["tournament", "--ai", "1", "--ai", "2", "--db", str(folder / "t.sqlite"),
            "--workers", "1", "--games", "1", *options]


@pytest.mark.slow
@pytest.mark.parametrize("report", ["r.html", "new.html"])
def test_a_report_on_a_full_disk_leaves_the_old_one_and_no_empty_folder(
        rerun: Path, capsys: pytest.CaptureFixture, request: Any, report: str) -> None:
    """Rewriting the report over the old one, or a new report, on a full disk: one line,
    exit code 2; the old report and records stay byte for byte (they were truncated),
    and a new report leaves no records folder behind (it was left with a part of one
    record)."""
    before = tree(rerun)
    request.getfixturevalue("full_disk")
    code = cli.main(tournament_again(rerun, "--report", str(rerun / report)))
    _, err = capsys.readouterr()
    one_line_error(code, err, report, "No space left on device")
    assert {name: entry for name, entry in tree(rerun).items()
            if not name.startswith("t.sqlite")} == \
        {name: entry for name, entry in before.items() if not name.startswith("t.sqlite")}


# -- item 8: the exit codes of oska check ------------------------------------------------


def test_the_exit_codes_of_check_are_in_its_help(capsys: pytest.CaptureFixture) -> None:
    """A grading script reads what 0, 1 and 2 mean in ``oska check --help``."""
    assert cli.main(["check", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "exit codes: 0 every call agrees" in text
    assert "1 a disagreement was found" in text
    assert "2 the check could not be made or its result not written" in text


# -- item 10 and named pipes: links, pipes, standard output ------------------------------


def writers(folder: Path, out: str) -> dict[str, list[object]]:
    """Return a command line for each output option, writing ``out`` in ``folder``."""
    bot = folder / "mine.py"
    return {
        "selfplay --save": ["selfplay", "--white", 1, "--black", 1, "--brief", "--save", out],
        "check --json": ["check", bot, *FAST_CHECK, "--json", out],
        "review --html": ["review", folder / "g.json", "--no-exact", "--depth", 1, "--html",
                          out],
        "tournament --json": ["tournament", bot, "--ai", 1, "--db", folder / "t.sqlite",
                              "--depth", 1, "--workers", 1, "--games", 1, "--json", out],
        "tournament --report": ["tournament", bot, "--ai", 1, "--db", folder / "t.sqlite",
                                "--depth", 1, "--workers", 1, "--games", 1, "--report", out],
    }


FILE_WRITERS = ["selfplay --save", "check --json", "review --html", "tournament --json",
                "tournament --report"]
SLOW = pytest.mark.slow  # a review or a tournament to the end: a few seconds


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Return a folder holding the inputs (``make_inputs``), the current one."""
    make_inputs(tmp_path)
    monkeypatch.chdir(tmp_path)
    yield tmp_path


@pytest.mark.parametrize("writer", [
    *FILE_WRITERS[:2], *(pytest.param(writer, marks=SLOW) for writer in FILE_WRITERS[2:])])
def test_a_link_to_a_file_not_there_yet_is_written_through(inputs: Path, writer: str) -> None:
    """``out -> made/target``: the file the link leads to gets the output and the link
    stays. The target used to be created empty, the link deleted, and a plain file
    written in its place."""
    (inputs / "made").mkdir()
    (inputs / "out").symlink_to(os.path.join("made", "target"))
    result = run_cli(*writers(inputs, "out")[writer], cwd=inputs)
    assert result.returncode in (0, 1), result.stderr  # check: 1 would be a disagreement
    assert (inputs / "out").is_symlink() and os.readlink(inputs / "out") == "made/target"
    assert (inputs / "made" / "target").stat().st_size > 0
    if "json" in writer or "save" in writer:
        json.loads((inputs / "made" / "target").read_text(encoding="utf-8"))
    names = sorted(path.name for path in (inputs / "made").iterdir())
    assert names == ["target"] + (["target-games"] if "report" in writer else [])


@pytest.mark.parametrize("writer", FILE_WRITERS)
def test_a_link_into_a_missing_folder_is_refused_and_left_alone(inputs: Path,
                                                              writer: str) -> None:
    """``out.html -> missing/target.html``: one line saying where the link leads and
    why it cannot be written, exit code 2, nothing made, the link as it was."""
    (inputs / "out.html").symlink_to(os.path.join("missing", "target.html"))
    before = tree(inputs)
    result = run_cli(*writers(inputs, "out.html")[writer], cwd=inputs)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "a link to 'missing/target.html': No such file or directory" in result.stderr
    assert tree(inputs) == before


@pytest.mark.parametrize("writer", FILE_WRITERS)
def test_a_named_pipe_as_an_output_is_refused_at_once(inputs: Path, writer: str) -> None:
    """An output that is a named pipe with no reader: one line, exit code 2, within
    seconds. Opening it to check it used to wait for a reader for ever."""
    os.mkfifo(inputs / "pipe")
    argv, env = cli_command(*writers(inputs, "pipe")[writer])
    result = subprocess.run(argv, cwd=inputs, env=env, capture_output=True, text=True,
                            timeout=PIPE_SECONDS, check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "'pipe': cannot write there (a named pipe, not a regular file" in result.stderr
    assert (inputs / "pipe").is_fifo()


@pytest.mark.parametrize("where", ["-", "/dev/stdout"])
def test_check_json_on_standard_output_is_the_json_alone(tmp_path: Path, where: str) -> None:
    """``--json -`` and ``--json /dev/stdout``: standard output holds the JSON alone (the
    report goes to stderr), wherever it goes; '-' used to be a file of that name, and
    /dev/stdout the report with the JSON after it."""
    bot = write_bot(tmp_path, "good")
    result = run_cli("check", bot, *FAST_CHECK, "--json", where, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["exit_code"] == 0
    assert "calls agree" in result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["good.py"]


@pytest.mark.slow
def test_tournament_json_on_standard_output_is_the_json_alone(
        rerun: Path, capsys: pytest.CaptureFixture) -> None:
    """The tournament's ``--json -``: the JSON alone on standard output, the tables on
    stderr."""
    assert cli.main(tournament_again(rerun, "--json", "-")) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["format"] == "oska-tournament"
    assert "Standings" in err


def test_a_pipe_given_for_json_says_how_to_reach_standard_output(tmp_path: Path) -> None:
    """A device or a pipe named for ``--json`` is refused with the way that works."""
    result = run_cli("check", write_bot(tmp_path, "good"), "--json", "/dev/null")
    assert result.returncode == 2
    assert "a character device, not a regular file; give - for standard output" in \
        result.stderr


@pytest.mark.numba
def test_a_dataset_into_a_named_pipe_is_refused_before_solving(tmp_path: Path) -> None:
    """``oska solve --dataset`` names a pipe: refused before the solve, not stuck on the
    pipe after it."""
    os.mkfifo(tmp_path / "pipe.npz")
    argv, env = cli_command("solve", "--n", 4, "--dataset", tmp_path / "pipe.npz")
    result = subprocess.run(argv, env=env, capture_output=True, text=True,
                            timeout=PIPE_SECONDS, check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "--dataset" in result.stderr and "a named pipe, not a regular file" in result.stderr
    assert "Oska n = 4" not in result.stdout
