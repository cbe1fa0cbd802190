"""A solved Oska game kept on disk, read in pure Python: ``oska solve --n 5 --save``.

The whole n = 5 game solved (``tablebase``) takes 5 GB of memory and minutes of a
compiled solver; this file keeps what play needs of it in a form any process reads in
microseconds without numpy or numba: memory-mapped, each lookup a bit test, one
popcount and a byte read.

**What is kept.** Only the positions reachable from the start, and of those only the
ones with one side to move (the ``stored turn``, whichever has fewer): turns alternate
every ply (a pass is a ply), so a position with the other side to move is valued from
its children, one ply later, each of which is stored. That halves the file.

**Layout** (little-endian; one *index* per place of the tablebase with the stored turn,
``place >> 1`` in ``tablebase``'s layout, which this module computes itself):

    header     HEADER_BYTES: magic, version, n, stored turn, span, indexes, stored count,
               the summary's CRC-32 and the header's own CRC-32
    summary    one uint32 per TABLE_CHUNK blocks: CRC-32 of their part of the checksums
    directory  one uint64 per BLOCK_BITS indexes: the stored positions before the block
    checksums  one uint32 per block: CRC-32 of its directory entry, bitmap bytes and codes
    bitmap     one bit per index, set where the position is stored (padded to blocks)
    codes      one byte per stored position, in index order: its value and plies

**Trusted only when whole.** Opening checks that the file is a regular file (a FIFO is
refused before anything waits on it), its size, the header's checksum, the format's
version and the summary's CRC (600 bytes on n = 5); the header is written last, into a
temporary file renamed into place, so a write cut short leaves no file that passes. Each
block is checked against its checksum the first time a lookup touches it (a few
microseconds for its 512 bitmap bytes and at most 4,096 codes), and the part of the
checksums it belongs to (16 KB) against the summary the first time one of its blocks is,
so a damaged byte anywhere is found before any value of its block is believed, and
opening reads no more than the header and the summary, from a cold disk too. A file
that fails is refused in one line naming it and the command that rebuilds it, and its
lookups answer "not known", so play, hints and analysis fall back to the search.

A lookup tests the position's bit, counts the set bits before it (the directory entry
plus one popcount of at most BLOCK_BITS / 8 bytes) and reads that code. The bitmap
costs one bit for each of n = 5's 2.5e9 indexes (reachable or not), far less than a
sorted list of 30-bit keys for its 485 million stored positions would.

**Codes** as ``tablebase``'s one-byte cells (span K = 85, plies 0 to 84): loss in p
plies 1 + p, draw in p 1 + K + p, win in p 3K - p, for the side to move.

n = 5 (Black wins in 48 plies; 969,022,436 reachable positions): docs/playing.md gives
the file's size and the time the build takes, docs/benchmarks.md how fast it answers.
The n = 4 file ships with the package (``SHIPPED``); a file the user keeps in the data
folder is read first.
"""

from __future__ import annotations

import os
import struct
import sys
import zlib
from collections.abc import Iterable
from functools import cache
from math import comb
from pathlib import Path
from typing import BinaryIO, NamedTuple

from oska_gui.core.files import NotAFile, open_regular, replacing
from oska_gui.core.types import Position
from oska_gui.engine.solver import Solution, parent_score, score_of, solution_of
from oska_gui.games.oska import OskaRules, oska_rules

MAGIC = b"OSKASOLV"
VERSION = 2  # 2: checksums per block, of the checksums and of the header; 1 had none
# magic, version, n, turn, span, indexes, stored, the summary's CRC-32
HEADER = struct.Struct("<8sIIIIQQI")
HEADER_CHECK = struct.Struct("<I")  # the header's own CRC-32, right after it
VERSION_FIELD = struct.Struct("<8sI")  # where every version keeps its magic and version
HEADER_BYTES = 64  # the header, padded: the directory starts 8-byte aligned
BLOCK_BITS = 4096  # indexes per directory entry: a lookup counts at most 512 bytes
BLOCK_BYTES = BLOCK_BITS // 8
ENTRY = struct.Struct("<Q")
CHECK = struct.Struct("<I")
TABLE_CHUNK = 4096  # blocks whose checksums (16 KB) one summary entry covers
SHIPPED = Path(__file__).with_name("solved")  # the solved files the package carries
SPAN = 85  # plies 0..84 fit one byte, as in ``tablebase``'s uint8 cells
APP_DIR = "oska-gui"  # the program's folder name, as the settings' (desktop/storage.py)
LOOKAHEAD = 2  # plies below a position that is not stored the lookup may look for stored ones


class SolvedFileError(Exception):
    """Raised when a file is not a solved game of the expected board size, or is damaged."""


def data_folder() -> Path:
    """Return the program's folder in the user's data folder.

    ``$XDG_DATA_HOME/oska-gui``, else ``~/.local/share/oska-gui`` (settings, small, go to
    the configuration folder; a solved game is data).
    """
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / APP_DIR


def solved_path(n: int) -> Path:
    """Return where the solved game of board size ``n`` is kept."""
    return data_folder() / f"oska-n{n}.solved"


def encode(solution: Solution) -> int:
    """Return the one-byte code of ``solution`` (see the module doc).

    Raises:
        SolvedFileError: when its plies do not fit a byte's span.
    """
    result, plies = solution
    if not 0 <= plies < SPAN:
        raise SolvedFileError(f"a value of {plies} plies does not fit the file's "
                              f"{SPAN - 1}-ply codes")
    return 3 * SPAN - plies if result > 0 else 1 + SPAN + plies if result == 0 else 1 + plies


def decode(code: int) -> Solution:
    """Return the Solution of a nonzero one-byte ``code`` (see the module doc)."""
    if code <= SPAN:
        return Solution(-1, code - 1)
    if code <= 2 * SPAN:
        return Solution(0, code - 1 - SPAN)
    return Solution(1, 3 * SPAN - code)


class Places:
    """Where each position of one board size sits in ``tablebase``'s layout, in pure Python.

    The positions with w white and b black pieces form a class; a position's index (its
    place without the turn bit) is the class's first index plus
    ``rank(white set) * C(cells - w, b) + rank(black set among the other cells)`` with
    colex ranks of the sets.
    """

    def __init__(self, n: int) -> None:
        """Prepare the class table of board size ``n``."""
        self.cells = cells = oska_rules(n).size
        self.first: dict[tuple[int, int], int] = {}
        self.span: dict[tuple[int, int], int] = {}
        total = 0
        for w in range(n + 1):
            for b in range(n + 1):
                self.first[w, b], self.span[w, b] = total, comb(cells - w, b)
                total += comb(cells, w) * comb(cells - w, b)
        self.indexes = total

    def index(self, white: int, black: int) -> int:
        """Return the index of the board (``white``, ``black``), either side to move.

        Raises:
            KeyError: for a board with more pieces of a side than the size starts with.
        """
        w, b = white.bit_count(), black.bit_count()
        first, span = self.first[w, b], self.span[w, b]
        return first + _colex_rank(white, 0) * span + _colex_rank(black, white)


def _colex_rank(members: int, skip: int) -> int:
    """Return the colex rank of the set of cells ``members`` (a bitboard), each cell
    numbered among the cells not in ``skip`` (a bitboard disjoint from ``members``)."""
    rank = k = 0
    while members:
        low = members & -members
        members ^= low
        k += 1
        below = low - 1
        rank += comb(below.bit_length() - (skip & below).bit_count(), k)
    return rank


class Header(NamedTuple):
    """What a solved file says about itself."""

    n: int
    turn: int  # the side to move in every stored position
    indexes: int  # bits of the bitmap in use
    stored: int  # positions stored (codes)


class Layout(NamedTuple):
    """Where each part of a solved file of some number of indexes starts, in bytes."""

    blocks: int
    chunks: int
    summary: int
    directory: int
    checksums: int
    bitmap: int
    codes: int


def _aligned(size: int) -> int:
    """Return ``size`` rounded up to a multiple of 8 bytes."""
    return -(-size // ENTRY.size) * ENTRY.size


def _layout(indexes: int) -> Layout:
    """Return the layout of a file of ``indexes`` bits."""
    blocks = -(-indexes // BLOCK_BITS)
    chunks = -(-blocks // TABLE_CHUNK)
    directory = HEADER_BYTES + _aligned(chunks * CHECK.size)
    checksums = directory + blocks * ENTRY.size
    bitmap = checksums + _aligned(blocks * CHECK.size)
    return Layout(blocks, chunks, HEADER_BYTES, directory, checksums, bitmap,
                  bitmap + blocks * BLOCK_BYTES)


def _summary(table: bytes | memoryview, chunks: int) -> bytes:
    """Return the summary of a checksum table: the CRC-32 of each TABLE_CHUNK part."""
    size = TABLE_CHUNK * CHECK.size
    return b"".join(CHECK.pack(zlib.crc32(table[chunk * size:(chunk + 1) * size]))
                    for chunk in range(chunks))


def rebuild_hint(path: Path, n: int) -> str:
    """Return how to get a whole solved file back in place of ``path``.

    Args:
        path: the file that was refused.
        n: its board size.

    Returns:
        The command that rebuilds it, or for the package's own file how to restore it.
    """
    if path.parent == SHIPPED:
        return f"reinstall oska-gui to restore it, or keep your own: oska solve --n {n} --save"
    return f"rebuild it with: oska solve --n {n} --save"


def _block_crc(entry: int, bits: bytes | memoryview, codes: bytes | memoryview) -> int:
    """Return the CRC-32 of one block: its directory entry, bitmap bytes and codes."""
    return zlib.crc32(codes, zlib.crc32(bits, zlib.crc32(ENTRY.pack(entry))))


class SolvedFile:
    """A solved game opened read-only and memory-mapped: exact values of its positions.

    Only the pages a lookup touches are ever read from the disk, so opening is instant
    and the memory it takes is the system's page cache, shared between processes.
    """

    def __init__(self, path: Path, n: int) -> None:
        """Open ``path``, which must hold the solved game of board size ``n``, whole.

        Raises:
            SolvedFileError: when it is not such a file, not a regular file, of another
                version, cut short or damaged where opening looks (its header and
                checksum table; each block is checked when first read).
            OSError: when it cannot be opened.
        """
        import mmap  # here: the browser's Python, which never has such a file, may lack it

        self.path = path
        self.damage: str | None = None  # why lookups stopped, once a block failed
        try:
            handle = open_regular(path)
        except NotAFile as error:  # a FIFO is refused here, never waited on
            raise SolvedFileError(f"{path} is not a regular file ({error.strerror})") from None
        try:
            size = os.fstat(handle).st_size
            if size < HEADER_BYTES:
                raise SolvedFileError(f"{path} is not a solved game (too short)")
            self._map = mmap.mmap(handle, 0, access=mmap.ACCESS_READ)
        finally:
            os.close(handle)
        self.places = Places(n)
        try:
            self.header = self._checked_header(size, n)
        except SolvedFileError:
            self._map.close()
            raise
        self._layout = _layout(self.header.indexes)
        self._checked = bytearray(self._layout.blocks)  # 1 once a block passed its check
        self._chunks = bytearray(self._layout.chunks)  # 1 once a chunk of checksums did
        self.rules: OskaRules = oska_rules(n)

    def _checked_header(self, size: int, n: int) -> Header:
        """Return the header of the mapped file of ``size`` bytes, checked to be this
        version's whole solved game of board size ``n``; raises SolvedFileError otherwise."""
        view = self._map
        magic, version = VERSION_FIELD.unpack_from(view)
        if magic != MAGIC:
            raise SolvedFileError(f"{self.path} is not a solved game")
        if version != VERSION:
            age = "an older" if version < VERSION else "a newer"
            raise SolvedFileError(f"{self.path} is in {age} format (version {version}, "
                                  f"this program reads {VERSION})")
        fields = HEADER.unpack_from(view)
        (stored_crc,) = HEADER_CHECK.unpack_from(view, HEADER.size)
        if zlib.crc32(view[:HEADER.size]) != stored_crc:
            raise SolvedFileError(f"{self.path} is damaged (its header fails its checksum)")
        _, _, size_n, turn, span, indexes, stored, summary_crc = fields
        if span != SPAN or turn not in (0, 1):
            raise SolvedFileError(f"{self.path} is not a solved game of this program's version")
        if size_n != n or indexes != self.places.indexes:
            raise SolvedFileError(f"{self.path} holds the game of n = {size_n}, not n = {n}")
        layout = _layout(indexes)
        expected = layout.codes + stored
        if size != expected:
            raise SolvedFileError(f"{self.path} is damaged: {size:,} bytes instead of "
                                  f"{expected:,}")
        if zlib.crc32(view[layout.summary:layout.summary + layout.chunks * CHECK.size]) \
                != summary_crc:
            raise SolvedFileError(f"{self.path} is damaged (its summary of checksums fails "
                                  "its checksum)")
        return Header(n, turn, indexes, stored)

    def _entry(self, block: int) -> int:
        """Return the directory entry of ``block``: the stored positions before it."""
        return int(ENTRY.unpack_from(self._map, self._layout.directory + block * ENTRY.size)[0])

    def _check_chunk(self, chunk: int) -> None:
        """Check part ``chunk`` of the checksum table against the summary, once.

        Raises:
            SolvedFileError: when its bytes are not the ones written.
        """
        layout, view = self._layout, self._map
        start = layout.checksums + chunk * TABLE_CHUNK * CHECK.size
        end = layout.checksums + min((chunk + 1) * TABLE_CHUNK, layout.blocks) * CHECK.size
        (expected,) = CHECK.unpack_from(view, layout.summary + chunk * CHECK.size)
        if zlib.crc32(view[start:end]) != expected:
            raise SolvedFileError(f"{self.path} is damaged (part {chunk:,} of its checksum "
                                  "table fails its checksum)")
        self._chunks[chunk] = 1

    def _check_block(self, block: int) -> None:
        """Check ``block`` against its checksum and its neighbour's entry, once.

        Raises:
            SolvedFileError: when its bytes are not the ones written.
        """
        layout, view = self._layout, self._map
        if not self._chunks[block // TABLE_CHUNK]:
            self._check_chunk(block // TABLE_CHUNK)
        first = self._entry(block)
        last = self._entry(block + 1) if block + 1 < layout.blocks else self.header.stored
        start = layout.bitmap + block * BLOCK_BYTES
        bits = view[start:start + BLOCK_BYTES]
        fits = first <= last <= self.header.stored
        if not fits or int.from_bytes(bits, "little").bit_count() != last - first or \
                _block_crc(first, bits, view[layout.codes + first:layout.codes + last]) != \
                CHECK.unpack_from(view, layout.checksums + block * CHECK.size)[0]:
            raise SolvedFileError(f"{self.path} is damaged (block {block:,} of "
                                  f"{layout.blocks:,} fails its checksum)")
        self._checked[block] = 1

    def _stored(self, white: int, black: int) -> Solution | None:
        """Return the Solution of a board with the stored turn to move, None if not stored."""
        index = self.places.index(white, black)
        block = index // BLOCK_BITS
        if not self._checked[block]:
            self._check_block(block)
        view, layout = self._map, self._layout
        byte = view[layout.bitmap + (index >> 3)]
        bit = index & 7
        if not (byte >> bit) & 1:
            return None
        before = self._entry(block)
        start = layout.bitmap + block * BLOCK_BYTES
        before += int.from_bytes(view[start:layout.bitmap + (index >> 3)], "little").bit_count()
        before += (byte & ((1 << bit) - 1)).bit_count()
        return decode(view[layout.codes + before])

    def solution(self, pos: Position, lookahead: int = LOOKAHEAD) -> Solution | None:
        """Return the perfect-play Solution of ``pos`` for its side to move, or None.

        A stored position is read at once; a finished game is valued by the rules; any
        other position from its children's values, looking at most ``lookahead`` plies
        down for stored ones. None when that does not reach: the position cannot arise
        from the start (a board typed by hand, say), nor its children; and for every
        position once a block of the file failed its check (``damage`` says why).
        """
        if self.damage is not None:
            return None
        try:
            return self._solution(pos, lookahead)
        except SolvedFileError as error:
            self._refuse(str(error))
            return None

    def _refuse(self, reason: str) -> None:
        """Stop answering from this file, saying so once on stderr.

        Args:
            reason: what failed, naming the file.
        """
        self.damage = reason
        print(f"Oska: ignoring the solved game from now on: {reason}; "
              f"{rebuild_hint(self.path, self.header.n)}", file=sys.stderr)

    def _solution(self, pos: Position, lookahead: int) -> Solution | None:
        """Return ``solution(pos, lookahead)``, raising SolvedFileError on a bad block."""
        rules = self.rules
        result = rules.terminal(pos)
        if result is not None:
            return Solution(result, 0)
        if pos[2] == self.header.turn:
            try:
                found = self._stored(pos[0], pos[1])
            except KeyError:  # more pieces than the game starts with: not a game position
                return None
            if found is not None or lookahead == 0:
                return found
        elif lookahead == 0:
            return None
        kids = rules.children(pos)
        if not kids:
            return Solution(rules.stuck_result, 0)
        best = None
        for kid in kids:
            value = self._solution(kid, lookahead - 1)
            if value is None:
                return None
            score = parent_score(score_of(*value))
            best = score if best is None else max(best, score)
        return solution_of(best) if best is not None else None

    def ranked_children(self, pos: Position) -> list[tuple[Position, Solution]] | None:
        """Return (child, Solution for the mover) pairs of ``pos``, best first, ties in
        move order, like ``solver.Solver.ranked_children``; None when the game is over,
        no move is possible or some child's value is not known (see ``solution``)."""
        rules = self.rules
        kids = rules.children(pos) if rules.terminal(pos) is None else []
        scored = []
        for kid in kids:
            value = self.solution(kid, LOOKAHEAD - 1)
            if value is None:  # not known, or the file just proved damaged
                return None
            scored.append((kid, parent_score(score_of(*value))))
        scored.sort(key=lambda pair: -pair[1])  # stable: ties keep the move order
        return [(kid, solution_of(score)) for kid, score in scored] or None


# the moves of a position ranked by a solved game, best first, and the file that did
SolvedRanking = tuple[list[tuple[Position, Solution]], SolvedFile]


@cache
def _opened(path: str, n: int, stamp: tuple[int, int]) -> SolvedFile | None:
    """Return ``path`` opened as the solved game of ``n``, or None with a warning on
    stderr when it cannot be read; once per file version (``stamp``: mtime and size)."""
    try:
        return SolvedFile(Path(path), n)
    except (OSError, SolvedFileError) as error:
        print(f"Oska: ignoring the solved game {path}: {error}; "
              f"{rebuild_hint(Path(path), n)}", file=sys.stderr)
        return None


def saved_solution(n: int) -> SolvedFile | None:
    """Return the solved game of board size ``n``, or None: the one ``oska solve --save``
    kept in the user's data folder if it is whole, else the one the package ships.

    Asks the disk each time (a new file is seen at once: one ``stat``); a file is opened
    once per process and version, and a refused one is named once.
    """
    for path in (solved_path(n), SHIPPED / f"oska-n{n}.solved"):
        try:
            found = path.stat()
        except (OSError, ValueError):  # no file (or no home folder: the browser)
            continue
        opened = _opened(str(path), n, (found.st_mtime_ns, found.st_size))
        if opened is not None and opened.damage is None:
            return opened
    return None


def solved_children(n: int, pos: Position) -> SolvedRanking | None:
    """Return the moves of ``pos`` ranked by a whole solved game of board size ``n``, and
    the file that ranked them; None when no whole file knows every child.

    The files are asked in ``saved_solution``'s order; one that proves damaged during
    the lookup is passed over for the next, so a damaged block never stops the answer
    that a whole file has.

    Args:
        n: the board size.
        pos: the position, not finished.

    Returns:
        ((child, Solution for the mover) pairs best first, as
        ``SolvedFile.ranked_children``, the file), or None.
    """
    while (found := saved_solution(n)) is not None:
        ranked = found.ranked_children(pos)
        if ranked is not None:
            return ranked, found
        if found.damage is None:  # whole, and it does not know the position
            return None
    return None


def write_solved(path: Path, n: int, turn: int,
                 chunks: Iterable[tuple[bytes, bytes]]) -> Header:
    """Write a solved game to ``path`` atomically (a temporary file renamed at the end).

    Args:
        path: the file to write; its folder is made if missing.
        n: the board size.
        turn: the side to move in every stored position.
        chunks: (bitmap bytes, code bytes) pairs in index order: each bitmap part covers
            whole blocks of BLOCK_BITS indexes (the last may stop short), its codes are
            those of its set bits in order.

    Returns:
        The header written.

    Raises:
        SolvedFileError: when the bitmap does not cover the board size's indexes or the
            codes do not match its set bits.
    """
    indexes = Places(n).indexes
    layout = _layout(indexes)
    path.parent.mkdir(parents=True, exist_ok=True)
    with replacing(path) as file:
        entries, checks, bitmap_bytes, stored = _write_parts(file, layout, chunks)
        if bitmap_bytes != -(-indexes // 8):
            raise SolvedFileError(f"the bitmap covers {bitmap_bytes * 8:,} indexes, "
                                  f"not the {indexes:,} of n = {n}")
        file.truncate(layout.codes + stored)  # the bitmap's padding is zeros
        file.seek(layout.directory)
        file.write(b"".join(map(ENTRY.pack, entries)))
        table = b"".join(map(CHECK.pack, checks))
        file.seek(layout.checksums)
        file.write(table)
        summary = _summary(table, layout.chunks)
        file.seek(layout.summary)
        file.write(summary)
        file.flush()
        os.fsync(file.fileno())
        header = HEADER.pack(MAGIC, VERSION, n, turn, SPAN, indexes, stored,
                             zlib.crc32(summary))
        file.seek(0)  # the header last: a file cut short before it is no solved game
        file.write(header + HEADER_CHECK.pack(zlib.crc32(header)))
    return Header(n, turn, indexes, stored)


def _write_parts(file: BinaryIO, layout: Layout, chunks: Iterable[tuple[bytes, bytes]]
                 ) -> tuple[list[int], list[int], int, int]:
    """Write each chunk's bitmap bytes and codes in place.

    Args:
        file: the file being written, opened for writing.
        layout: where its parts go.
        chunks: (bitmap bytes, codes) pairs, as ``write_solved`` takes them.

    Returns:
        (directory entries, block checksums, bitmap bytes written, codes written).

    Raises:
        SolvedFileError: when a chunk's codes do not match its bits, or a chunk other
            than the last stops inside a block.
    """
    entries: list[int] = []
    checks: list[int] = []
    done = stored = 0
    for bits, values in chunks:
        if done % BLOCK_BYTES:
            raise SolvedFileError("a bitmap chunk that is not the last stops inside a block")
        written = stored
        for start in range(0, len(bits), BLOCK_BYTES):
            block = bits[start:start + BLOCK_BYTES].ljust(BLOCK_BYTES, b"\0")
            count = int.from_bytes(block, "little").bit_count()
            first = stored - written
            entries.append(stored)
            checks.append(_block_crc(stored, block, values[first:first + count]))
            stored += count
        if stored - written != len(values):
            raise SolvedFileError("a chunk's codes do not match its bitmap's set bits")
        file.seek(layout.bitmap + done)
        file.write(bits)
        file.seek(layout.codes + written)
        file.write(values)
        done += len(bits)
    return entries, checks, done, stored
