"""Hints for the human: the best move found within a second, never a careless one.

A hint that hands the opponent a capture at once looks like a blunder to a player, and
often is one that the search's horizon hid. So a hint that hangs a piece is only given
when something proves it best: the exact solver chose it, the search found it wins by
force, or a search two plies deeper still prefers it. Otherwise the hint is the best of
the moves that hang nothing, found by the same search restricted to them (if there are
any). Like every player it works in slices and never blocks, and all of it together
takes at most the hint level's time (plus one slice).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from oska_gui.engine.search import Thinker, is_game_end
from oska_gui.play.game import GameAdapter, Position
from oska_gui.play.levels import HINT_LEVEL, HINT_SECONDS
from oska_gui.play.search_player import SearchPlayer, release

from .memory import Reclaimer

VERIFY_PLIES = 2  # how much deeper the check of a hanging move searches
FIND_SHARE = 0.6  # of the hint's time, the share of the first search: the rest checks it


def hangs_piece(game: GameAdapter, child: Position) -> bool:
    """Return True when the opponent, to move in ``child``, can capture at once."""
    return any(legal.move.is_capture for legal in game.legal_moves(child))


class RootChoices:
    """A game in which the root position offers only some of its moves.

    Everything else is the game itself, so a search of it is the search of the game
    with the other root moves taken away.
    """

    def __init__(self, game: Any, root: Position, allowed: list[Position]) -> None:
        """Offer only the children ``allowed`` at ``root`` of ``game`` (rules object)."""
        self.game, self.root, self.allowed = game, root, allowed
        self.stuck_result = game.stuck_result

    def children(self, state: Position) -> list[Position]:
        """Return the children of ``state``: the allowed ones at the root."""
        if state == self.root:
            return list(self.allowed)
        return self.game.children(state)

    def terminal(self, state: Position) -> int | None:
        """Return the game's own verdict on ``state``."""
        return self.game.terminal(state)


class HintPlayer:
    """The hint: a ``SearchPlayer`` at the hint level, then a check of a hanging move."""

    def __init__(self, game: GameAdapter, reclaimer: Reclaimer | None = None) -> None:
        """Prepare hints on ``game`` with its best evaluator.

        Args:
            game: the game played.
            reclaimer: frees spent search tables a little per frame (None: at once).
        """
        self.game = game
        self.reclaimer = reclaimer
        self.name = "Hint"
        finder_level = replace(HINT_LEVEL, seconds=HINT_SECONDS * FIND_SHARE)
        self._finder = SearchPlayer(game, finder_level, game.evaluator_names()[0], reclaimer)
        self._check: Thinker | None = None
        self._safe: Thinker | None = None
        self._position: Position | None = None
        self._candidate: Position | None = None
        self._depth = 0

    def start(self, position: Position) -> None:
        """Begin looking for a hint in ``position``."""
        self.stop()
        self._position = position
        self._finder.start(position)

    def advance(self, seconds: float) -> Position | None:
        """Work for about ``seconds``; return the suggested child once decided, else None."""
        if self._check is not None and self._position is not None:
            return self._advance_check(self._check, self._position, seconds)
        if self._safe is not None:
            return self._advance_safe(self._safe, seconds)
        child = self._finder.advance(seconds)
        if child is None:
            return None
        if self._finder.solution is not None or not hangs_piece(self.game, child):
            return child
        progress = self._finder.last_progress
        if progress is not None and is_game_end(progress.score) and progress.score > 0:
            return child  # a forced win: the capture does not matter
        self._candidate, self._depth = child, progress.depth if progress else 1
        self._check = self._thinker(self.game.rules, self._depth + VERIFY_PLIES)
        return None

    def _advance_check(self, check: Thinker, position: Position,
                       seconds: float) -> Position | None:
        """Run the deeper search ``check`` of ``position``; keep the hanging move if it still
        comes out best."""
        if not check.advance(seconds):
            return None
        self._check = None
        release(check.search, self.reclaimer)
        if check.progress.depth >= self._depth + VERIFY_PLIES and check.best == self._candidate:
            return self._candidate
        safe = [kid for kid in self.game.children(position)
                if not hangs_piece(self.game, kid)]
        if not safe:
            return check.best
        self._safe = self._thinker(RootChoices(self.game.rules, position, safe),
                                   self._depth)
        return None

    def _advance_safe(self, safe: Thinker, seconds: float) -> Position | None:
        """Run the search ``safe`` among the moves that hang nothing; return its best."""
        if not safe.advance(seconds):
            return None
        self._safe = None
        release(safe.search, self.reclaimer)
        return safe.best

    def _thinker(self, game: Any, depth: int) -> Thinker:
        """Return a search of the hint position on ``game`` to ``depth``, within what is
        left of the hint's time (its clock is the first search's)."""
        discard = self.reclaimer.take if self.reclaimer is not None else None
        return Thinker(game, self._finder.evaluate, self._position, depth,
                       HINT_SECONDS, discard, self._finder.clock)

    @property
    def proven(self) -> str:
        """Return the exact result behind the last hint, in words, or '' if not known."""
        solution = self._finder.solution
        if solution is None:
            return ""
        verdict = {1: "you win", 0: "a draw", -1: "you lose"}[solution.result]
        return f"with perfect play {verdict} in {solution.plies} plies"

    @property
    def status(self) -> str:
        """Return what the hint is doing, in a few words."""
        if self._check is not None:
            return "checking a move that gives up a piece…"
        if self._safe is not None:
            return "looking for a safer move…"
        return self._finder.status

    def stop(self) -> None:
        """Abandon the hint in progress."""
        self._finder.stop()
        for thinker in (self._check, self._safe):
            if thinker is not None:
                release(thinker.search, self.reclaimer)
        self._check = self._safe = None

