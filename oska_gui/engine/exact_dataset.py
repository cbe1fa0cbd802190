"""Datasets of exactly solved Oska positions, sampled from a ``Tablebase``.

Needs numpy and numba, like ``tablebase`` (``pip install '.[solve]'``).

A dataset is a compressed ``.npz`` file. Each sample is a position with its exact
Solution and the exact Solution of each of its children, in ``rules.children`` order,
so a benchmark can tell whether a move keeps the value (or is perfect, plies and all).

**Sampling.** Positions are met the way a search meets them: along games from the
table's root where each move is uniformly random with probability ``rate`` and a
perfect move otherwise (ties broken at random), for several rates taken in turn,
game after game. Kept: the first time a position appears, if the game is not over in
it and the side to move has a real move (a pass teaches nothing). ``sample_uniform``
draws positions uniformly from all solved ones instead.

**Fields** (arrays of the samples, then of all their children one after another):
``white``, ``black`` (bitboards), ``turn``, ``result``, ``plies``, ``rate`` (the rate
of the game that met it, NaN for uniform samples), ``ply`` (its ply in that game, -1
for uniform samples), ``child_start`` (sample i's children are
``child_start[i]:child_start[i + 1]``), ``child_white``, ``child_black``,
``child_turn``, ``child_result``, ``child_plies``; and ``n``, ``seed``, ``rates``.
A child's Solution is for its own side to move, the opponent of the mover.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from oska_gui.core.files import replacing
from oska_gui.core.types import Position
from oska_gui.engine.solver import Solution, parent_score, score_of, solution_of
from oska_gui.engine.tablebase import Tablebase, as_arrays
from oska_gui.games.oska import OskaRules, oska_rules

DEFAULT_RATES = (0.0, 0.1, 0.25, 0.5, 1.0)
STALE_GAMES = 1_000  # give up after this many games in a row that meet nothing new
UNIFORM_DRAWS = 1 << 16  # places looked at per batch of uniform sampling
STALE_DRAWS = 100  # give up after this many batches in a row that find nothing new
HELD_OUT_SHARE = 10  # one position in this many is held out of training
_SWAP = str.maketrans("wb", "bw")
SMALL_TABLE = 1 << 27  # tables up to this many places are shuffled whole (n = 4: 4.5e6)


def mover_solution(child: Solution) -> Solution:
    """Return the Solution, for the mover, of a move to a child whose Solution is ``child``."""
    return solution_of(parent_score(score_of(*child)))


def is_held_out(rules: OskaRules, pos: Position) -> bool:
    """Return True for the positions that no training may see, only benchmarks.

    A fixed tenth of all positions, picked by a hash (the same on every machine and
    run), so that figures on held-out positions measure play on positions the shipped
    weights never met. Mirror images and colour swaps of a position are the same
    position to the evaluator, so they are held out with it.
    """
    return _digest(rules, pos) % HELD_OUT_SHARE == 0


def held_out_half(rules: OskaRules, pos: Position) -> int | None:
    """Return which half of the held-out positions ``pos`` is in, 0 or 1 (None: not
    held out), by the same hash: a fit that must not see the positions it is checked
    on (the review's calibration) fits on one half and is checked on the other."""
    digest = _digest(rules, pos)
    return digest // HELD_OUT_SHARE % 2 if digest % HELD_OUT_SHARE == 0 else None


def _digest(rules: OskaRules, pos: Position) -> int:
    """Return the hash ``is_held_out`` picks by: the same on every machine and run, and
    for a position's mirror images and colour swaps."""
    rows = rules.to_rows(pos)
    swapped = [row.translate(_SWAP) for row in reversed(rows)]
    images = [(rows, pos.turn), (swapped, 1 - pos.turn)]
    images += [([row[::-1] for row in image], turn) for image, turn in images]
    key = min(f"{''.join(image)}{turn}" for image, turn in images)
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def is_playable(rules: OskaRules, pos: Position) -> bool:
    """Return True when the game is not over in ``pos`` and its side to move has a move."""
    return rules.terminal(pos) is None and rules.has_move(pos)


def perfect_children(tb: Tablebase, pos: Position) -> list[Position]:
    """Return the children of ``pos`` that keep its exact value (plies included)."""
    kids = tb.rules.children(pos)
    results, plies = tb.solutions(*as_arrays(kids))
    scores = [parent_score(score_of(int(r), int(p))) for r, p in zip(results, plies, strict=True)]
    best = max(scores)
    return [kid for kid, score in zip(kids, scores, strict=True) if score == best]


def sample_games(tb: Tablebase, count: int, seed: int,
                 rates: Sequence[float] = DEFAULT_RATES) -> tuple[list[Position], list[float],
                                                                  list[int]]:
    """Return up to ``count`` distinct playable positions met along seeded games.

    Game g plays each move at random with probability ``rates[g % len(rates)]`` and a
    perfect move otherwise. Fewer than ``count`` come back only when STALE_GAMES games
    in a row meet nothing new.

    Returns:
        (positions, the rate of the game that met each, its ply in that game).
    """
    rules, rng = tb.rules, random.Random(seed)
    seen: set[Position] = set()
    positions: list[Position] = []
    met_rates: list[float] = []
    met_plies: list[int] = []
    game = stale = 0
    while len(positions) < count and stale < STALE_GAMES:
        rate = rates[game % len(rates)]
        game += 1
        before = len(positions)
        pos, ply = tb.root, 0
        while len(positions) < count and rules.terminal(pos) is None:
            kids = rules.children(pos)
            if not kids:  # deadlock: the game is over
                break
            passes = kids[0][:2] == pos[:2]  # a pass is the only move that keeps the board
            if pos not in seen and not passes:
                seen.add(pos)
                positions.append(pos)
                met_rates.append(rate)
                met_plies.append(ply)
            pick = kids if rng.random() < rate else perfect_children(tb, pos)
            pos, ply = rng.choice(pick), ply + 1
        stale = stale + 1 if len(positions) == before else 0
    return positions, met_rates, met_plies


def filled_places(tb: Tablebase, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Yield batches of places of positions in the table, in a uniformly random order.

    A table of at most SMALL_TABLE places is listed and shuffled, so the batches end
    when every position was given once. A bigger one is sampled by drawing random
    places and keeping the filled ones: endless, and a position may come again.
    """
    if tb.codes.shape[0] <= SMALL_TABLE:
        places = rng.permutation(tb.stored())
        for start in range(0, len(places), UNIFORM_DRAWS):
            yield places[start:start + UNIFORM_DRAWS]
        return
    while True:
        places = rng.integers(0, tb.codes.shape[0], UNIFORM_DRAWS)
        yield places[tb.codes[places] != 0]


def sample_uniform(tb: Tablebase, count: int, seed: int, playable: bool = True) -> list[Position]:
    """Return ``count`` distinct positions drawn uniformly from those in the table.

    With ``playable``, only positions where the game goes on and the side to move has
    a move. Raises ValueError when there are not that many such positions (found out
    at once, after a full pass over a small table, or after STALE_DRAWS batches that
    bring nothing new from a big one).
    """
    if count > tb.positions:
        raise ValueError(f"the table holds {tb.positions:,} positions, fewer than {count:,}")
    seen: set[Position] = set()
    out: list[Position] = []
    stale = 0
    for places in filled_places(tb, np.random.default_rng(seed)):
        before = len(out)
        for pos in tb.positions_at(places):
            if pos not in seen and (not playable or is_playable(tb.rules, pos)):
                seen.add(pos)
                out.append(pos)
                if len(out) == count:
                    return out
        stale = stale + 1 if len(out) == before else 0
        if stale == STALE_DRAWS:
            break
    raise ValueError(f"found only {len(out):,} of the {count:,} positions asked for")


def dataset_arrays(tb: Tablebase, positions: Sequence[Position]) -> dict[str, np.ndarray]:
    """Return the solved arrays of a dataset of ``positions`` (see the module doc).

    All but ``rate``, ``ply`` and the header fields ``n``, ``seed``, ``rates``.
    """
    kids = [tb.rules.children(pos) for pos in positions]
    child_start = np.zeros(len(positions) + 1, np.int64)
    np.cumsum([len(k) for k in kids], out=child_start[1:])
    white, black, turn = as_arrays(positions)
    result, plies = tb.solutions(white, black, turn)
    child_white, child_black, child_turn = as_arrays(k for group in kids for k in group)
    child_result, child_plies = tb.solutions(child_white, child_black, child_turn)
    return {"white": white, "black": black, "turn": turn.astype(np.uint8),
            "result": result, "plies": plies, "child_start": child_start,
            "child_white": child_white, "child_black": child_black,
            "child_turn": child_turn.astype(np.uint8), "child_result": child_result,
            "child_plies": child_plies}


def write_dataset(tb: Tablebase, path: str | Path, count: int, seed: int = 0, *,
                  rates: Sequence[float] = DEFAULT_RATES, uniform: bool = False) -> int:
    """Sample positions from ``tb`` and write them, solved, as a compressed .npz file.

    Args:
        tb: the solved table.
        path: the file to write ('.npz' is added if missing), whole or not at all
            (``core.files.replacing``); its folder is made if missing.
        count: how many positions to sample.
        seed: the seed: the same seed gives the same dataset.
        rates: the random-move rates of the games (see ``sample_games``).
        uniform: sample uniformly from every solved position instead of along games.

    Returns:
        How many positions were written (fewer than ``count`` only if the games ran
        out of new positions).
    """
    if uniform:
        positions = sample_uniform(tb, count, seed)
        met_rates, met_plies = [float("nan")] * len(positions), [-1] * len(positions)
    else:
        positions, met_rates, met_plies = sample_games(tb, count, seed, rates)
    arrays: dict[str, Any] = dict(  # Any: numpy's stubs type each keyword as a bool flag
        dataset_arrays(tb, positions), n=np.int64(tb.rules.n), seed=np.int64(seed),
        rates=np.array(rates, np.float64), rate=np.array(met_rates, np.float64),
        ply=np.array(met_plies, np.int16))
    target = dataset_path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with replacing(target) as file:
        np.savez_compressed(file, **arrays)
    return len(positions)


def dataset_path(path: str | Path) -> Path:
    """Return the file a dataset given as ``path`` is written to: '.npz' added if missing,
    as numpy does."""
    text = str(path)
    return Path(text if text.endswith(".npz") else text + ".npz")


@dataclass(frozen=True)
class ExactDataset:
    """A dataset loaded by ``load_dataset``: the arrays of the module doc, and helpers."""

    n: int
    seed: int
    rates: np.ndarray
    white: np.ndarray
    black: np.ndarray
    turn: np.ndarray
    result: np.ndarray
    plies: np.ndarray
    rate: np.ndarray
    ply: np.ndarray
    child_start: np.ndarray
    child_white: np.ndarray
    child_black: np.ndarray
    child_turn: np.ndarray
    child_result: np.ndarray
    child_plies: np.ndarray

    def __len__(self) -> int:
        """Return the number of samples."""
        return len(self.white)

    @property
    def rules(self) -> OskaRules:
        """Return the rules of the dataset's board size."""
        return oska_rules(self.n)

    def position(self, i: int) -> Position:
        """Return sample ``i``'s position."""
        return Position(int(self.white[i]), int(self.black[i]), int(self.turn[i]))

    def solution(self, i: int) -> Solution:
        """Return sample ``i``'s exact Solution, for its side to move."""
        return Solution(int(self.result[i]), int(self.plies[i]))

    def children(self, i: int) -> list[tuple[Position, Solution]]:
        """Return sample ``i``'s children with their own Solutions, in move order."""
        span = range(self.child_start[i], self.child_start[i + 1])
        return [(Position(int(self.child_white[j]), int(self.child_black[j]),
                          int(self.child_turn[j])),
                 Solution(int(self.child_result[j]), int(self.child_plies[j])))
                for j in span]

    def move_solution(self, i: int, child: Position) -> Solution:
        """Return the Solution, for sample ``i``'s mover, of moving to ``child``.

        Raises ValueError when ``child`` is not a child of sample ``i``.
        """
        for kid, value in self.children(i):
            if kid == child:
                return mover_solution(value)
        raise ValueError(f"{child} is not a child of sample {i}")

    def keeps_value(self, i: int, child: Position) -> bool:
        """Return True when moving to ``child`` keeps the win, draw or loss of sample ``i``."""
        return self.move_solution(i, child).result == self.solution(i).result

    def choice_matters(self, i: int) -> bool:
        """Return True when sample ``i``'s moves do not all keep its win, draw or loss."""
        return not all(self.keeps_value(i, kid) for kid, _ in self.children(i))

    def is_perfect(self, i: int, child: Position) -> bool:
        """Return True when moving to ``child`` keeps sample ``i``'s exact Solution."""
        return self.move_solution(i, child) == self.solution(i)


def load_dataset(path: str | Path) -> ExactDataset:
    """Return the dataset stored at ``path``; raises ValueError if a field is missing."""
    with np.load(path) as data:
        missing = [f.name for f in fields(ExactDataset) if f.name not in data]
        if missing:
            raise ValueError(f"{path} is not an exact dataset: no {', '.join(missing)}")
        values = {f.name: data[f.name] for f in fields(ExactDataset)}
    values["n"], values["seed"] = int(values["n"]), int(values["seed"])
    return ExactDataset(**values)
