"""The game in words, for screen readers: the position described, and short news.

The board is a canvas, which a screen reader cannot see. So the page keeps two texts
beside it: a description of the position (every piece by its cell name, whose move it
is, the last move), and a live region that announces only what a player cares about
when it happens: a move played, whose turn it is, the end of the game, a message. The
search's progress (its depth and seconds, which change every frame) is never announced.
"""

from __future__ import annotations

from oska_gui.core.types import SIDE_NAMES, Move
from oska_gui.play.game import GameAdapter, Position

from .app import App
from .game_scene import GameScene
from .review_scene import ReviewScene


def move_sentence(game: GameAdapter, side: int, move: Move) -> str:
    """Return a move in words, e.g. 'White moves b2 to c1' or 'Black captures, c3 to a1'.

    Args:
        game: the game the move was played in.
        side: who played it (WHITE = 0, BLACK = 1).
        move: the move.

    Returns:
        The sentence, without a full stop.
    """
    who = SIDE_NAMES[side]
    if move.is_pass:
        return f"{who} passes"
    frm, to = game.cell_name(move.frm), game.cell_name(move.to)
    if move.is_capture:
        return f"{who} jumps {frm} to {to} and captures on {game.cell_name(move.over)}"
    return f"{who} moves {frm} to {to}"


def pieces_sentence(game: GameAdapter, pos: Position, side: int) -> str:
    """Return where ``side``'s pieces stand, e.g. 'White, 2 pieces: a1, b2'."""
    cells = [game.cell_name(cell) for cell in range(game.cell_count)
             if game.piece_at(pos, cell) == side]
    count = f"{len(cells)} piece{'' if len(cells) == 1 else 's'}"
    return f"{SIDE_NAMES[side]}, {count}: {', '.join(cells) or 'none'}"


def record_of(scene: GameScene) -> list[Position]:
    """Return the positions of ``scene``'s game from the first to the one on the board."""
    history = scene.match.history
    return history.positions[:history.cursor + 1]


def describe(app: App) -> str:
    """Return the screen in words: the position, whose turn, the last move.

    Args:
        app: the UI App.

    Returns:
        On the start screen its status line; in a game a few sentences; in a review
        the move looked at (its mark, the better move) and the position.
    """
    if isinstance(app.scene, ReviewScene):
        return review_description(app.scene)
    scene = app.game
    if scene is None or app.scene is not scene:
        return app.status_text
    game, record = scene.game, record_of(scene)
    pos = record[-1]
    sentences = [f"{game.info.title}, {game.info.size_text(game.n)}", scene.match.calm_status,
                 pieces_sentence(game, pos, 0), pieces_sentence(game, pos, 1)]
    if len(record) > 1:
        before = record[-2]
        sentences.append("Last move: " + move_sentence(game, before[2],
                                                        game.move_between(before, pos)))
    return ". ".join(sentences) + "."


def review_description(scene: ReviewScene) -> str:
    """Return the review screen in words: the move looked at with its mark and the
    better move, White's win chance, each side's summary and the position."""
    session = scene.session
    game, pos = session.game, session.position
    sentences = [scene.calm_status, session.summary(0), session.summary(1),
                 pieces_sentence(game, pos, 0), pieces_sentence(game, pos, 1)]
    if session.progress:
        sentences.append(session.progress.capitalize())
    return ". ".join(sentences) + "."


class Announcer:
    """Follows the App frame by frame and words what changed that a player cares about."""

    def __init__(self) -> None:
        """Start having announced nothing."""
        self._record: list[Position] | None = None
        self._status: str | None = None
        self._toast: str | None = None

    def news(self, app: App) -> str | None:
        """Return what changed since the last call, in words, or None if nothing did.

        Args:
            app: the UI App.

        Returns:
            The move just played, the new status and a new message, as sentences.
        """
        scene = app.game if app.scene is app.game else None
        record = None if scene is None else record_of(scene)
        status = app.status_text if scene is None else scene.match.calm_status
        if isinstance(app.scene, ReviewScene):
            status = app.scene.calm_status
        toast = None if scene is None or scene.toast is None else scene.toast[0]
        said = []
        if scene is not None and record is not None and self._played_one(record):
            before, after = record[-2], record[-1]
            said.append(move_sentence(scene.game, before[2],
                                      scene.game.move_between(before, after)))
        if status != self._status:
            said.append(status)
        if toast is not None and toast != self._toast and toast != status:
            said.append(toast)
        self._record, self._status, self._toast = record, status, toast
        return ". ".join(s.rstrip(".…") for s in said) + "." if said else None

    def _played_one(self, record: list[Position]) -> bool:
        """Return True when ``record`` is the last record seen and one move more (a game
        that has just started counts as its first position seen)."""
        last = self._record if self._record is not None else record[:1]
        return len(record) == len(last) + 1 and record[:-1] == last
