"""The analysis of a game record, run in time slices: ``ReviewJob`` makes a ``Review``.

Every position of the record is assessed once: its win chance for the side to move
(``chances``) and its best move, by the exact solver where it covers the position (and
exact values are asked for), else by the alpha-beta search (``search.Thinker``) within
a ``Budget`` (nodes by default, so a review is reproducible), scored by the game's
calibrated evaluator
(``GameInfo.chance_evaluator``: its scores are win chances). Each move played is then
marked (``marks``) from the assessment of the position it was played in, so the review
fills in move by move. A searched move that loses a mistake's worth or more is searched
again deeper, with the best move, before its mark stands (``_confirm``): the
evaluator's misjudgements beyond the horizon otherwise mark moves that lose nothing.
All the searches of one review share one set of tables (``AlphaBeta``): each position
is a child of the one before, whose search has already met most of what it will meet,
so its evaluations, move lists and move orders are found rather than made again. The
tables change only the speed, never a score, and the positions are always searched in
the game's order, so the review stays the same however it is run.

Like the players' search, the job never blocks: ``advance(seconds)`` works for about
that long (a search slice pauses every few hundred nodes, a solve slice likewise) and
returns whether the review is complete, so a front end calls it once a frame and draws
``review`` as it grows; a command simply calls it until it returns True. A node or
depth budget makes the same review however the work is sliced; a wall-clock budget
counts only the time spent on a position inside ``advance``, not the frames between.

Where exact values are tried: on boards the solver covers from the start
(``GameInfo.perfect_sizes``) every position, with ``levels.PERFECT_POSITIONS``
positions at most (the first solve covers the rest of the game); on other boards the
positions where both sides together have at most ``levels.ENDGAME_RACE`` rows to go,
with ``levels.ENDGAME_POSITIONS`` at most, as the 'strongest' level does, found from
the end of the game back before the first position is assessed (``_first_exact``).
Where the board's solved game is kept on this computer (``oska solve --n 5 --save``),
every position it knows is valued from it at once, before any solving.
"""

from __future__ import annotations

import time
from collections.abc import Generator

from oska_gui.core.types import Position
from oska_gui.engine.search import WIN, AlphaBeta, Thinker, is_game_end
from oska_gui.engine.solver import Solution, TooBig, solver_for

from ..game import make_game
from ..levels import ENDGAME_POSITIONS, ENDGAME_RACE, MAX_DEPTH, PERFECT_POSITIONS
from ..records import Record
from ..search_player import TableSink, release
from .budget import Budget
from .chances import READINGS, result_chance
from .marks import MISTAKE
from .result import Assessment, Review

MIN_SLICE = 0.001  # seconds: the shortest search slice, so that every call makes progress
CONFIRM_PLIES = 6  # how much deeper than the position a suspected mistake is searched again


def exact_source(record: Record, exact: bool) -> str:
    """Return where a review of ``record`` takes its exact values, in words.

    Args:
        record: the game reviewed.
        exact: whether exact values are used at all.

    Returns:
        E.g. 'the solved file PATH, else the exact solver in endgames (at most 200,000
        positions)', or 'none: the search alone'.
    """
    if not exact:
        return "none: the search alone"
    game = make_game(record.game.value, record.n)
    solver = "the exact solver" if game.solver_covers else \
        f"the exact solver in endgames (at most {ENDGAME_POSITIONS:,} positions)"
    found = game.saved_solution
    return f"the solved file {found.path}, else {solver}" if found is not None else solver


class ReviewJob:
    """Reviewing one record in time slices (see the module text).

    Call ``advance(seconds)`` until it returns True; ``review`` holds what is done.
    """

    def __init__(self, record: Record, budget: Budget | None = None, exact: bool = True,
                 reclaimer: TableSink | None = None,
                 confirm_plies: int = CONFIRM_PLIES) -> None:
        """Prepare the review of ``record``; raises RecordError if its moves are illegal.

        Args:
            record: the game.
            budget: the search a position may take (None: ``Budget()``, the default
                nodes).
            exact: whether exact values are used where the solver covers a position.
            reclaimer: takes each finished search's tables to free them a little per
                frame, as the players' are (None: they are dropped at once, which in a
                frame loop costs the frame a position's search ends in).
            confirm_plies: how much deeper a suspected mistake or blunder is searched
                again (``_confirm``; 0: never).
        """
        self.game = make_game(record.game.value, record.n)
        self.budget = budget = budget or Budget()
        self.seconds, self.nodes = budget.seconds, budget.nodes
        self.depth, self.exact = budget.depth or MAX_DEPTH, exact
        self.confirm_plies = confirm_plies
        self.reading = READINGS[record.game]
        self.evaluate = self.game.chance_evaluator()
        self.review = Review(record, record.positions())
        self.reclaimer = reclaimer
        self.solver = solver_for(self.game.rules)
        discard = None if reclaimer is None else reclaimer.take
        self.search = AlphaBeta(self.game.rules, self.evaluate, discard)
        self.solving: int | None = None  # the position being solved exactly, if one is
        self._steps = self._work()
        self._end = 0.0  # when the running call of ``advance`` is to return

    @property
    def done(self) -> bool:
        """Return True once the review is complete."""
        return self.review.complete

    def advance(self, seconds: float) -> bool:
        """Work for about ``seconds`` (a few milliseconds more at most); return ``done``."""
        self._end = time.perf_counter() + seconds
        while not self.done:
            next(self._steps, None)  # the last step completes the review and stops
            if time.perf_counter() >= self._end:
                break
        return self.done

    def _work(self) -> Generator[None, None, None]:
        """Find where exact values start, then assess each position in turn, judging
        each move once its position is assessed.

        A generator that yields after each slice of work (see ``_assess``).
        """
        review = self.review
        positions = review.positions
        budget = self._exact_budget()
        first_exact = yield from self._first_exact(budget)
        for index in range(len(positions)):
            played = positions[index + 1] if index + 1 < len(positions) else None
            assessment = yield from self._assess(index, played,
                                                 budget if index >= first_exact else 0)
            review.add(assessment)
        release(self.search, self.reclaimer)

    def _exact_budget(self) -> int:
        """Return the most positions the solver may take on for one position (0: none)."""
        if not self.exact:
            return 0
        return PERFECT_POSITIONS if self.game.solver_covers else ENDGAME_POSITIONS

    def _first_exact(self, budget: int) -> Generator[None, None, int]:
        """Return (as a generator) the index of the first position the solver covers
        within ``budget`` (the number of positions if none).

        Every position's reachable positions hold its successors', so once one is too
        big every earlier one is: the positions are tried from the end back, and only
        one attempt fails. On boards the solver covers from the start that is the first
        position; elsewhere only positions with at most ``ENDGAME_RACE`` rows to go are
        tried (that count never grows either). The last table solved covers every later
        position, so they are looked up afterwards.
        """
        positions = self.review.positions
        if budget == 0:
            return len(positions)
        if self.game.solver_covers:
            return 0
        first = len(positions)
        for index in range(len(positions) - 1, -1, -1):
            pos = positions[index]
            if self._result(pos) is None:
                if self.game.race_length(pos) > ENDGAME_RACE:
                    break
                if (yield from self._solve(index, budget)) is None:
                    break
            first = index
        return first

    def _assess(self, index: int, played: Position | None,
                budget: int) -> Generator[None, None, Assessment]:
        """Return (as a generator) the assessment of the position at ``index``.

        Args:
            index: the position's index in the game.
            played: the child the game went on to (None at its end).
            budget: the most positions the solver may take on to value ``pos`` exactly
                (0: the search alone).
        """
        pos = self.review.positions[index]
        result = self._result(pos)
        if result is not None:
            return Assessment(result_chance(result), None)
        found = self.game.solved_children(pos) if self.exact else None
        ranked = found[0] if found is not None else None
        if ranked is None and budget:
            ranked = yield from self._solve(index, budget)
        if ranked is not None:
            best, value = ranked[0]
            played_value = dict(ranked)[played] if played is not None else value
            return Assessment(result_chance(value.result), best,
                              result_chance(played_value.result), exact=(value, played_value))
        return (yield from self._search(pos, played))

    def _solve(self, index: int, budget: int,
               ) -> Generator[None, None, list[tuple[Position, Solution]] | None]:
        """Return (as a generator) the children of the position at ``index`` ranked by
        exact value, or None when more than ``budget`` positions are reachable; while
        it solves, ``solving`` is ``index``."""
        pos = self.review.positions[index]
        self.solving = index
        try:
            yield from self.solver.table_steps(pos, budget)
        except TooBig:
            return None
        finally:
            self.solving = None
        return self.solver.ranked_children(pos, budget)  # answered from the table just built

    def _search(self, pos: Position, played: Position | None,
                ) -> Generator[None, None, Assessment]:
        """Return (as a generator) ``pos``'s assessment by the search within the budget.

        Yields after each slice, which lasts until the running ``advance`` call is to
        return or the position's budget is spent, whichever comes first. The move
        played, when it is not the best, is then searched one ply less deep than the
        position was, with the same tables: its score is then the one the position's
        own search gave it, never above the best move's, so the drop in win chance
        comes from one consistent look, not from two searches of different depths.
        A drop of a mistake or more is then checked by a deeper look (``_confirm``).
        """
        thinker = Thinker(self.game.rules, self.evaluate, pos, self.depth,
                          node_limit=self.nodes, search=self.search)
        spent = 0.0
        while not thinker.done:
            start = time.perf_counter()
            left = max(MIN_SLICE, self._end - start)
            if self.seconds is not None:
                if spent >= self.seconds:
                    break
                left = min(left, self.seconds - spent)
            thinker.advance(left)
            spent += time.perf_counter() - start
            yield
        progress = thinker.progress
        chance = self.reading.chance(progress.score)
        after = chance
        if played is not None and played != progress.best:
            score = yield from self._child_score(thinker.search, played, progress.depth - 1)
            after = self.reading.chance(-score)
            if 100 * (chance - after) >= MISTAKE:
                chance, after = yield from self._confirm(thinker.search, progress.best, played,
                                                         progress.depth, (chance, after))
        return Assessment(chance, progress.best, after, progress.depth)

    def _confirm(self, search: AlphaBeta, best: Position, played: Position, depth: int,
                 found: tuple[float, float]) -> Generator[None, None, tuple[float, float]]:
        """Return (as a generator) the mover's win chances (the position's, the move
        played's) after a deeper look at a suspected mistake or blunder.

        The evaluator can misjudge a position beyond the horizon (a lost one as 35 %, a
        won one as 80 % against 99.9 %), so, as engines re-check a suspected blunder,
        the best move and the move played are searched again, a ply deeper at a time,
        up to ``confirm_plies`` deeper than the position was (with the same tables);
        the deepest look both completed stands. It stops early once neither score can
        change with depth (a game end, or no evaluation at the horizon went into it),
        and once the budget's nodes or time a position is spent again on it.

        Args:
            search: the position's search, whose tables order the moves.
            best: the search's best move (a child).
            played: the move played (another child).
            depth: the depth the position was searched to.
            found: the chances the first look gave, kept if no deeper look completes.

        Returns:
            The position's chance (the better of the two moves) and the move played's.
        """
        spent = 0.0
        first = search.nodes
        for child_depth in range(depth, depth + self.confirm_plies):
            scores = []
            for child in (best, played):
                steps = self._child_score(search, child, child_depth)
                score, spent = yield from within(steps, spent, self.seconds, search, first,
                                                 self.nodes)
                if score is None:
                    return found
                scores.append(score)
            chances = [self.reading.chance(-score) for score in scores]
            found = max(chances), chances[1]
            if all(_settled(search, child, score)
                   for child, score in zip((best, played), scores, strict=True)):
                break
        return found

    def _child_score(self, search: AlphaBeta, child: Position,
                     depth: int) -> Generator[None, None, int]:
        """Return (as a generator) ``child``'s score for its side to move, ``depth``
        plies deep with ``search``'s tables (0: its static value or its result)."""
        result = self._result(child)
        if result is not None:
            return result * WIN
        if depth == 0:
            return self.evaluate(child)
        return (yield from search.search(child, depth))

    def _result(self, pos: Position) -> int | None:
        """Return the result for the side to move (+1/0/-1) if the game is over in
        ``pos``, a side without a move included (a deadlock in Oska), else None."""
        rules = self.game.rules
        result = rules.terminal(pos)
        if result is None and not rules.children(pos):
            return rules.stuck_result
        return result


def within(steps: Generator[None, None, int], spent: float, seconds: float | None,
           search: AlphaBeta, first: int,
           nodes: int | None) -> Generator[None, None, tuple[int | None, float]]:
    """Run the search ``steps`` (a generator), yielding after each of its slices, and
    return (as a generator) its score and the seconds spent in all so far.

    Args:
        steps: the search.
        spent: the seconds already spent on the work it belongs to.
        seconds: the most seconds that work may take (None: no limit).
        search: the search whose node count ``nodes`` limits.
        first: its node count when the work began.
        nodes: the most nodes the work may visit (None: no limit).

    Returns:
        (score, spent); the score is None when the budget ran out first (the search
        is then abandoned).
    """
    while True:
        start = time.perf_counter()
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value, spent + time.perf_counter() - start
        spent += time.perf_counter() - start
        if (seconds is not None and spent >= seconds) or \
                (nodes is not None and search.nodes - first >= nodes):
            steps.close()
            return None, spent
        yield


def _settled(search: AlphaBeta, child: Position, score: int) -> bool:
    """Return True when ``child``'s ``score`` cannot change with a deeper search: a game
    end, or a score no evaluation at the horizon went into (``search``'s table says)."""
    return is_game_end(score) or not search.depth_bound(child)
