"""A finished tournament game as plain data: what the store keeps and the tables count."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveTimes:
    """One side's thinking times in a game: moves timed, their total and the longest."""

    moves: int = 0
    total: float = 0.0
    longest: float = 0.0

    @classmethod
    def of(cls, seconds: list[float]) -> MoveTimes:
        """Return the times of ``seconds`` (one entry per timed move)."""
        return cls(len(seconds), sum(seconds), max(seconds, default=0.0))


@dataclass(frozen=True)
class GameResult:
    """One finished game: who played which colour, who won, how and how fast.

    ``winner`` is 0 (White), 1 (Black) or None (a draw); ``forfeit`` is the reason key
    of the side that forfeited (see ``oska_gui.bots.bot_process.REASONS``) or None.
    """

    game_id: str
    white: str
    black: str
    winner: int | None
    reason: str
    forfeit: str | None
    plies: int
    white_times: MoveTimes
    black_times: MoveTimes

    def score_of_white(self) -> float:
        """Return White's points: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return 0.5 if self.winner is None else float(self.winner == 0)

    @property
    def loser(self) -> str | None:
        """Return the name of the side that lost, or None for a draw."""
        if self.winner is None:
            return None
        return self.black if self.winner == 0 else self.white
