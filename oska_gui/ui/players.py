"""Computer players behind one non-blocking interface, and the named strength levels.

A ``Player`` is the game runner's (``play.runner.Player``) with a status line: asked
``think(position, seconds)`` with a few milliseconds per frame, it returns a ``Turn``
(the chosen child, or why it forfeits) once it has decided, None until then. Nothing
blocks, so the window keeps drawing while the computer thinks, on the desktop and in
the browser alike; the command line plays the same players to the end of each move.

- ``SearchPlayer``: alpha-beta (``search.Thinker``) to a depth or for a time budget,
  optionally asking the exact solver first (``solver.SolveJob``), which answers when
  the position is small enough: the 'perfect' level for the whole game on small boards,
  the 'strongest' level for endgames.
- ``BoardBotPlayer``: any ``oskaplayer``-style bot behind a request / poll interface
  (the process-isolated ``external.ExternalPlayer`` fits), for games against other
  people's programs. A ``BotSource`` offers such a bot for one side; the desktop makes
  them (``desktop.bots``) from the command line. Nothing here starts a process, so the
  browser, which has none, uses this module as it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Protocol

from oska_gui.engine.clock import ThinkingClock
from oska_gui.engine.search import Progress, Thinker, is_game_end, plies_to_end
from oska_gui.engine.solver import Solution, SolveJob
from oska_gui.play import runner
from oska_gui.play.runner import Turn

from .games import GameAdapter, Position
from .memory import Reclaimer
from .settings import LevelKey

ENDGAME_POSITIONS = 30_000  # the most positions the 'strongest' level solves exactly
# Try the endgame solver only when both sides together have at most this many rows
# still to travel: measured on random Oska positions, more rarely fits the budget and
# trying costs the budget's worth of work.
ENDGAME_RACE = 24
PERFECT_POSITIONS = 2_000_000
MAX_DEPTH = 64
# The share of a timed level's thinking time an endgame solve may take before the
# level gives up on it and searches instead, with the time left.
SOLVE_SHARE = 0.5


@dataclass(frozen=True)
class Level:
    """A named strength: a search depth, a thinking-time budget, or the exact solver.

    ``depth`` caps the search; ``seconds`` (if set) is the thinking time; ``solve`` is the
    most positions the exact solver may take on before the search is used instead, and
    ``solve_race`` (if set) the most rows left to travel at which it is worth trying.
    """

    key: str
    name: str
    depth: int = MAX_DEPTH
    seconds: float | None = None
    solve: int = 0
    solve_race: int | None = None

    def describe(self) -> str:
        """Return how the level plays, e.g. 'depth 5', 'up to 2 s' or 'plays perfectly'."""
        if self.solve >= PERFECT_POSITIONS:
            return "plays perfectly"
        if self.seconds is not None:
            return f"up to {self.seconds:g} s"
        return f"depth {self.depth}"


LEVELS = (
    Level("beginner", "Beginner", depth=1),
    Level("easy", "Easy", depth=2),
    Level("medium", "Medium", depth=3),
    Level("hard", "Hard", depth=5),
    Level("expert", "Expert", depth=7),
    Level("master", "Master", seconds=2.0),
    Level("strongest", "Strongest", seconds=6.0, solve=ENDGAME_POSITIONS,
          solve_race=ENDGAME_RACE),
    Level("perfect", "Perfect", seconds=6.0, solve=PERFECT_POSITIONS),
)
LEVELS_BY_KEY = {level.key: level for level in LEVELS}
HINT_SECONDS = 1.0  # all the thinking a hint may take
HINT_LEVEL = Level("hint", "Hint", seconds=HINT_SECONDS, solve=ENDGAME_POSITIONS,
                   solve_race=ENDGAME_RACE)


def levels_for(game: GameAdapter) -> tuple[Level, ...]:
    """Return the levels offered on ``game``'s board ('perfect' only where it is exact)."""
    return tuple(level for level in LEVELS
                 if level.key != LevelKey.PERFECT or game.perfect_available)


class Player(runner.Player, Protocol):
    """A move source the UI can drive frame by frame without blocking.

    A Turn without a child is a forfeit (an external bot that crashed or answered
    nonsense); its ``detail`` says why in words, and the game ends there.
    """

    @property
    def status(self) -> str:
        """Return a few words on the work in progress, e.g. 'depth 7'."""


def release(thinker: Thinker, reclaimer: Reclaimer | None) -> None:
    """Hand a finished or abandoned search's tables to ``reclaimer`` (None: drop them)."""
    if reclaimer is not None:
        reclaimer.take(thinker.search.table, thinker.search.static, thinker.search.moves)


class SearchPlayer:
    """The computer: exact solver when the position is small enough, else alpha-beta.

    ``think`` is the runner's question; ``start`` and ``advance`` the same work for a
    caller that keeps the position itself (the hint).
    """

    def __init__(self, game: GameAdapter, level: Level, evaluator: str,
                 reclaimer: Reclaimer | None = None) -> None:
        """Prepare a player of ``level`` using the evaluator called ``evaluator``.

        Args:
            game: the game played.
            level: the strength.
            evaluator: the name of one of ``game``'s evaluators.
            reclaimer: where the tables of a finished or abandoned search go to be
                freed a little per frame (None: they are freed at once).
        """
        self.game = game
        self.level = level
        self.evaluate = game.evaluator(evaluator)
        self.reclaimer = reclaimer
        self.name = f"{level.name} · {level.describe()}"
        self._job: SolveJob | None = None
        self._thinker: Thinker | None = None
        self._position: Position | None = None
        self.clock = ThinkingClock()  # the move in progress's wall-clock time
        # how the last move was chosen: by the exact solver, or the search's last result
        self.solution: Solution | None = None  # the exact value, when the solver chose
        self.last_progress: Progress | None = None

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
        if self._worth_solving(position):
            self._job = SolveJob(self.game.rules, position, self.level.solve)
        else:
            self._start_search()

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
        self._thinker = Thinker(self.game.rules, self.evaluate, self._position,
                                self.level.depth, self.level.seconds, discard, self.clock)

    def advance(self, seconds: float) -> Position | None:
        """Work for about ``seconds``; return the chosen child once decided, else None."""
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
        return (level.seconds is not None and level.solve < PERFECT_POSITIONS
                and self.clock.elapsed >= level.seconds * SOLVE_SHARE)

    def _drop_thinker(self) -> None:
        """Let go of the search, handing its tables to the reclaimer (if any)."""
        thinker, self._thinker = self._thinker, None
        if thinker is not None:
            release(thinker, self.reclaimer)

    @property
    def status(self) -> str:
        """Return 'solving exactly…' or 'depth N' (with a found win or loss), then the
        seconds spent so far, e.g. 'depth 9 · 1.2 s'; '' when not thinking."""
        if self._job is not None:
            return f"solving exactly… · {self.clock.elapsed:.1f} s"
        if self._thinker is None:
            return ""
        progress = self._thinker.progress
        text = f"depth {progress.depth}"
        if progress.depth and is_game_end(progress.score):
            verdict = "wins" if progress.score > 0 else "loses"
            text += f", {verdict} in {plies_to_end(progress.score)}"
        return f"{text} · {self.clock.elapsed:.1f} s"

    def stop(self) -> None:
        """Abandon the move in progress."""
        self._job = None
        self._position = None
        self._drop_thinker()


class BoardBot(Protocol):
    """A bot answering ``oskaplayer(board, player, depth)`` asynchronously.

    ``external.ExternalPlayer`` has this shape: ``name`` is its 'path/bot.py:function';
    ``poll()`` returns None while the bot thinks, then a reply with ``ok``, ``board``
    (row strings), ``reason`` (a short key), ``seconds`` (the bot's time) and
    ``describe()`` (why it forfeits, as a sentence).
    """

    @property
    def name(self) -> str:
        """Return the bot's name: 'path/bot.py:function'."""

    def request(self, board: list[str], player: str, depth: int) -> None:
        """Ask for the bot's move."""

    def poll(self) -> Any:
        """Return the reply when it has come, else None."""

    def cancel(self) -> None:
        """Abandon the request in progress."""


def bot_label(spec: str) -> str:
    """Return a short name of the bot 'path/to/bot.py:function': 'bot.py', or
    'bot.py:function' when the function is not the usual 'oskaplayer'."""
    path, _, function = spec.rpartition(":")
    name = PurePath(path).name
    return name if function == "oskaplayer" else f"{name}:{function}"


class BoardBotPlayer:
    """An Oska player backed by a ``BoardBot`` (e.g. another person's oskaplayer file)."""

    def __init__(self, game: GameAdapter, bot: BoardBot, depth: int) -> None:
        """Let ``bot`` play on ``game`` (an Oska board), asking it to search ``depth`` plies."""
        self.game = game
        self.bot = bot
        self.depth = depth
        self.name = f"bot {bot_label(bot.name)}"
        self._asked: Position | None = None  # the position the bot was sent

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Send ``position`` to the bot (once); return its Turn once it has answered.

        Args:
            position: the position to move in; another than the one asked about
                cancels that request and asks anew.
            seconds: the slice; the bot runs elsewhere, so this only looks for its
                answer (see ``_reply``).

        Returns:
            The Turn with the bot's move, or a forfeit with its reason and why (see
            ``_why``; an answer that is not a legal move too), or None while the bot
            thinks.
        """
        if position != self._asked:
            self.stop()
            self.bot.request(self.game.board_rows(position), "wb"[position[2]], self.depth)
            self._asked = position
        reply = self._reply(seconds)
        if reply is None:
            return None
        self._asked = None
        if not reply.ok:
            return Turn(None, reply.seconds, reply.reason, self._why(reply))
        child = self._child_of(position, reply.board)
        if child is None:
            return Turn(None, reply.seconds, "illegal",
                        "it returned a board no legal move produces")
        return Turn(child, reply.seconds)

    def _reply(self, seconds: float) -> Any:
        """Return the bot's reply if it has come, else None, without waiting (a frame)."""
        del seconds  # the window's frame must not wait for the bot
        return self.bot.poll()

    def _why(self, reply: Any) -> str:
        """Return why the bot forfeits, as a sentence for the window's status line."""
        return reply.describe()

    def _child_of(self, position: Position, rows: list[str]) -> Position | None:
        """Return the child of ``position`` whose board is ``rows``, or None.

        A forced pass counts: its board is the unchanged one, the answer a bot gives
        when it has no move (the window plays passes itself; a runner asks the bot).
        """
        for child in self.game.children(position):
            if self.game.board_rows(child) == list(rows):
                return child
        return None

    @property
    def status(self) -> str:
        """Return 'waiting for the bot' while a request is open, else ''."""
        return "waiting for the bot" if self._asked is not None else ""

    def stop(self) -> None:
        """Cancel the open request, if any."""
        if self._asked is not None:
            self.bot.cancel()
            self._asked = None


class BotSource(Protocol):
    """An external bot offered for one side, e.g. ``desktop.bots.ExternalBot``.

    ``label`` is its short name (see ``bot_label``) for the start screen.
    """

    label: str

    def player(self, game: GameAdapter) -> Player:
        """Return the bot as the player of a new game of ``game`` (Oska only)."""

    def close(self) -> None:
        """Stop whatever runs the bot (its process); ``player`` may start it again."""


def make_player(game: GameAdapter, level_key: str, evaluator: str,
                reclaimer: Reclaimer | None = None) -> SearchPlayer:
    """Return the computer player of the level called ``level_key`` on ``game``.

    'perfect' on a board the solver does not cover falls back to 'strongest'; an
    unknown level raises ValueError. ``reclaimer`` frees the player's spent search
    tables a little per frame (see ``SearchPlayer``).
    """
    if level_key not in LEVELS_BY_KEY:
        raise ValueError(f"unknown level {level_key!r}; choose one of {list(LEVELS_BY_KEY)}")
    level = LEVELS_BY_KEY[level_key]
    if level.key == LevelKey.PERFECT and not game.perfect_available:
        level = LEVELS_BY_KEY[LevelKey.STRONGEST]
    if evaluator not in game.evaluator_names():
        evaluator = game.evaluator_names()[0]
    return SearchPlayer(game, level, evaluator, reclaimer)
