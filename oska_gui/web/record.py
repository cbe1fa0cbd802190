"""The moves of the game on the page, in notation, for ``body[data-moves]``.

The page mirrors the record of the App's current game into the DOM next to the status
line, so tests and tools can follow the game exactly (which move was played, how many)
instead of guessing from short-lived status texts. Runs without a browser.
"""

from __future__ import annotations

from oska_gui.play.game import GameAdapter, Position
from oska_gui.play.records import move_texts

from ..ui.app import App


def moves_text(game: GameAdapter, positions: list[Position]) -> str:
    """Return the moves between consecutive ``positions`` in ``game``'s notation.

    Args:
        game: the game the positions belong to.
        positions: a game record from its first position on.

    Returns:
        The moves separated by single spaces ('a2-b1 e1-d1 pass ...'); '' for none.
    """
    return " ".join(move_texts(game.rules, positions))


class MovesMirror:
    """Follows the App's game record and gives its text whenever it has changed."""

    def __init__(self) -> None:
        """Start with nothing shown yet."""
        self.shown: list[Position] | None = None

    def changed_text(self, app: App) -> str | None:
        """Return the moves of ``app``'s game up to the position on the board.

        Args:
            app: the UI App (before any game is started its record is empty).

        Returns:
            The text from ``moves_text``, or None when the record is what was last shown.
        """
        scene = app.game
        positions: list[Position] = []
        if scene is not None:
            history = scene.match.history
            positions = history.positions[:history.cursor + 1]
        if positions == self.shown:
            return None
        self.shown = positions
        return "" if scene is None else moves_text(scene.game, positions)
