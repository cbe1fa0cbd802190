"""Exact Oska tablebase: the perfect-play value of every position reachable from a root.

An optional extra (``pip install '.[solve]'``): this module needs numpy and numba, and
nothing in the game, the spec functions or the browser imports it.

**What it computes.** The same as ``solver.solve`` (the same scoring: the winner wins as
fast as possible, the loser loses as slowly as possible, draws last as long as
possible, a pass is a ply), for every position reachable from a root, by one iterative
depth-first search compiled with numba. ``solver.py`` keeps a Python dict of positions
and manages n = 4 (782,918 positions) in seconds; this manages n = 5 in minutes.

**Layout.** One value per possible position, in one flat array. The positions with w
white and b black pieces form a class; inside it a position's place is

    (rank(white set) * C(cells - w, b) + rank(black set among the other cells)) * 2 + turn

with colex ranks of the sets, so black moves (which leave the white rank alone) stay in
a small block of memory. The array is an anonymous memory map: the system hands out
zero pages only when they are first written, so classes and blocks that the search
never reaches cost no memory. n = 5 has 5.0e9 places (5.0 GB of uint8, nearly all
written by the end); n = 6 would need 8e12 and is refused, as is any table bigger than the
memory this process may use (its address-space limit, ``ulimit -v``) or the machine has
available: the refusal says how much it would need, before anything is allocated.

**Codes.** A cell holds 0 (unknown) or a code ordered like the solver's score (a higher
code is better for the side to move), for plies 0 to K - 1:

    loss in p plies: 1 + p        draw in p: 1 + K + p        win in p: 3K - p

uint8 cells give K = 85. A value needing more plies is reported, never stored wrong:
``solve_table`` then solves again with uint16 cells (K = 21,845).
"""

from __future__ import annotations

import contextlib
import errno
import mmap
import os
import resource
import time
from collections.abc import Callable, Iterable
from functools import cache
from math import comb
from typing import Any, NamedTuple, cast

import numpy as np
from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba import njit, typeof, types
from numba.core import cgutils
from numba.core.dispatcher import Dispatcher
from numba.core.extending import intrinsic

from oska_gui.core.types import Position
from oska_gui.engine.solver import Solution
from oska_gui.games.oska import OskaRules, oska_rules

DEFAULT_MAX_BYTES = 16 * 2**30  # refuse tables that would not fit the machine's memory
SPANS = {np.dtype(np.uint8): 85, np.dtype(np.uint16): 21_845}  # K: plies 0..K-1 fit

OK, PLIES_OVERFLOW, STACK_OVERFLOW = 0, 1, 2
# Positions solved between two returns to Python, the only places where Python signal
# handlers run (compiled loops never look at them): about 0.1 s of n = 5, so Ctrl+C
# stops a solve at once (it was 50,000,000 positions, 8-20 s).
SLICE = 200_000
BYTE_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")
# LLVM names its prefetch after the pointer type: typed pointers up to LLVM 14.
PREFETCH_NAME = "llvm.prefetch.p0" if llvm_version_info[0] >= 15 else "llvm.prefetch.p0i8"
# An intrinsic's code generator: (context, builder, signature, args) -> LLVM value.
Codegen = Callable[[Any, Any, Any, Any], Any]


class TableTooBig(Exception):
    """Raised when the table for a board size would need more memory than allowed or left."""


class PliesOverflow(Exception):
    """Raised when a value needs more plies than the cells of the table can hold."""


class Tables(NamedTuple):
    """The precomputed tables of one board size, as int64 arrays the kernels read.

    ``steps[side, cell, k]``, ``over[side, cell, k]`` and ``land[side, cell, k]`` are
    cells (-1 for none) of the k-th step and jump of a piece of ``side`` on ``cell``;
    ``not_goal[side]`` is the bitboard of the cells outside that side's goal row;
    ``binom[m, k]`` is C(m, k); ``base[w, b]`` is the first place of the class with w
    white and b black pieces and ``span[w, b]`` the number of black sets in it.
    ``info`` holds [cells, full-board bitboard, most children, frames (deepest game + 2)].
    """

    steps: np.ndarray
    over: np.ndarray
    land: np.ndarray
    not_goal: np.ndarray
    binom: np.ndarray
    base: np.ndarray
    span: np.ndarray
    info: np.ndarray


# -- tables ----------------------------------------------------------------------------


def _cell(bit: int) -> int:
    """Return the cell of a one-bit bitboard."""
    return bit.bit_length() - 1


def _move_tables(rules: OskaRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the (steps, over, land) cell tables of ``rules`` (see ``Tables``)."""
    shape = (2, rules.size, 2)
    steps, over, land = (np.full(shape, -1, np.int64) for _ in range(3))
    for side in (0, 1):
        for cell in range(rules.size):
            for k, to in enumerate(rules.steps[side][cell]):
                steps[side, cell, k] = _cell(to)
            for k, (jumped, to) in enumerate(rules.jumps[side][cell]):
                over[side, cell, k], land[side, cell, k] = _cell(jumped), _cell(to)
    return steps, over, land


def class_places(n: int) -> list[list[int]]:
    """Return the number of places of each class: [w][b] -> C(N, w) * C(N - w, b) * 2.

    Python ints: from n = 8 on they no longer fit int64, and ``table_bytes`` must still
    say how big such a table would be.
    """
    cells = oska_rules(n).size
    return [[comb(cells, w) * comb(cells - w, b) * 2 for b in range(n + 1)]
            for w in range(n + 1)]


def class_sizes(n: int) -> np.ndarray:
    """Return ``class_places(n)`` as an int64 array (for sizes whose table can exist)."""
    return np.array(class_places(n), dtype=np.int64)


def table_bytes(n: int, dtype: type = np.uint8) -> int:
    """Return the bytes a whole table for board size ``n`` takes with ``dtype`` cells."""
    return sum(map(sum, class_places(n))) * np.dtype(dtype).itemsize


def size_text(count: int) -> str:
    """Return a byte ``count`` for people, in the largest binary unit below it: '4.7 GiB'.

    Counts past the largest unit (n = 11 and up) are written as powers of ten.
    """
    power = max(0, (count.bit_length() - 1) // 10)
    if power == 0:
        return f"{count} bytes"
    if power >= len(BYTE_UNITS):
        return f"{count:.1e} bytes"
    return f"{count / 2 ** (10 * power):,.1f} {BYTE_UNITS[power]}"


def _meminfo_bytes(*fields: str) -> int | None:
    """Return the sum of the given /proc/meminfo fields in bytes, or None where unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as lines:
            values = dict(line.split(":", 1) for line in lines)
        return sum(int(values[field].split()[0]) * 1024 for field in fields)
    except (OSError, ValueError, KeyError, IndexError):  # not Linux, or another format
        return None


def _address_space_used() -> int:
    """Return the address space this process maps now, in bytes (0 where unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def memory_room() -> list[tuple[int, str]]:
    """Return the memory a new table can still take, as (bytes, what sets it) pairs.

    Only the limits known here: what this process's address-space limit (``ulimit -v``)
    leaves beside what it maps already, and the machine's available memory and swap.
    """
    room = []
    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit != resource.RLIM_INFINITY:
        room.append((limit - _address_space_used(),
                     "left under this process's address-space limit (ulimit -v)"))
    available = _meminfo_bytes("MemAvailable", "SwapFree")
    if available is not None:
        room.append((available, "available on this machine"))
    return room


def check_room(n: int, need: int, max_bytes: int) -> None:
    """Raise TableTooBig, saying how much it needs, when a table of ``need`` bytes for
    board size ``n`` is over ``max_bytes`` or over the memory this process can get."""
    if need > max_bytes:
        raise TableTooBig(f"the n = {n} table needs {size_text(need)}, "
                          f"more than the {size_text(max_bytes)} allowed")
    for room, where in memory_room():
        if need > room:
            raise TableTooBig(f"the n = {n} table needs {size_text(need)} of memory, but "
                              f"only {size_text(max(0, room))} is {where}")


def deepest_game(n: int) -> int:
    """Return a bound on the plies of any game of size ``n``, passes included.

    Each real move takes a piece at least one row forward, and each of the 2n pieces can
    travel 2n - 4 rows; two passes never follow each other.
    """
    moves = 2 * n * (2 * n - 4)
    return 2 * moves + 1


def build_tables(n: int) -> Tables:
    """Return the kernels' tables for board size ``n`` (see ``Tables``)."""
    rules = oska_rules(n)
    cells = rules.size
    steps, over, land = _move_tables(rules)
    binom = np.array([[comb(m, k) for k in range(n + 2)] for m in range(cells + 1)],
                     dtype=np.int64)
    sizes = class_sizes(n)
    base = (np.cumsum(sizes.ravel()) - sizes.ravel()).reshape(sizes.shape)
    span = np.array([[comb(cells - w, b) for b in range(n + 1)] for w in range(n + 1)],
                    dtype=np.int64)
    not_goal = np.array(rules.not_goal, dtype=np.int64)
    info = np.array([cells, rules.full, 2 * n, deepest_game(n) + 2], dtype=np.int64)
    return Tables(steps, over, land, not_goal, binom, base, span, info)


def out_of_memory(error: BaseException) -> bool:
    """Return True when ``error`` says the memory ran out (MemoryError, or ENOMEM)."""
    return isinstance(error, MemoryError) or (isinstance(error, OSError)
                                              and error.errno == errno.ENOMEM)


def zeroed_cells(count: int, dtype: type) -> np.ndarray:
    """Return a zeroed array of ``count`` cells whose memory is only taken when written.

    An anonymous memory map: untouched pages stay shared zero pages. Where the system
    allows it, it is backed by huge pages (fewer TLB misses on random access).
    """
    nbytes = max(1, count * np.dtype(dtype).itemsize)
    try:
        area = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (MemoryError, OSError) as error:
        if not out_of_memory(error):
            raise
        raise TableTooBig(f"the system refused the {size_text(nbytes)} the table "
                          "needs (out of memory)") from None
    if hasattr(mmap, "MADV_HUGEPAGE"):
        with contextlib.suppress(OSError):  # no transparent huge pages: plain pages do
            area.madvise(mmap.MADV_HUGEPAGE)
    return np.frombuffer(area, dtype=dtype, count=count)


# -- kernels ----------------------------------------------------------------------------
#
# The kernels are compiled once per board size and cell width by ``kernels(n, span)``.
# Each factory below closes over numpy tables, which numba freezes into the machine
# code as constants: no table is passed from call to call (numba would count
# references to every array argument at every call) and the compiler sees the sizes.
# The price: closures are not cached on disk, so each process compiles them once
# (a few seconds).


@intrinsic
def _popcount_ir(typingctx: Any, mask: Any) -> tuple[Any, Codegen]:
    """Return the number of set bits of an int64 ``mask`` (the CPU's popcount)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        """Emit LLVM's ctpop."""
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _lowest_cell_ir(typingctx: Any, mask: Any) -> tuple[Any, Codegen]:
    """Return the index of the lowest set bit of a nonzero int64 ``mask`` (count trailing zeros)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        """Emit LLVM's cttz."""
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


@intrinsic
def _prefetch_ir(typingctx: Any, array: Any, index: Any) -> tuple[Any, Codegen]:
    """Ask the CPU to bring ``array[index]`` into the caches, without waiting for it."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        """Emit LLVM's prefetch (read, keep in all cache levels, data)."""
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]])
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, int32, int32, int32]),
            PREFETCH_NAME)
        builder.call(prefetch, [builder.bitcast(pointer, byte_pointer), int32(0), int32(3),
                                int32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


# How compiled code calls the intrinsics (numba passes the typing context itself).
_popcount = cast(Callable[[int], int], _popcount_ir)
_lowest_cell = cast(Callable[[int], int], _lowest_cell_ir)
_prefetch = cast(Callable[[np.ndarray, int], None], _prefetch_ir)


@njit
def _colex_rank(members: int, skip: int, binom: np.ndarray) -> int:
    """Return the colex rank of the set of cells ``members`` (a bitboard), each cell
    numbered among the cells not in ``skip`` (a bitboard disjoint from ``members``)."""
    rank = k = 0
    while members:
        cell = _lowest_cell(members)
        members &= members - 1
        k += 1
        rank += binom[cell - _popcount(skip & ((1 << cell) - 1)), k]
    return rank


class CodeKernels(NamedTuple):
    """Compiled code arithmetic for one span K (see the module doc)."""

    win: Callable[[int], int]
    draw: Callable[[int], int]
    loss: Callable[[int], int]
    parent_code: Callable[[int], int]


def code_kernels(span: int) -> CodeKernels:
    """Return the code arithmetic for span ``span``, compiled."""

    @njit
    def win(plies: int) -> int:
        """Return the code of a win in ``plies`` for the side to move."""
        return 3 * span - plies

    @njit
    def draw(plies: int) -> int:
        """Return the code of a draw in ``plies``."""
        return 1 + span + plies

    @njit
    def loss(plies: int) -> int:
        """Return the code of a loss in ``plies`` for the side to move."""
        return 1 + plies

    @njit
    def parent_code(code: int) -> int:
        """Return the code, for the mover, of a move to a child whose code is ``code``.

        The child's loss in p is the mover's win in p + 1, its win the mover's loss in
        p + 1, its draw a draw in p + 1. Returns 0 when p + 1 plies do not fit the span.
        """
        if code <= span:  # the opponent loses in code - 1 plies
            return win(code) if code < span else 0
        if code <= 2 * span:
            return code + 1 if code < 2 * span else 0
        plies = 3 * span - code + 1  # the opponent wins: we lose one ply later
        return loss(plies) if plies < span else 0

    return CodeKernels(win, draw, loss, parent_code)


class PlaceKernels(NamedTuple):
    """Compiled conversions between positions and table places."""

    place: Callable[[int, int, int], int]
    position_at: Callable[[int], tuple[int, int, int]]


def place_kernels(t: Tables) -> PlaceKernels:
    """Return the conversions between positions and places of the tables ``t``, compiled."""
    binom, base, span_of, cells = t.binom, t.base, t.span, int(t.info[0])
    classes = base.shape[0]

    @njit
    def place(white: int, black: int, turn: int) -> int:
        """Return the place in the table of the position (white, black, turn)."""
        white_rank = _colex_rank(white, 0, binom)
        black_rank = _colex_rank(black, white, binom)  # black numbers only non-white cells
        w, b = _popcount(white), _popcount(black)
        return base[w, b] + ((white_rank * span_of[w, b] + black_rank) << 1) + turn

    @njit
    def unrank(rank: int, k: int, top: int) -> np.ndarray:
        """Return the k members, highest first, of the colex-``rank``-th k-set below ``top``."""
        out = np.empty(k, np.int64)
        member = top
        for i in range(k, 0, -1):
            member -= 1
            while binom[member, i] > rank:
                member -= 1
            out[k - i] = member
            rank -= binom[member, i]
        return out

    @njit
    def position_at(where: int) -> tuple[int, int, int]:
        """Return the position (white, black, turn) stored at place ``where``."""
        w = b = 0
        for klass in range(classes * classes):  # the last class starting at or before it
            if base[klass // classes, klass % classes] <= where:
                w, b = klass // classes, klass % classes
        rest = where - base[w, b]
        white_rank, black_rank = divmod(rest >> 1, span_of[w, b])
        white = 0
        for cell in unrank(white_rank, w, cells):
            white |= 1 << cell
        others = np.empty(cells - w, np.int64)  # the non-white cells, in order
        j = 0
        for cell in range(cells):
            if not (white >> cell) & 1:
                others[j] = cell
                j += 1
        black = 0
        for q in unrank(black_rank, b, cells - w):
            black |= 1 << others[q]
        return white, black, rest & 1

    return PlaceKernels(place, position_at)


class MoveKernels(NamedTuple):
    """Compiled rules: the end of game and the children of a position."""

    terminal_code: Callable[[int, int, int], int]
    expand: Callable[[int, int, int, np.ndarray, np.ndarray], int]


def move_kernels(t: Tables, codes: CodeKernels) -> MoveKernels:
    """Return the rules of the tables ``t``, compiled, with codes from ``codes``."""
    steps, overs, lands, not_goal, full = t.steps, t.over, t.land, t.not_goal, int(t.info[1])
    win, draw, loss = codes.win, codes.draw, codes.loss

    @njit
    def terminal_code(white: int, black: int, turn: int) -> int:
        """Return the code of a finished game (as ``OskaRules.terminal`` rules), else 0."""
        if white == 0 or black == 0:
            if white == black:  # the empty board: a draw
                return draw(0)
            return win(0) if (turn == 0) == (white != 0) else loss(0)
        white_home = (white & not_goal[0]) == 0
        black_home = (black & not_goal[1]) == 0
        if white_home and black_home:
            diff = _popcount(white) - _popcount(black)
            if diff == 0:
                return draw(0)
            return win(0) if (diff > 0) == (turn == 0) else loss(0)
        if white_home:
            return win(0) if turn == 0 else loss(0)
        if black_home:
            return win(0) if turn == 1 else loss(0)
        return 0

    @njit
    def moves(own: int, opp: int, turn: int, out_own: np.ndarray, out_opp: np.ndarray) -> int:
        """Write the boards (mover's, opponent's pieces) after each real move; return how many.

        ``own`` are the pieces of the side ``turn`` to move, ``opp`` its opponent's. The
        order is the cells' order, a jump before a step; it does not matter for values.
        """
        empty = full ^ (own | opp)
        count = 0
        pieces = own
        while pieces:
            cell = _lowest_cell(pieces)
            pieces &= pieces - 1
            rest = own ^ (1 << cell)
            for k in range(2):
                over = overs[turn, cell, k]
                if over >= 0 and (opp >> over) & 1:
                    land = lands[turn, cell, k]
                    if (empty >> land) & 1:
                        out_own[count] = rest | (1 << land)
                        out_opp[count] = opp ^ (1 << over)
                        count += 1
                step = steps[turn, cell, k]
                if step >= 0 and (empty >> step) & 1:
                    out_own[count] = rest | (1 << step)
                    out_opp[count] = opp
                    count += 1
        return count

    @njit
    def expand(white: int, black: int, turn: int, out_white: np.ndarray,
               out_black: np.ndarray) -> int:
        """Write the boards of the children (the other side to move); return how many.

        A side with no real move passes: one child, the same board. When neither side
        can move it returns 0, the deadlock draw.
        """
        if turn == 0:
            count = moves(white, black, 0, out_white, out_black)
        else:  # the output arrays swap places, so that Black's pieces land in out_black
            count = moves(black, white, 1, out_black, out_white)
        if count:
            return count
        # No move: the arrays are free to test the opponent's moves (junk boards).
        if turn == 0:
            count = moves(black, white, 1, out_black, out_white)
        else:
            count = moves(white, black, 0, out_white, out_black)
        if count == 0:
            return 0
        out_white[0] = white
        out_black[0] = black
        return 1

    return MoveKernels(terminal_code, expand)


class Frames(NamedTuple):
    """The explicit stack of the depth-first search, kept between slices of work.

    Frame d is a position whose children are being looked at one by one: its table
    ``place``, the side to move in its children (``kid_turn``), their boards and places
    (``kids_white``, ``kids_black``, ``kids_place``, rows of ``most children``), how
    many are still to look at (``todo``) and the ``best`` code for the mover so far.
    ``state`` is [frames in use, status (OK, PLIES_OVERFLOW or STACK_OVERFLOW)].
    """

    place: np.ndarray
    kid_turn: np.ndarray
    kids_white: np.ndarray
    kids_black: np.ndarray
    kids_place: np.ndarray
    todo: np.ndarray
    best: np.ndarray
    state: np.ndarray


def new_frames(t: Tables) -> Frames:
    """Return an empty stack deep enough for the longest game of the tables' size."""
    depth, most = int(t.info[3]), int(t.info[2])
    column, rows = (depth,), (depth, most)
    return Frames(place=np.zeros(column, np.int64), kid_turn=np.zeros(column, np.int64),
                  kids_white=np.zeros(rows, np.int64), kids_black=np.zeros(rows, np.int64),
                  kids_place=np.zeros(rows, np.int64), todo=np.zeros(column, np.int64),
                  best=np.zeros(column, np.int64), state=np.zeros(2, np.int64))


class SearchKernels(NamedTuple):
    """The compiled depth-first search: ``start`` a root, then ``advance`` in slices."""

    start: Callable[[int, int, int, np.ndarray, Frames], int]
    advance: Callable[[np.ndarray, Frames, int], int]


def search_kernels(places: PlaceKernels, rules: MoveKernels,
                   codes: CodeKernels) -> SearchKernels:
    """Return the depth-first search over the given compiled places, rules and codes."""
    place, terminal_code, expand = places.place, rules.terminal_code, rules.expand
    draw, parent_code = codes.draw, codes.parent_code

    @njit
    def open_frame(white: int, black: int, turn: int, where: int, table: np.ndarray,
                   f: Frames, depth: int) -> int:
        """Return the code of a position not yet in the table, or 0 after opening its frame.

        A finished game or a deadlock has its code at once. Otherwise the position
        becomes frame ``depth``, with its children listed and their places asked from
        memory ahead of time: the table is far bigger than the caches, and the children
        are looked up one by one only later.
        """
        code = terminal_code(white, black, turn)
        if code:
            return code
        count = expand(white, black, turn, f.kids_white[depth], f.kids_black[depth])
        if count == 0:
            return draw(0)
        for j in range(count):
            kid = place(f.kids_white[depth, j], f.kids_black[depth, j], 1 - turn)
            f.kids_place[depth, j] = kid
            _prefetch(table, kid)
        f.place[depth], f.kid_turn[depth] = where, 1 - turn
        f.todo[depth], f.best[depth] = count, 0
        return 0

    @njit
    def start(white: int, black: int, turn: int, table: np.ndarray, f: Frames) -> int:
        """Begin a search from (white, black, turn) on an empty stack; return positions added."""
        f.state[0], f.state[1] = 0, OK
        root = place(white, black, turn)
        if table[root]:
            return 0
        code = open_frame(white, black, turn, root, table, f, 0)
        if code:
            table[root] = code
            return 1
        f.state[0] = 1
        return 0

    @njit
    def advance(table: np.ndarray, f: Frames, budget: int) -> int:
        """Go on with the search until it ends or ``budget`` positions were added.

        The top frame looks at its next child: one already known, finished or
        deadlocked gives its code at once, any other becomes a new frame. A frame that
        has seen all its children is solved: its best code goes into the table and up
        to its parent. The game graph has no cycles, so no position is ever on the
        stack twice.

        Returns:
            The positions added; ``f.state`` then says how many frames are left (none:
            the search is over) and the status.
        """
        todo, best, kids_place, kid_turn = f.todo, f.best, f.kids_place, f.kid_turn
        depth_cap = f.place.shape[0]
        depth, added = f.state[0], 0
        while depth and added < budget:
            d = depth - 1
            if todo[d] == 0:  # all children seen: the frame is solved
                code = best[d]
                table[f.place[d]] = code
                added += 1
                depth = d
            else:
                todo[d] -= 1
                j = todo[d]
                kid = kids_place[d, j]
                code = np.int64(table[kid])
                if code == 0:
                    if depth == depth_cap:
                        f.state[0], f.state[1] = depth, STACK_OVERFLOW
                        return added
                    code = open_frame(f.kids_white[d, j], f.kids_black[d, j], kid_turn[d],
                                      kid, table, f, depth)
                    if code == 0:  # a new frame: its code comes up when it is solved
                        depth += 1
                        continue
                    table[kid] = code
                    added += 1
            if depth:  # hand the code just found up to the frame it is a child of
                up = parent_code(code)
                if up == 0:
                    f.state[0], f.state[1] = depth, PLIES_OVERFLOW
                    return added
                best[depth - 1] = max(best[depth - 1], up)
        f.state[0] = depth
        return added

    return SearchKernels(start, advance)


class Kernels(NamedTuple):
    """Everything compiled for one board size and span (see ``kernels``)."""

    search: SearchKernels
    places: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]
    positions_at: Callable[[np.ndarray], np.ndarray]


@cache
def kernels(n: int, span: int) -> Kernels:
    """Return the kernels of board size ``n`` with codes of span ``span``.

    Built once per process (numba compiles each on its first call).
    """
    t = build_tables(n)
    codes = code_kernels(span)
    places = place_kernels(t)
    place, position_at = places.place, places.position_at

    @njit
    def many_places(white: np.ndarray, black: np.ndarray, turn: np.ndarray) -> np.ndarray:
        """Return the table places of many positions at once."""
        out = np.empty(white.shape[0], np.int64)
        for i in range(white.shape[0]):
            out[i] = place(white[i], black[i], turn[i])
        return out

    @njit
    def many_positions(where: np.ndarray) -> np.ndarray:
        """Return the positions at many places, as rows (white, black, turn)."""
        out = np.empty((where.shape[0], 3), np.int64)
        for i in range(where.shape[0]):
            out[i, 0], out[i, 1], out[i, 2] = position_at(where[i])
        return out

    search = search_kernels(places, move_kernels(t, codes), codes)
    return Kernels(search, many_places, many_positions)


# -- the Python side -----------------------------------------------------------------------


def decode(codes: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (results, plies) arrays of an array of nonzero codes with span ``span``."""
    codes = codes.astype(np.int64)
    results = np.where(codes <= span, -1, np.where(codes <= 2 * span, 0, 1)).astype(np.int8)
    plies = np.where(results < 0, codes - 1,
                     np.where(results == 0, codes - 1 - span, 3 * span - codes))
    return results, plies.astype(np.int16)


def peak_memory_bytes() -> int:
    """Return the peak resident memory of this process so far, in bytes (Linux: KiB * 1024)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Tablebase:
    """The exact values of the positions reachable from a root, for one board size.

    Attributes:
        rules: the rules of the board size.
        root: the position the table was solved from.
        positions: how many positions the table holds (those reachable from the root,
            plus any solved later because ``solution`` was asked about them).
        seconds: the time the root's solve took.
        compile_seconds: the time compiling the search took before it (0 if it was
            compiled already in this process).
    """

    def __init__(self, rules: OskaRules, root: Position, dtype: type = np.uint8,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        """Prepare an empty table; raises TableTooBig past ``max_bytes`` or the memory
        this process can get, before allocating anything. See ``solve``."""
        need = table_bytes(rules.n, dtype)
        check_room(rules.n, need, max_bytes)
        self.rules, self.root = rules, root
        self.tables = build_tables(rules.n)
        self.span = SPANS[np.dtype(dtype)]
        self.kernels = kernels(rules.n, self.span)
        self.codes = zeroed_cells(need // np.dtype(dtype).itemsize, dtype)
        self.positions = 0
        self.seconds = self.compile_seconds = 0.0

    def compile(self) -> float:
        """Compile the search for this table's cells now, not at its first use; return seconds.

        Numba compiles on a function's first call; this keeps that time out of a
        measured solve. Each process compiles once per board size and cell width.
        """
        start = time.perf_counter()
        frames, search = new_frames(self.tables), self.kernels.search
        table_type, frames_type = typeof(self.codes), typeof(frames)
        # the kernels are numba dispatchers, which can compile for given argument types
        cast(Dispatcher, search.start).compile(
            (types.int64, types.int64, types.int64, table_type, frames_type))
        cast(Dispatcher, search.advance).compile((table_type, frames_type, types.int64))
        return time.perf_counter() - start

    def solve(self, pos: Position, progress: Callable[[int], None] | None = None) -> int:
        """Add every position reachable from ``pos`` to the table; return how many were new.

        Args:
            pos: the root.
            progress: called with the positions in the table now and then (every
                SLICE new ones), e.g. to print progress.

        Raises:
            PliesOverflow: when a value needs more plies than the cells hold.
        """
        frames = new_frames(self.tables)
        search = self.kernels.search
        added = search.start(pos[0], pos[1], pos[2], self.codes, frames)
        while frames.state[0] and frames.state[1] == OK:
            added += search.advance(self.codes, frames, SLICE)
            if progress is not None:
                progress(self.positions + added)
        self.positions += added
        if frames.state[1] == PLIES_OVERFLOW:
            raise PliesOverflow(f"a value needs {self.span} plies or more: use wider cells")
        if frames.state[1] == STACK_OVERFLOW:  # cannot happen if deepest_game is a bound
            raise RuntimeError("a game longer than deepest_game(n): the bound is wrong")
        return added

    def solution(self, pos: Position) -> Solution:
        """Return the perfect-play Solution of ``pos`` for its side to move.

        Positions outside the table (e.g. after a finished game) are solved on demand.
        """
        place = self.places([pos])[0]
        if not self.codes[place]:
            self.solve(pos)
        results, plies = decode(self.codes[place:place + 1], self.span)
        return Solution(int(results[0]), int(plies[0]))

    def solutions(self, white: np.ndarray, black: np.ndarray,
                  turn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (results, plies) arrays of many positions given as three int arrays.

        Every position must be in the table already (raises KeyError otherwise).
        """
        places = self.kernels.places(*(np.asarray(a, dtype=np.int64)
                                       for a in (white, black, turn)))
        codes = self.codes[places]
        if not codes.all():
            raise KeyError("a position is not in the table")
        return decode(codes, self.span)

    @property
    def start_solution(self) -> Solution:
        """Return the Solution of the start position of the board size."""
        return self.solution(self.rules.start())

    def children_solutions(self, pos: Position) -> list[tuple[Position, Solution]]:
        """Return each child of ``pos`` (in ``rules.children`` order) with its own Solution.

        A child's Solution is for the side to move in it, the opponent of the mover.
        """
        return [(kid, self.solution(kid)) for kid in self.rules.children(pos)]

    def places(self, positions: Iterable[Position]) -> np.ndarray:
        """Return the table places of the given positions."""
        return self.kernels.places(*as_arrays(positions))

    def stored(self) -> np.ndarray:
        """Return the places of every position in the table, in table order."""
        return np.flatnonzero(self.codes)

    def positions_at(self, places: np.ndarray) -> list[Position]:
        """Return the positions stored at the given places."""
        rows = self.kernels.positions_at(np.asarray(places, dtype=np.int64))
        return [Position(int(w), int(b), int(t)) for w, b, t in rows]


def solve_table(n: int, root: Position | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES,
                progress: Callable[[int], None] | None = None) -> Tablebase:
    """Solve every position reachable from ``root`` (default: the start) of size ``n``.

    Tries one-byte cells first and, if some value needs 85 plies or more, solves again
    with two-byte cells; every value is exact either way.

    Args:
        n: the board size (4 and 5 fit this machine; 6 does not).
        root: the position to solve from.
        max_bytes: the most memory the table may take (raises TableTooBig past it).
        progress: called with the positions solved so far, every SLICE of them.

    Raises:
        TableTooBig: when the table would need more memory than ``max_bytes`` or than
            this process can get (the message says how much it needs).

    Returns:
        The solved Tablebase (``positions``, ``seconds`` and ``compile_seconds`` say how
        big and how long).
    """
    rules = oska_rules(n)
    root = rules.start() if root is None else Position(*root)
    for dtype in (np.uint8, np.uint16):
        table = Tablebase(rules, root, dtype, max_bytes)
        compiling = table.compile()
        start = time.perf_counter()
        try:
            table.solve(root, progress)
        except PliesOverflow:
            del table
            continue
        table.seconds, table.compile_seconds = time.perf_counter() - start, compiling
        return table
    raise PliesOverflow("a value needs more plies than two-byte cells hold")


def as_arrays(positions: Iterable[Position]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (white, black, turn) int64 arrays of a sequence of positions."""
    rows = np.array([tuple(pos) for pos in positions], dtype=np.int64).reshape(-1, 3)
    return rows[:, 0].copy(), rows[:, 1].copy(), rows[:, 2].copy()
