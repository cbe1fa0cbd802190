"""Exact solver for small games: the value and length of a game under perfect play.

Works on any ``Game`` of the search module (``children``, ``terminal``,
``stuck_result``) whose game graph is acyclic, which Oska and Hexapawn are: pieces only
move forward and two passes in a row cannot happen. ``solve`` walks every position
reachable from the root once (an iterative depth-first search, so long games do not hit
the recursion limit) and scores each one from its children.

**Perfect play.** The winner wins as fast as possible, the loser loses as slowly as
possible, and when neither side can win both keep the draw going as long as possible
(more chances for the opponent to go wrong). A pass counts as a ply.

**Budget.** ``max_positions`` bounds the number of distinct positions reachable from the
root; a bigger game raises ``TooBig``. The count depends on the root alone, never on
what was solved before, so ``covered`` gives the same answer in every process.

**Cache.** One ``Solver`` per game object lives as long as the process. It keeps the
table of the game's start position once solved (the whole n = 4 Oska game: 782,918
positions, a few seconds), so every position of that game is then answered at once,
plus the tables of the last few other roots solved.

**Frame loops.** ``SolveJob`` runs a solve in time slices, like ``search.Thinker``.
A table's scores live in ``SHARDS`` dicts chosen by the position's hash (``Scores``)
rather than one: a dict grows by copying itself whole into one twice as big, which for
the n = 4 table's last growth (700,000 entries) took 60-90 ms inside one slice; each
shard holds about a 64th, so its growth costs about a millisecond, and the shards grow
at different moments.
"""

from __future__ import annotations

import gc
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator, Mapping
from itertools import chain
from typing import Any, NamedTuple

from oska_gui.engine.search import Game, run

DEFAULT_MAX_POSITIONS = 1_000_000
_BIG = 1_000_000  # longer than any game: scores of wins and losses stay apart from draws
_KEEP_TABLES = 4
_HALF = _BIG // 2
PAUSE_EVERY = 512
SHARDS = 64  # a power of two: a position's shard is its hash's low bits


class TooBig(Exception):
    """Raised when more positions than the budget are reachable from the root."""


class Solution(NamedTuple):
    """A solved position: ``result`` +1/0/-1 for the side to move, ``plies`` to the end."""

    result: int
    plies: int


class Scores(Mapping[Any, int]):
    """Positions' scores (``score_of``), split over ``SHARDS`` dicts by hash (see the
    module text: no single growth of the table is long); read like a dict."""

    __slots__ = ("shards",)

    def __init__(self) -> None:
        """Make an empty table."""
        self.shards: list[dict[Any, int]] = [{} for _ in range(SHARDS)]

    def shard(self, state: Any) -> dict[Any, int]:
        """Return the dict that holds (or is to hold) ``state``'s score."""
        return self.shards[hash(state) & (SHARDS - 1)]

    def __getitem__(self, state: Any) -> int:
        """Return ``state``'s score; raises KeyError when it has none."""
        return self.shards[hash(state) & (SHARDS - 1)][state]

    def __contains__(self, state: object) -> bool:
        """Return True when ``state`` has a score."""
        return state in self.shards[hash(state) & (SHARDS - 1)]

    def __iter__(self) -> Iterator[Any]:
        """Iterate over the positions scored, shard by shard."""
        return chain.from_iterable(self.shards)

    def __len__(self) -> int:
        """Return the number of positions scored."""
        return sum(map(len, self.shards))


class _Table(NamedTuple):
    """The scores of every position reachable from one solved root."""

    size: int
    scores: Scores


def score_of(result: int, plies: int) -> int:
    """Return one int ordering outcomes for the side to move: higher is better.

    Wins sooner beat wins later, losses later beat losses sooner, and a draw (between
    the two) is better the longer it lasts.
    """
    return result * (_BIG - plies) if result else plies


def solution_of(score: int) -> Solution:
    """Return the Solution that ``score_of`` encoded as ``score``."""
    if score >= _HALF:
        return Solution(1, _BIG - score)
    if score <= -_HALF:
        return Solution(-1, _BIG + score)
    return Solution(0, score)


def parent_score(child: int) -> int:
    """Return the score, for the mover, of a move to a child scored ``child``."""
    if child >= _HALF:  # the opponent wins in p plies: we lose in p + 1
        return 1 - child
    if child <= -_HALF:  # the opponent loses in p plies: we win in p + 1
        return -child - 1
    return child + 1


def _build_table(game: Game, root: Any, max_positions: int,
                 note: Callable[[int], None] | None = None) -> Generator[None, None, _Table]:
    """Score every position reachable from ``root``; raises TooBig past the budget.

    A generator that yields now and then (so a frame loop can run it in slices) and
    returns the table; before each pause it tells ``note`` (if any) how many positions
    it has met so far, for progress. An explicit stack replaces recursion: a state is pushed once to
    be expanded and again, under its children, to be scored once they all are.

    Before each pause it freezes the garbage collector's objects (``gc.freeze``): the
    table's positions are named tuples, which the collector never stops tracking, so
    without it every full collection in a later slice walked all of them (the whole
    n = 4 game: 782,918 positions, 7 collections of 0.1-0.7 s in one build); frozen
    they are skipped. They hold no cycles, so freezing keeps nothing alive.
    """
    scores = Scores()
    shards, mask = scores.shards, SHARDS - 1  # inlined below: the hot loop calls nothing
    pending: dict = {}  # expanded states waiting for their children's scores
    terminal, children, stuck = game.terminal, game.children, game.stuck_result
    stuck_score = score_of(stuck, 0)
    stack: list = [root]
    scored = 0  # positions in ``scores`` (counted here: its len() sums the shards)
    pause_at = PAUSE_EVERY
    while stack:
        state = stack.pop()
        kids = pending.pop(state, None)
        if kids is not None:
            try:
                shards[hash(state) & mask][state] = max(
                    [parent_score(shards[hash(kid) & mask][kid]) for kid in kids])
            except KeyError:
                raise ValueError("the game graph has a cycle: it cannot be solved") from None
            scored += 1
            continue
        home = shards[hash(state) & mask]
        if state in home:
            continue
        size = scored + len(pending)
        if size >= max_positions:
            raise TooBig(f"more than {max_positions} positions are reachable")
        if size >= pause_at:
            pause_at = size + PAUSE_EVERY
            gc.freeze()  # the positions so far: no collection walks them again
            if note is not None:
                note(size)
            yield
        result = terminal(state)
        if result is not None:
            home[state] = score_of(result, 0)
            scored += 1
            continue
        kids = children(state)
        if not kids:
            home[state] = stuck_score
            scored += 1
            continue
        pending[state] = kids
        stack.append(state)
        stack.extend(kids)
    return _Table(scored, scores)


class Solver:
    """Solves positions of one game and keeps what it learnt.

    The table of the game's start position, once solved, is kept for the life of the
    solver; otherwise the tables of the last few roots are kept. Roots found too big
    are remembered with their budget, so asking again fails at once.
    """

    def __init__(self, game: Game) -> None:
        """Prepare to solve positions of ``game`` with an empty cache."""
        self.game = game
        start = getattr(game, "start", None)
        self.start = start() if start is not None else None
        self.pinned: _Table | None = None
        self.recent: OrderedDict[Any, _Table] = OrderedDict()
        self.too_big: dict[Any, int] = {}
        self.building = 0  # positions met so far by the table being built (0: none is)

    def _cached(self, pos: Any, max_positions: int) -> _Table | None:
        """Return a cached table holding ``pos`` whose root fitted the budget, or None.

        Such a table will do: fewer positions still are reachable from ``pos``.
        """
        tables = list(self.recent.values())
        if self.pinned is not None:
            tables.insert(0, self.pinned)
        for table in tables:
            if table.size <= max_positions and pos in table.scores:
                return table
        return None

    def table_steps(self, pos: Any, max_positions: int) -> Generator[None, None, _Table]:
        """Return (as a generator, see ``_build_table``) a table holding ``pos``.

        Solves ``pos`` unless a cached table answers; raises TooBig when more than
        ``max_positions`` positions are reachable from ``pos``.
        """
        table = self._cached(pos, max_positions)
        if table is not None:
            return table
        if max_positions <= self.too_big.get(pos, 0):
            raise TooBig(f"more than {max_positions} positions are reachable")
        try:
            table = yield from _build_table(self.game, pos, max_positions, self._note)
        except TooBig:
            self.too_big[pos] = max(max_positions, self.too_big.get(pos, 0))
            raise
        finally:
            self.building = 0
        if pos == self.start:
            self.pinned = table
        else:
            self.recent[pos] = table
            if len(self.recent) > _KEEP_TABLES:
                self.recent.popitem(last=False)
        return table

    def forget(self) -> None:
        """Drop every table kept and every root found too big, so the next question of
        any position is solved afresh (e.g. to free the memory, or to time a solve)."""
        self.pinned = None
        self.recent.clear()
        self.too_big.clear()

    def _note(self, size: int) -> None:
        """Keep the number of positions the table being built has met (``building``)."""
        self.building = size

    def solve(self, pos: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> Solution:
        """Return the perfect-play Solution of ``pos``; raises TooBig past the budget."""
        return solution_of(run(self.table_steps(pos, max_positions)).scores[pos])

    def ranked_children(self, pos: Any, max_positions: int = DEFAULT_MAX_POSITIONS,
                        ) -> list[tuple[Any, Solution]]:
        """Return (child, Solution for the mover) pairs, best first, ties in move order.

        Raises ValueError when the game is over in ``pos`` or no move is possible, and
        TooBig when more than ``max_positions`` positions are reachable from ``pos``.
        """
        game = self.game
        kids = game.children(pos) if game.terminal(pos) is None else []
        if not kids:
            raise ValueError("the game is over in this position: there is no move to make")
        scores = run(self.table_steps(pos, max_positions)).scores
        ranked = sorted(kids, key=lambda kid: -parent_score(scores[kid]))  # stable: ties in order
        return [(kid, solution_of(parent_score(scores[kid]))) for kid in ranked]

    def covered(self, pos: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> bool:
        """Return True when ``pos`` can be solved within ``max_positions`` positions."""
        try:
            run(self.table_steps(pos, max_positions))
        except TooBig:
            return False
        return True


class SolveJob:
    """Solving one position in time slices, for frame loops (like ``search.Thinker``).

    Call ``advance(seconds)`` once per frame until it returns True; then ``solution``
    and ``best`` hold the answer, or ``too_big`` is True.
    """

    def __init__(self, game: Game, pos: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> None:
        """Prepare to solve ``pos`` of ``game`` within ``max_positions`` positions."""
        self.game, self.pos, self.max_positions = game, pos, max_positions
        self.solution: Solution | None = None
        self.too_big = False
        self.done = False
        self._steps = solver_for(game).table_steps(pos, max_positions)

    def advance(self, seconds: float) -> bool:
        """Work for about ``seconds`` (a few milliseconds past it at most); return ``done``."""
        end = time.perf_counter() + seconds
        while not self.done:
            try:
                next(self._steps)
            except StopIteration as stop:
                self.solution = solution_of(stop.value.scores[self.pos])
                self.done = True
            except TooBig:
                self.too_big = self.done = True
            if time.perf_counter() >= end:
                break
        return self.done

    @property
    def best(self) -> Any:
        """Return the perfect child of the solved position (None if none or not solved)."""
        game = self.game
        if self.solution is None or game.terminal(self.pos) is not None:
            return None
        if not game.children(self.pos):
            return None
        return perfect_child(game, self.pos, self.max_positions)


_SOLVERS: dict[int, Solver] = {}


def solver_for(game: Game) -> Solver:
    """Return the process-wide Solver of ``game`` (one per game object)."""
    solver = _SOLVERS.get(id(game))
    if solver is None:  # the solver keeps its game alive, so an id is never reused
        solver = _SOLVERS[id(game)] = Solver(game)
    return solver


def solve(game: Game, pos: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> Solution:
    """Return the value of ``pos`` under perfect play for the side to move.

    Args:
        game: the rules (e.g. ``oska_rules(4)``); its graph must be acyclic.
        pos: the position to solve.
        max_positions: the most positions reachable from ``pos`` that may be solved.

    Returns:
        Solution(result, plies): +1 win, 0 draw, -1 loss for the side to move, and the
        number of plies (a pass is one) to the end of the game with perfect play.

    Raises:
        TooBig: when more than ``max_positions`` positions are reachable from ``pos``.
    """
    return solver_for(game).solve(pos, max_positions)


class _Forest:
    """``game`` with one extra state, ``_FOREST``, whose moves lead to each of ``roots``.

    Solving ``_FOREST`` solves every root at once, each shared position only once, within
    one budget: the roots' reachable positions together.
    """

    def __init__(self, game: Game, roots: list) -> None:
        """Join ``roots`` (positions of ``game``) under the extra state."""
        self.game, self.roots = game, roots
        self.stuck_result = game.stuck_result

    def children(self, state: Any) -> list:
        """Return the roots for the extra state, else ``game``'s children."""
        return list(self.roots) if state is _FOREST else self.game.children(state)

    def terminal(self, state: Any) -> int | None:
        """Return None for the extra state, else ``game``'s verdict."""
        return None if state is _FOREST else self.game.terminal(state)


_FOREST = object()


def solve_all(game: Game, roots: list, max_positions: int = DEFAULT_MAX_POSITIONS,
              ) -> list[Solution]:
    """Return the perfect-play Solution of each of ``roots`` (for its side to move).

    Args:
        game: the rules; its graph must be acyclic.
        roots: the positions to solve, e.g. the candidate moves of one position.
        max_positions: the most positions reachable from all the roots together.

    Raises:
        TooBig: when more than ``max_positions`` positions are reachable from them.
    """
    table = run(_build_table(_Forest(game, roots), _FOREST, max_positions + 1))
    return [solution_of(table.scores[root]) for root in roots]


def perfect_child(game: Game, pos: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> Any:
    """Return the child of ``pos`` a perfect player picks (first in move order on ties).

    Raises ValueError when the game is over in ``pos`` or no move is possible, and
    TooBig when more than ``max_positions`` positions are reachable from ``pos``.
    """
    return solver_for(game).ranked_children(pos, max_positions)[0][0]


def covered(game: Game, pos: Any, max_positions: int = DEFAULT_MAX_POSITIONS) -> bool:
    """Return True when ``pos`` can be solved within ``max_positions`` positions.

    Instant for positions already solved (a whole game from its start, or a recent
    root) and for roots already found too big for this budget; otherwise it solves.
    """
    return solver_for(game).covered(pos, max_positions)
