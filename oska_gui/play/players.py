"""The one player protocol: every move source of every game loop has this face.

A ``Player`` is asked ``think(position, seconds)``: it works on its move in ``position``
for about ``seconds`` and returns a ``Turn`` once it has decided (None until then; it is
asked again with the same position). A blocking player, such as a fixed-depth search,
answers in its first slice; a sliced one (the time-limited search, an external bot in
its own process) answers when ready, so a frame loop can keep drawing meanwhile. A
``Turn`` holds the child position chosen, or why the player forfeits, and the time it
took. ``status`` says a few words on the work in progress; ``stop`` abandons it;
``close`` releases what the player holds (a bot's process).

The window, self-play, ``oska match``, tournaments, the strength tool and training all
drive players through ``runner.Runner``; the players themselves live in
``search_player`` (this project's AI), ``bot_player`` (external programs) and here
(``DepthPlayer``, ``RandomMoves``, ``ForcedMoves``, ``Unloadable``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Protocol

from oska_gui.core.types import Evaluator, Position, Rules
from oska_gui.engine.search import best_child


@dataclass(frozen=True)
class Turn:
    """A player's answer: the chosen child position, or None with why it forfeits.

    ``reason`` is a short key (see ``bot_process.REASONS``: 'timeout', 'illegal', ...)
    and ``detail`` one line on it; ``seconds`` is the time the player took.
    """

    child: Position | None
    seconds: float
    reason: str | None = None
    detail: str = ""


class Player(Protocol):
    """A move source: blocking (answers in its first slice) or sliced."""

    @property
    def name(self) -> str:
        """Return the player's name for records, reports and the window."""

    @property
    def status(self) -> str:
        """Return a few words on the work in progress, e.g. 'depth 7' ('' when idle)."""

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Work on the move in ``position`` for about ``seconds``.

        Args:
            position: the position to move in (the game is not over there); asked
                again with the same position until the player answers.
            seconds: the time this slice may take.

        Returns:
            The Turn once decided, else None.
        """

    def stop(self) -> None:
        """Abandon the move in progress (the game was taken back or left)."""

    def close(self) -> None:
        """Release what the player holds (a process); it may not be asked again."""


class Idle:
    """The parts of the protocol that a player holding nothing shares: no status,
    nothing to abandon or release."""

    status = ""

    def stop(self) -> None:
        """Nothing to abandon: the player never leaves work unfinished."""

    def close(self) -> None:
        """Nothing to release."""


@dataclass(frozen=True)
class DepthPlayer(Idle):
    """A static evaluator searched exactly ``depth`` plies deep, answering at once."""

    name: str
    evaluate: Evaluator
    depth: int
    rules: Rules

    def think(self, position: Position, seconds: float) -> Turn:
        """Search ``position`` to the player's depth and answer in this slice.

        Args:
            position: the position to move in (not over).
            seconds: unused: the search takes what its depth takes.

        Returns:
            The Turn with the best child found and the time the search took.
        """
        del seconds  # a blocking player answers in its first slice
        start = time.perf_counter()
        child = best_child(self.rules, self.evaluate, position, self.depth)
        return Turn(child, time.perf_counter() - start)


@dataclass
class OwnMoves:
    """Another player, save for the moves this one makes itself (see ``own_move``)."""

    inner: Player
    rules: Rules

    @property
    def name(self) -> str:
        """Return the inner player's name."""
        return self.inner.name

    @property
    def status(self) -> str:
        """Return the inner player's status."""
        return self.inner.status

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Play this player's own move in ``position`` if it has one, else the inner's.

        Args:
            position: the position to move in.
            seconds: the slice, passed on to the inner player.

        Returns:
            The Turn (None while the inner player thinks).
        """
        return self.own_move(position) or self.inner.think(position, seconds)

    def own_move(self, position: Position) -> Turn | None:
        """Return the move this player makes itself in ``position``, or None to ask the
        inner player."""
        raise NotImplementedError

    def stop(self) -> None:
        """Let the inner player abandon its move."""
        self.inner.stop()

    def close(self) -> None:
        """Let the inner player release what it holds."""
        self.inner.close()


@dataclass
class RandomMoves(OwnMoves):
    """Another player that now and then plays a random legal move instead (training)."""

    rng: random.Random
    rate: float

    def own_move(self, position: Position) -> Turn | None:
        """Return a random move with probability ``rate``, else None.

        Args:
            position: the position to move in.

        Returns:
            The random move's Turn, or None.
        """
        if self.rng.random() < self.rate:
            return Turn(self.rng.choice(self.rules.children(position)), 0.0)
        return None


@dataclass
class ForcedMoves(OwnMoves):
    """Another player that is not asked when there is only one move: it is played at once."""

    def own_move(self, position: Position) -> Turn | None:
        """Return the only move in ``position``, if there is only one.

        Args:
            position: the position to move in.

        Returns:
            The forced move's Turn, or None when there is a choice.
        """
        children = self.rules.children(position)
        return Turn(children[0], 0.0) if len(children) == 1 else None


@dataclass(frozen=True)
class Unloadable(Idle):
    """A bot that did not load: it forfeits with the reason 'load' at its first move."""

    name: str
    detail: str

    def think(self, position: Position, seconds: float) -> Turn:
        """Forfeit at once, whatever the position.

        Args:
            position: unused.
            seconds: unused.

        Returns:
            A forfeit with the reason 'load' and why.
        """
        del position, seconds
        return Turn(None, 0.0, "load", self.detail)
