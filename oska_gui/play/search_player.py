"""This project's AI as a player: the exact solver where it fits, else alpha-beta.

``SearchPlayer`` plays a ``levels.Level``: alpha-beta (``search.Thinker``) to a depth or
for a time budget, optionally asking the exact solver first (``solver.SolveJob``),
which answers when the position is small enough: the 'perfect' level for the whole game
on small boards, the 'strongest' level for endgames. Where the board's solved game is
kept on this computer (``oska solve --n 5 --save``), a level that uses the solver reads
its move from there first, at once; depth and time levels never do, so fixed-depth play
stays the same everywhere. It works in slices and never blocks, so the window keeps
drawing while it thinks, on the desktop and in the browser alike; the commands play it
to the end of each move.
"""

from __future__ import annotations

from typing import Protocol

from oska_gui.engine.clock import ThinkingClock
from oska_gui.engine.search import (
    AlphaBeta,
    Progress,
    Thinker,
    deepening_step,
    is_game_end,
    plies_to_end,
)
from oska_gui.engine.solver import Solution, SolveJob

from .game import GameAdapter, Position
from .levels import LEVELS_BY_KEY, Ai, Level, playable_level
from .players import Turn

# The share of a timed level's thinking time an endgame solve may take before the
# level gives up on it and searches instead, with the time left.
SOLVE_SHARE = 0.5


class TableSink(Protocol):
    """Where a finished search's tables go to be freed bit by bit (``session.memory.Reclaimer``)."""

    def take(self, *tables: dict) -> None:
        """Take over ``tables``, which nobody reads or writes any more."""


def release(search: AlphaBeta, reclaimer: TableSink | None) -> None:
    """Hand a finished or abandoned search's tables to ``reclaimer`` (None: drop them)."""
    if reclaimer is not None:
        reclaimer.take(search.table, search.static, search.moves)


class SearchPlayer:
    """The computer: exact solver when the position is small enough, else alpha-beta.

    ``think`` is the runner's question; ``start`` and ``advance`` the same work for a
    caller that keeps the position itself (the hint).
    """

    def __init__(self, game: GameAdapter, level: Level, evaluator: str,
                 reclaimer: TableSink | None = None, name: str | None = None) -> None:
        """Prepare a player of ``level`` using the evaluator called ``evaluator``.

        Args:
            game: the game played.
            level: the strength.
            evaluator: the name of one of ``game``'s evaluators.
            reclaimer: where the tables of a finished or abandoned search go to be
                freed a little per frame (None: they are freed at once).
            name: the player's name (default: the level's, e.g. 'Hard · looks 5 moves ahead').
        """
        self.game = game
        self.level = level
        self.evaluate = game.evaluator(evaluator)
        self.reclaimer = reclaimer
        self.name = name or f"{level.name} · {level.describe()}"
        self._job: SolveJob | None = None
        self._thinker: Thinker | None = None
        self._position: Position | None = None
        self.clock = ThinkingClock()  # the move in progress's wall-clock time
        # how the last move was chosen: by the exact solver, or the search's last result
        self.solution: Solution | None = None  # the exact value, when the solver chose
        self.last_progress: Progress | None = None
        self.saved_moves = 0  # moves read from the saved solved game, all games together
        self._answer: Position | None = None  # a move known at once, for ``advance``

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Work on the move in ``position`` for about ``seconds``; the Turn once decided.

        Args:
            position: the position to move in; another than the one in progress
                starts a new search.
            seconds: the slice's length.

        Returns:
            The Turn with the chosen child and the thinking time, or None.
        """
        if position != self._position:
            self.start(position)
        child = self.advance(seconds)
        if child is None:
            return None
        self._position = None
        return Turn(child, self.clock.elapsed)

    def start(self, position: Position) -> None:
        """Begin choosing a move in ``position``: the solver first if the level allows it."""
        self.stop()
        self._position = position
        self.clock = ThinkingClock()
        self.solution, self.last_progress = None, None
        if self.level.solve and self._read_saved(position):
            return
        if self._worth_solving(position):
            self._job = SolveJob(self.game.rules, position, self.level.solve)
        else:
            self._start_search()

    def _read_saved(self, position: Position) -> bool:
        """Take the best move of ``position`` from the saved solved game, if it knows it.

        Returns:
            True when it did: ``advance`` then answers at once.
        """
        found = self.game.solved_children(position)
        if found is None:
            return False
        self._answer, self.solution = found[0][0]
        self.saved_moves += 1
        return True

    def _worth_solving(self, position: Position) -> bool:
        """Return True when the level uses the solver and ``position`` may be small enough."""
        level = self.level
        if not level.solve:
            return False
        return level.solve_race is None or self.game.race_length(position) <= level.solve_race

    def _start_search(self) -> None:
        """Switch to (or start with) the alpha-beta search of the current position."""
        self._job = None
        discard = self.reclaimer.take if self.reclaimer is not None else None
        seconds = self.level.seconds
        self._thinker = Thinker(self.game.rules, self.evaluate, self._position,
                                self.level.depth, seconds, discard, self.clock,
                                deepening_step(seconds))

    def advance(self, seconds: float) -> Position | None:
        """Work for about ``seconds``; return the chosen child once decided, else None."""
        if self._answer is not None:
            answer, self._answer = self._answer, None
            return answer
        job, thinker = self._job, self._thinker
        if job is not None:
            return self._advance_solve(job, seconds)
        if thinker is None:
            return None
        if thinker.advance(seconds):
            self._drop_thinker()
            self.last_progress = thinker.progress
            return thinker.best
        return None

    def _advance_solve(self, job: SolveJob, seconds: float) -> Position | None:
        """Work on the exact solution; search instead once it proves too big or slow.

        Args:
            job: the solve in progress.
            seconds: how long to work in this slice.

        Returns:
            The perfect child once solved, else None.
        """
        self.clock.resume()
        done = job.advance(seconds)
        self.clock.pause()
        if done and not job.too_big:
            self._job = None
            self.solution = job.solution
            return job.best
        if done or self._solve_overdue():
            self._start_search()
        return None

    def _solve_overdue(self) -> bool:
        """Return True when an endgame solve has used its share of a timed level's time."""
        level = self.level
        return (level.seconds is not None and not level.perfect
                and self.clock.elapsed >= level.seconds * SOLVE_SHARE)

    def _drop_thinker(self) -> None:
        """Let go of the search, handing its tables to the reclaimer (if any)."""
        thinker, self._thinker = self._thinker, None
        if thinker is not None:
            release(thinker.search, self.reclaimer)

    @property
    def status(self) -> str:
        """Return the work in progress in plain words: 'solving exactly…' or 'looking N
        moves ahead' (the search depth: one move is one side's; with a win or loss
        found, 'sees a win in M moves'), then the seconds spent so far, e.g. 'looking 9
        moves ahead · 1.2 s'; '' when not thinking."""
        if self._job is not None:
            return f"solving exactly… · {self.clock.elapsed:.1f} s"
        if self._thinker is None:
            return ""
        progress = self._thinker.progress
        depth = progress.depth
        text = f"looking {depth} move{'' if depth == 1 else 's'} ahead"
        if depth and is_game_end(progress.score):
            verdict = "win" if progress.score > 0 else "loss"
            text += f", sees a {verdict} in {plies_to_end(progress.score)} moves"
        return f"{text} · {self.clock.elapsed:.1f} s"

    def stop(self) -> None:
        """Abandon the move in progress."""
        self._job = self._answer = None
        self._position = None
        self._drop_thinker()

    def close(self) -> None:
        """Abandon the move in progress: the search holds no process."""
        self.stop()



def make_player(game: GameAdapter, level_key: str, evaluator: str,
                reclaimer: TableSink | None = None) -> SearchPlayer:
    """Return the computer player of the level called ``level_key`` on ``game``.

    Args:
        game: the game played.
        level_key: a key of ``levels.LEVELS_BY_KEY``; 'perfect' on a board the solver
            does not cover plays 'strongest'.
        evaluator: the evaluator's name; one ``game`` lacks falls back to its best.
        reclaimer: frees the player's spent search tables a little per frame.

    Returns:
        The player.

    Raises:
        ValueError: for an unknown level.
    """
    level = playable_level(level_key, game.perfect_available)
    if evaluator not in game.evaluator_names():
        evaluator = game.evaluator_names()[0]
    return SearchPlayer(game, level, evaluator, reclaimer)


def ai_player(game: GameAdapter, ai: Ai) -> SearchPlayer:
    """Return the AI the commands give as text (``levels.parse_ai``) as a player.

    Args:
        game: the game played.
        ai: the level and evaluator.

    Returns:
        The player, named as ``ai`` describes itself ('AI depth 4 (strong)').
    """
    level = playable_level(ai.level.key, game.perfect_available) \
        if ai.level.key in LEVELS_BY_KEY else ai.level
    return SearchPlayer(game, level, ai.evaluator, name=ai.describe())
