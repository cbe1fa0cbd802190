"""A solved file is trusted only when whole (``engine.solved_file``): every kind of damage,
made from the n = 4 file the package ships, is refused in one line that names the file
and the command that rebuilds it; lookups then answer "not known", so play, hints and
analysis fall back to the package's own file or to the search. Never a wrong value,
never a traceback, never a hang.
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_cli

from oska_gui.engine import solved_file
from oska_gui.engine.solver import Solution
from oska_gui.games.oska import oska_rules
from oska_gui.play.game import make_game
from oska_gui.play.levels import LevelKey
from oska_gui.play.search_player import make_player

RULES = oska_rules(4)
SHIPPED = solved_file.SHIPPED / "oska-n4.solved"
START_VALUE = Solution(1, 21)  # docs/rules.md: White wins the n = 4 start in 21 plies
LAYOUT = solved_file._layout(solved_file.Places(4).indexes)
K = solved_file.SPAN


def flipped_results(data: bytearray) -> None:
    """Turn every win into a loss of the same plies and back (draws stay): the values
    swapped, the file's structure intact."""
    for at in range(LAYOUT.codes, len(data)):
        code = data[at]
        if code <= K or code > 2 * K:
            data[at] = 3 * K + 1 - code


def huge_entries(data: bytearray) -> None:
    """Set every directory entry but the first to 2 ** 63."""
    for block in range(1, LAYOUT.blocks):
        struct.pack_into("<Q", data, LAYOUT.directory + 8 * block, 1 << 63)


def first_child_block() -> tuple[int, int]:
    """Return (bitmap byte offset, first code offset) of the block that holds the start's
    first child, which every read of the start's value touches."""
    kid = RULES.children(RULES.start())[0]
    index = solved_file.Places(4).index(kid.white, kid.black)
    block = index // solved_file.BLOCK_BITS
    entry = struct.unpack_from("<Q", SHIPPED.read_bytes(), LAYOUT.directory + 8 * block)[0]
    return LAYOUT.bitmap + index // 8, LAYOUT.codes + entry


BITMAP_BYTE, FIRST_CODE = first_child_block()


def one_bit(offset: int) -> Callable[[bytearray], None]:
    """Return a damage that flips the lowest bit of the byte at ``offset``."""
    def flip(data: bytearray) -> None:
        """Flip the bit."""
        data[offset] ^= 1
    return flip


def versioned(version: int) -> Callable[[bytearray], None]:
    """Return a damage that writes ``version`` into the header (its checksum left as is,
    as another program's version would have its own)."""
    def stamp(data: bytearray) -> None:
        """Write the version."""
        struct.pack_into("<I", data, 8, version)
    return stamp


def cut(data: bytearray) -> None:
    """Drop the last 100 bytes."""
    del data[-100:]


# each damage and the words its refusal gives
DAMAGES: dict[str, tuple[Callable[[bytearray], None], str]] = {
    "values swapped": (flipped_results, "fails its checksum"),
    "directory entries 2^63": (huge_entries, "fails its checksum"),
    "cut short": (cut, "bytes instead of"),
    "older format": (versioned(1), "older format"),
    "newer format": (versioned(solved_file.VERSION + 1), "newer format"),
    "header byte": (one_bit(20), "header fails its checksum"),
    "summary byte": (one_bit(LAYOUT.summary + 1), "summary of checksums"),
    "checksum table byte": (one_bit(LAYOUT.checksums + 5), "checksum table"),
    "bitmap bit": (one_bit(BITMAP_BYTE), "fails its checksum"),
    "code byte": (one_bit(FIRST_CODE), "fails its checksum"),
}


def damaged(kind: str) -> bytes:
    """Return the shipped n = 4 file with the damage ``kind`` done to it."""
    data = bytearray(SHIPPED.read_bytes())
    DAMAGES[kind][0](data)
    return bytes(data)


def keep(folder: Path, content: bytes | None) -> Path:
    """Put ``content`` where ``oska solve --save`` keeps the n = 4 file under the data
    folder ``folder`` (None: a FIFO there); return its path."""
    path = folder / solved_file.APP_DIR / "oska-n4.solved"
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        os.mkfifo(path)
    else:
        path.write_bytes(content)
    return path


def every_value_read(opened: solved_file.SolvedFile) -> None:
    """Read the start and the positions two plies below it (touching their blocks)."""
    start = RULES.start()
    opened.solution(start)
    for kid in RULES.children(start):
        opened.ranked_children(kid)


def test_the_shipped_file_is_whole_and_holds_the_start() -> None:
    opened = solved_file.SolvedFile(SHIPPED, 4)
    assert opened.solution(RULES.start()) == START_VALUE
    assert opened.damage is None


def test_every_damage_changes_the_file() -> None:
    """The damages are real: each gives other bytes than the shipped file."""
    source = SHIPPED.read_bytes()
    assert all(damaged(kind) != source for kind in DAMAGES)


@pytest.mark.parametrize("kind", sorted(DAMAGES))
def test_a_damaged_file_is_refused_and_never_answers(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Opening refuses it, or the first lookup that touches a damaged block does: then
    that lookup and every later one answer None, and one line says why."""
    path = keep(tmp_path, damaged(kind))
    words = DAMAGES[kind][1]
    try:
        opened = solved_file.SolvedFile(path, 4)
    except solved_file.SolvedFileError as error:
        assert words in str(error) and str(path) in str(error)
        return
    every_value_read(opened)
    assert opened.damage is not None and words in opened.damage
    assert opened.solution(RULES.start()) is None
    assert opened.ranked_children(RULES.start()) is None
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and str(path) in lines[0]
    assert "rebuild it with: oska solve --n 4 --save" in lines[0]


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """Opening a FIFO would wait for a writer for ever: it is refused before."""
    path = keep(tmp_path, None)
    with pytest.raises(solved_file.SolvedFileError, match="not a regular file"):
        solved_file.SolvedFile(path, 4)


@pytest.mark.parametrize("kind", [*sorted(DAMAGES), "fifo"])
def test_the_lookup_falls_back_to_the_shipped_file(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture) -> None:
    """A damaged file in the data folder is passed over, in one line, for the package's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = keep(tmp_path, None if kind == "fifo" else damaged(kind))
    for _ in range(3):
        found = solved_file.solved_children(4, RULES.start())
        assert found is not None
        ranked, source = found
        assert source.path == SHIPPED and ranked[0][1] == START_VALUE
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and str(path) in lines[0], lines
    assert "oska solve --n 4 --save" in lines[0]


def test_without_any_whole_file_play_falls_back_to_the_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """With the data folder's file damaged and no shipped file, the Perfect level still
    plays every move of a game (by the solver or the search), none from the file."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(solved_file, "SHIPPED", tmp_path / "none")
    keep(tmp_path, damaged("values swapped"))
    game = make_game("oska", 4)
    player = make_player(game, LevelKey.PERFECT, "strong")
    pos = RULES.start()
    child = None
    while child is None:
        turn = player.think(pos, 1.0)
        child = turn.child if turn is not None else None
    assert child in RULES.children(pos)
    assert player.saved_moves == 0
    assert "ignoring the solved game" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["values swapped", "directory entries 2^63", "fifo"])
def test_the_commands_answer_exactly_beside_a_damaged_file(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``oska analyze`` and a Perfect self-play game with a damaged kept file: the right
    exact values (from the package's file), one line about the damaged one, no traceback,
    no hang (the commands run under a timeout)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = keep(tmp_path, None if kind == "fifo" else damaged(kind))
    analysed = run_cli("analyze", "wwww,---,--,---,bbbb", "w", "--depth", "2")
    assert analysed.returncode == 0, analysed.stderr
    assert "White wins in 21 plies" in analysed.stdout
    played = run_cli("selfplay", "--n", "4", "--white", "perfect", "--black", "perfect")
    assert played.returncode == 0, played.stderr
    assert re.search(r"White wins", played.stdout), played.stdout[-400:]
    for done in (analysed, played):
        assert "Traceback" not in done.stderr
        warnings = [line for line in done.stderr.splitlines() if str(path) in line]
        assert len(warnings) <= 1, done.stderr
