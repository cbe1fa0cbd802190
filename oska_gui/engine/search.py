"""Minimax with alpha-beta pruning, shared by every game of the project.

A game is anything with three members (see ``Game``): ``children(state)`` lists the
states after each legal move, best guesses first; ``terminal(state)`` says whether the
game is over and who won; ``stuck_result`` says what it means for the side to move to
have no move at all (a draw in Oska, a loss in Hexapawn). States must be hashable.
An evaluator is a plain function ``evaluate(state) -> int``, scored for the side to
move, static (it never searches, so the same state always gets the same score) and
well inside +/- ``WIN_BOUND``.

The search is negamax with fail-soft alpha-beta, principal variation search (null
windows after the first move, re-searched with the full window when they fail high), a
transposition table with enhanced transposition cut-offs (a child whose stored bound
already refutes the parent ends the search of the parent) and iterative deepening: a
ply at a time for a search that thinks for a time, two plies at a time for one of a
fixed depth (``analyse``, and a ``Thinker`` given ``deepening_step``: depths 2, 4, 6 or 1,
3, 5; an iteration of the same parity orders the moves better, and the skipped ones cost
more than they save; both kinds of fixed-depth search choose the same move). The
depth limit is exact: a table entry cuts the search only at the very depth it was
searched with, so the value returned is the plain minimax value at that depth. Game
ends score ``WIN - plies`` so the fastest win and the slowest loss are preferred.

**Stopping early.** Each table entry also notes whether its score depends on the depth
limit: whether a static evaluation at the horizon, or an entry that depends on it,
went into it. When an iteration's root score does not (every line the search had to
look at ended in a finished game or a deadlock), a deeper search would visit the same
positions and find the same score and move, so iterative deepening stops there; a
huge depth on a drawn position then costs no more than the depth the game can last.

Move ordering, which only changes the speed, never the value: the table's best child
from an earlier search first, then the game's own order (captures first in Oska).
Among root moves of equal score the first searched is chosen, so an earlier iteration's
favourite wins a tie: choosing by the game's order alone threw the value away more
often (held-out n = 5 positions, depths 2-10: 516 choices instead of 468).
Static scores are cached, as many move orders lead to the same leaf, and so are finished
leaves, so a leaf met again costs one lookup. Each searched position keeps its list of
children, since the next iteration of deepening (and transpositions) comes back to it;
the table is read before the game is asked whether a position is over (it never holds
a finished one). None of this changes the nodes visited or their order. The table and
the score cache are emptied when they grow past ``TABLE_LIMIT`` entries, the move
lists past ``MOVES_LIMIT`` children in all, which bounds the memory of long searches
(about 170 MB for Oska at worst).

**Why generators.** The desktop loop and the browser (Pyodide, no threads) must keep
drawing frames while the computer thinks. Each interior node of the search is a
generator that ``yield``s every ``PAUSE_EVERY`` nodes, so a caller can run the search
in slices of a few milliseconds and resume it exactly where it stopped: ``Thinker``
does that for the UI, ``best_child`` simply runs it to the end. Leaves are evaluated
inline by their parent, so the generator machinery costs little where most nodes are:
a few per cent against the same search as plain recursion (``python -m tools.bench``
measures it).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from oska_gui.core.types import Evaluator

from .clock import ThinkingClock

WIN = 1_000_000
WIN_BOUND = WIN - 10_000
INFINITY = 2 * WIN
PAUSE_EVERY = 512
TABLE_LIMIT = 1 << 18
MOVES_LIMIT = 1 << 18  # children kept in move lists: about 40 MB on boards up to n = 8
EXACT, LOWER, UPPER = 0, 1, 2
FINISHED = 4 * WIN  # the static cache's mark of a finished game, beyond any evaluation
ANALYSE_STEP = 2  # a fixed-depth search deepens d - 4, d - 2, d (see the module text)



class Game(Protocol):
    """What the search needs to know about a game."""

    @property
    def stuck_result(self) -> int:
        """Return the result for a side to move without any move (0 draw, -1 loss)."""

    def children(self, state: Any) -> list:
        """Return the states after each legal move, best guesses first."""

    def terminal(self, state: Any) -> int | None:
        """Return +1/-1/0 (won/lost/draw for the side to move) if over, else None."""


def is_game_end(score: int) -> bool:
    """Return True when ``score`` is a won or lost game rather than an evaluation."""
    return abs(score) >= WIN_BOUND


def plies_to_end(score: int, ply: int = 0) -> int:
    """Return how many plies from the root a game-end ``score`` (seen at ``ply``) lasts."""
    return WIN - abs(score) - ply


@dataclass
class Progress:
    """The best line found by the deepest iteration completed so far."""

    depth: int = 0
    score: int = 0
    best: Any = None
    line: list = field(default_factory=list)


class AlphaBeta:
    """Alpha-beta search over one game with one evaluator; holds the tables and counters.

    ``nodes`` counts every position visited: interior nodes, leaves and table hits.
    """

    def __init__(self, game: Game, evaluate: Evaluator,
                 discard: Callable[[dict], None] | None = None) -> None:
        """Prepare a search of ``game`` scored by ``evaluate`` with empty tables.

        ``discard`` receives each table that outgrew ``TABLE_LIMIT`` (it is replaced by
        an empty one), e.g. to free it a little per frame; by default it is emptied
        at once.
        """
        self.game = game
        self.evaluate = evaluate
        self.discard = discard
        # table[state] = (depth, bound flag, score relative to state, best child,
        #                 whether the score depends on the depth limit)
        self.table: dict = {}
        # static[state] = evaluate(state) for unfinished leaves, FINISHED + the result
        # (+1/0/-1 for the side to move) for finished ones
        self.static: dict = {}
        # moves[state] = game.children(state), for states searched (iterative deepening
        # and transpositions come back to them)
        self.moves: dict = {}
        self.moves_kept = 0  # the children the lists in ``moves`` hold, in all
        self.nodes = 0
        # how many depth-dependent scores (horizon evaluations, table entries that
        # rest on them) the search has used: a node's score depends on the depth limit
        # iff this count grew while it was searched
        self.horizon_uses = 0
        self._pause_at = PAUSE_EVERY

    def search(self, state: Any, depth: int) -> Generator[None, None, int]:
        """Search ``state`` exactly ``depth`` plies deep with a full window.

        A generator: it yields now and then so the caller may pause, and returns the
        minimax score (for the side to move in ``state``) when exhausted.
        """
        return self._node(state, depth, -INFINITY, INFINITY, 0)

    def _node(self, state: Any, depth: int, alpha: int, beta: int,
              ply: int) -> Generator[None, None, int]:
        """Return (as a generator) the fail-soft alpha-beta score of ``state``.

        ``depth`` >= 1 plies remain to the horizon; ``ply`` is the distance from the
        root, used to score game ends. The result is exact when it lies strictly inside
        (alpha, beta), else a bound on the exact score on the side of the window it
        fell on; the table stores it with a flag saying which.
        """
        self.nodes += 1
        if self.nodes >= self._pause_at:
            self._make_room()
            yield
        game = self.game
        entry = self.table.get(state)
        if entry is None:  # the table holds no finished game: only a new state can be one
            result = game.terminal(state)
            if result is not None:
                return result * (WIN - ply)
            hint = None
        else:
            stored_depth, flag, value, hint, deep = entry
            if stored_depth == depth:
                value = _from_table(value, ply)
                if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                    self.horizon_uses += deep
                    return value
        uses_before = self.horizon_uses
        kids = self.moves.get(state)
        if kids is None:
            kids = game.children(state)
            if not kids:
                return game.stuck_result * (WIN - ply)
            # a tuple, not the list: lists are always tracked by the cyclic garbage
            # collector, and hundreds of thousands of them made its passes hitch frames
            self.moves[state] = kids = tuple(kids)
            self.moves_kept += len(kids)
        if hint is not None and kids[0] != hint and hint in kids:
            kids = [hint, *(kid for kid in kids if kid != hint)]  # the cached tuple stays
        if depth == 1:
            best, best_kid = self._frontier(kids, beta, ply + 1)
        else:
            found = self._known_cut(kids, depth - 1, beta, ply + 1)
            if found is None:
                found = yield from self._principal_variation(kids, depth - 1, alpha, beta,
                                                             ply + 1)
            best, best_kid = found
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.table[state] = (depth, flag, _to_table(best, ply), best_kid,
                             self.horizon_uses != uses_before)
        return best

    def _known_cut(self, kids: Sequence, depth: int, beta: int, ply: int) -> tuple[int, Any] | None:
        """Return (score, child) if the table alone proves a child scores >= ``beta``.

        Enhanced transposition cut-off: a child already searched at exactly ``depth``
        whose stored value v, exact or an upper bound, has -v >= beta makes the parent
        fail high at once, with -v as its lower bound. Returns None when no child does.
        """
        table = self.table
        for kid in kids:
            entry = table.get(kid)
            if entry is not None and entry[0] == depth and entry[1] != LOWER:
                score = -_from_table(entry[2], ply)
                if score >= beta:
                    self.horizon_uses += entry[4]
                    return score, kid
        return None

    def _principal_variation(self, kids: Sequence, depth: int, alpha: int, beta: int,
                             ply: int) -> Generator[None, None, tuple[int, Any]]:
        """Return (as a generator) the best (score, child) of ``kids``, each ``depth`` deep.

        Principal variation search: the first child gets the window (alpha, beta); the
        others a null window that only proves them no better than alpha, and a full
        re-search when that proof fails. Fail-soft: the best score is exact when it lies
        strictly inside the window, a bound otherwise.
        """
        best, best_kid = -INFINITY, kids[0]
        for kid in kids:
            if best == -INFINITY:
                score = -(yield from self._node(kid, depth, -beta, -alpha, ply))
            else:
                score = -(yield from self._node(kid, depth, -alpha - 1, -alpha, ply))
                if alpha < score < beta:
                    score = -(yield from self._node(kid, depth, -beta, -alpha, ply))
            if score > best:
                best, best_kid = score, kid
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best, best_kid

    def _frontier(self, kids: Sequence, beta: int, ply: int) -> tuple[int, Any]:
        """Return the best (score, child) of ``kids``, leaves at ``ply``; stop at ``beta``.

        A leaf scores its game result if the game is over there, else its static
        evaluation (cached: many move orders lead to the same leaf).
        """
        terminal, static = self.game.terminal, self.static
        end = WIN - ply
        best, best_kid = -INFINITY, kids[0]
        visited = evaluated = 0
        for kid in kids:
            visited += 1
            value = static.get(kid)
            if value is None:
                result = terminal(kid)
                value = static[kid] = self.evaluate(kid) if result is None else FINISHED + result
            if value < FINISHED - 1:
                evaluated += 1
                score = -value
            else:  # a finished game: -result * end
                score = (FINISHED - value) * end
            if score > best:
                best, best_kid = score, kid
                if score >= beta:
                    break
        self.nodes += visited
        self.horizon_uses += evaluated
        return best, best_kid

    def _make_room(self) -> None:
        """Schedule the next pause; empty a table that outgrew ``TABLE_LIMIT`` entries;
        freeze the garbage collector's objects.

        Emptying the table or the cache only costs speed: entries are used for move
        ordering, for cut-offs at their exact depth and to skip re-evaluations.

        The tables' positions are named tuples, which the collector never stops
        tracking, so every full collection walked all of them: 12 collections took 2.3
        of the 6.9 s of an n = 6 review. Frozen (``gc.freeze``) they are skipped; they
        hold no cycles, so freezing keeps nothing alive (the solver does the same).
        """
        self._pause_at = self.nodes + PAUSE_EVERY
        gc.freeze()
        if len(self.table) > TABLE_LIMIT:
            self.table = self._replace(self.table)
        if len(self.static) > TABLE_LIMIT:
            self.static = self._replace(self.static)
        if self.moves_kept > MOVES_LIMIT:
            self.moves, self.moves_kept = self._replace(self.moves), 0

    def _replace(self, full: dict) -> dict:
        """Hand the outgrown table ``full`` to ``discard`` (or empty it); return a new one."""
        if self.discard is None:
            full.clear()
        else:
            self.discard(full)
        return {}

    def best_kid(self, state: Any) -> Any:
        """Return the best child of ``state`` recorded by the last search of it."""
        return self.table[state][3]

    def depth_bound(self, state: Any) -> bool:
        """Return True unless the table holds a score of ``state`` that did not depend
        on the depth limit (see "Stopping early"): a deeper search may then change it."""
        entry = self.table.get(state)
        return entry is None or entry[4]

    def line(self, state: Any, depth: int) -> list:
        """Return the principal variation from ``state``: up to ``depth`` states."""
        out: list = []
        while len(out) < depth and state in self.table:
            state = self.table[state][3]
            out.append(state)
        return out

    def deepen(self, root: Any, max_depth: int, progress: Progress,
               step: int = 1) -> Generator[None, None, None]:
        """Iteratively deepen to ``max_depth``, ``step`` plies at a time, updating ``progress``.

        The depths searched are ``max_depth``, ``max_depth - step`` and so on down to
        the smallest that is at least 1 (all of 1 .. ``max_depth`` for a step of 1). A
        generator that yields at pause points; after each completed depth
        ``progress`` holds that depth's score, best child and line. It stops early
        once deeper search cannot change the result: a proven win or loss, or a score
        that did not depend on the depth limit (see the module's "Stopping early").
        When the tables already hold ``root``'s exact score at one of those depths (an
        earlier search with the same tables went through it, as a review's search of
        the position before does), the depths below it are skipped: that depth is then
        a lookup, and the deeper ones are ordered by what the earlier search found.
        Raises ValueError if ``root`` is over or has no move, or ``step`` is below 1.
        """
        if step < 1:
            raise ValueError(f"iterative deepening needs a step of at least 1, not {step}")
        if self.game.terminal(root) is not None or not self.game.children(root):
            raise ValueError("the game is over in this position: there is nothing to search")
        first = (max_depth - 1) % step + 1
        known = self.table.get(root)
        if known is not None and known[1] == EXACT and first < known[0] <= max_depth \
                and (max_depth - known[0]) % step == 0:
            first = known[0]
        for depth in range(first, max_depth + 1, step):
            score = yield from self.search(root, depth)
            progress.depth, progress.score = depth, score
            progress.best = self.best_kid(root)
            progress.line = self.line(root, depth)
            if is_game_end(score) or not self.depth_bound(root):
                return


def _to_table(score: int, ply: int) -> int:
    """Return a game-end score made relative to the node at ``ply`` for the table."""
    if score >= WIN_BOUND:
        return score + ply
    if score <= -WIN_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    """Return a table score made relative to the root again, seen from ``ply``."""
    if score >= WIN_BOUND:
        return score - ply
    if score <= -WIN_BOUND:
        return score + ply
    return score


def run(generator: Generator[None, None, Any]) -> Any:
    """Drive a search generator to its end and return its return value."""
    while True:
        try:
            next(generator)
        except StopIteration as stop:
            return stop.value


def deepening_step(time_limit: float | None) -> int:
    """Return the plies between the depths of a ``Thinker`` with ``time_limit`` (None: a
    fixed depth): ``ANALYSE_STEP`` for a fixed depth, so it chooses as ``analyse`` does
    even where root moves tie; 1 for one that thinks for a time, which plays the
    deepest depth it completes."""
    return ANALYSE_STEP if time_limit is None else 1


def analyse(game: Game, evaluate: Evaluator, root: Any, depth: int) -> Progress:
    """Search ``root`` exactly ``depth`` plies deep and return the best line found.

    Iterative deepening orders the moves, two plies at a time (``ANALYSE_STEP``); the
    last depth searched is ``depth`` itself unless a win or loss was proven sooner (the
    value is then the same). Raises ValueError when the game is over in ``root`` or
    the side to move cannot move.
    """
    progress = Progress()
    run(AlphaBeta(game, evaluate).deepen(root, depth, progress, ANALYSE_STEP))
    return progress


def best_child(game: Game, evaluate: Evaluator, root: Any, depth: int) -> Any:
    """Return the child of ``root`` chosen by alpha-beta minimax ``depth`` plies deep."""
    return analyse(game, evaluate, root, depth).best


class Thinker:
    """An iterative-deepening search run in time slices, for frame loops.

    Call ``advance(seconds)`` once per frame; the search resumes where it stopped.
    It is ``done`` when ``max_depth`` is completed, a win or loss is proven, its
    ``clock`` (wall-clock time: the slices and the frames between them) reaches
    ``time_limit`` seconds, or it has visited ``node_limit`` nodes; the last two only
    once a first depth is complete. A node limit gives the same answer on any machine
    and under any load, however the work is sliced: the search pauses at fixed node
    counts, and the limit is checked there.
    """

    def __init__(self, game: Game, evaluate: Evaluator, root: Any, max_depth: int = 64,
                 time_limit: float | None = None,
                 discard: Callable[[dict], None] | None = None,
                 clock: ThinkingClock | None = None, step: int = 1,
                 node_limit: int | None = None, search: AlphaBeta | None = None) -> None:
        """Prepare to search ``root``; raises ValueError if the game is over there.

        ``discard`` receives tables the search outgrows (see ``AlphaBeta``). ``clock``
        is the decision's clock when the search is its second part (the time already on
        it counts toward ``time_limit``); None starts a new one. ``step``: the plies
        between depths (``AlphaBeta.deepen``; ``deepening_step`` gives the one a player
        uses). ``node_limit``: the most nodes to visit (None: no limit), passed by at
        most the nodes between two pauses. ``search``: an earlier search of the same
        game and evaluator whose tables this one goes on with (None: new tables, with
        ``discard``); the tables only order moves, cut at their exact depth and spare
        evaluations, so the score is the same, only found sooner.
        """
        self.search = search or AlphaBeta(game, evaluate, discard)
        self._first_node = self.search.nodes
        self.progress = Progress()
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.clock = clock or ThinkingClock()
        self.done = False
        self._steps = self.search.deepen(root, max_depth, self.progress, step)
        self.advance(0.0)  # always complete a first depth, so a move is known at once

    def advance(self, seconds: float) -> bool:
        """Think for about ``seconds`` (at least until a first depth is done); return
        ``done``."""
        clock = self.clock
        clock.resume()
        start = time.perf_counter()
        while not self.done:
            try:
                next(self._steps)
            except StopIteration:
                self.done = True
            if (self.time_limit is not None and clock.elapsed >= self.time_limit) or \
                    (self.node_limit is not None and self.nodes >= self.node_limit):
                self.done = self.progress.depth > 0
            if time.perf_counter() - start >= seconds and self.progress.depth > 0:
                break
        clock.pause()
        return self.done

    @property
    def nodes(self) -> int:
        """Return the nodes this search has visited (an earlier one's not counted)."""
        return self.search.nodes - self._first_node

    @property
    def best(self) -> Any:
        """Return the best child found so far (None before depth 1 completes)."""
        return self.progress.best
