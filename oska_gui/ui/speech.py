"""The game in words, for screen readers: the position described, and short news.

The board is a canvas, which a screen reader cannot see. So the page keeps two texts
beside it: a description of the position (every piece by its cell name, whose move it
is, the last move), and a live region that announces only what a player cares about
when it happens: a move played, whose turn it is, the end of the game, a message, the
keyboard cursor's cell (what stands there, and whether the piece picked up can go
there), a piece picked up with the cells it can go to, the typed-move line (opened, its
text, its problems, closed) and, on the start screen, the option row the keyboard is on
and its choice. The desktop speaks the same news (``desktop.voice``). The search's
progress (its depth and seconds, which change every frame) is never announced.
"""

from __future__ import annotations

from collections.abc import Mapping

from oska_gui.core.types import SIDE_NAMES, Move
from oska_gui.play.game import GameAdapter, LegalMove, Position

from .app import App
from .game.game_scene import GameScene
from .review.review_scene import ReviewScene


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


def listed(items: list[str]) -> str:
    """Return ``items`` as words: 'c1', 'c1 or c3', 'c1, c3 or d2'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def pick_sentence(game: GameAdapter, cell: int, targets: Mapping[int, LegalMove]) -> str:
    """Return a piece picked up and where it can go, e.g. 'Picked up b2: it can go to
    c1 or c2' or '..., to d3 capturing on c2'.

    Args:
        game: the game on show.
        cell: the cell of the piece picked up.
        targets: the cells it can go to, with their moves.
    """
    places = []
    for to in sorted(targets, key=game.cell_name):
        move = targets[to].move
        capture = f" capturing on {game.cell_name(move.over)}" if move.is_capture else ""
        places.append(game.cell_name(to) + capture)
    return f"Picked up {game.cell_name(cell)}: it can go to {listed(places)}"


def cell_sentence(game: GameAdapter, pos: Position, cell: int, selected: int | None,
                  targets: Mapping[int, LegalMove]) -> str:
    """Return the keyboard cursor's cell in words, e.g. 'c1, empty, b2 can go here'.

    Args:
        game: the game on show.
        pos: the position on the board.
        cell: the cursor's cell.
        selected: the cell of the piece picked up, or None.
        targets: the cells that piece can go to, with their moves.
    """
    side = game.piece_at(pos, cell)
    words = [game.cell_name(cell), "empty" if side is None else f"{SIDE_NAMES[side]} piece"]
    if selected is not None and cell == selected:
        words.append("picked up")
    elif selected is not None and cell in targets:
        move = targets[cell].move
        capture = f" and capture on {game.cell_name(move.over)}" if move.is_capture else ""
        words.append(f"{game.cell_name(selected)} can go here{capture}")
    return ", ".join(words)


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
        self._scene: object = None  # the scene of the last call
        self._board: tuple[int | None, int | None] = (None, None)  # cursor, picked up
        self._line: tuple[bool, str, int] = (False, "", 0)  # open, text, refusals
        self._focus: str | None = None  # the start screen's focus row in words

    def news(self, app: App) -> str | None:
        """Return what changed since the last call, in words, or None if nothing did.

        Args:
            app: the UI App.

        Returns:
            The move just played, the new status, a new message, then the cursor,
            the piece picked up and the typed-move line (in a game) or the option
            row in focus (on the start screen), as sentences.
        """
        scene = app.game if app.scene is app.game else None
        record = None if scene is None else record_of(scene)
        status = app.status_text if scene is None else scene.match.calm_status
        if isinstance(app.scene, ReviewScene):
            status = app.scene.calm_status
        toast = None if scene is None or scene.toast is None else scene.toast[0]
        said = []
        played = scene is not None and record is not None and self._played_one(record)
        if played and scene is not None and record is not None:
            before, after = record[-2], record[-1]
            said.append(move_sentence(scene.game, before[2],
                                      scene.game.move_between(before, after)))
        if status != self._status:
            said.append(status)
        if toast is not None and toast != self._toast and toast != status:
            said.append(toast)
        same_scene = app.scene is self._scene
        if scene is not None:
            said += self._game_news(scene, same_scene, record == self._record)
        elif app.scene is app.start:
            focus = app.start.focus_words()
            if same_scene and focus != self._focus:
                said.append(focus)
            self._focus = focus
        self._record, self._status, self._toast = record, status, toast
        self._scene = app.scene
        return ". ".join(s.rstrip(".…") for s in said) + "." if said else None

    def _game_news(self, scene: GameScene, same_scene: bool, same_record: bool) -> list[str]:
        """Return what changed in ``scene`` for a keyboard player: the cursor's cell,
        a piece picked up or put back by a key (one picked up by a pointer is seen
        highlighted), the typed-move line (nothing the first time a scene is seen: its
        status says enough).

        Args:
            scene: the game on show.
            same_scene: whether it was on show at the last call too.
            same_record: whether no move was played or undone since the last call.
        """
        game, pos = scene.game, scene.match.position
        selected = scene.input.selected
        targets = ({} if selected is None  # the moves only when needed: news runs each frame
                   else scene.input.targets(scene.match.legal_moves(), selected))
        board = (scene.cursor, selected)
        line = scene.line
        typed = (line.open, line.text, line.refusals)
        was_board, was_typed = self._board, self._line
        self._board, self._line = board, typed
        if not same_scene:
            return []
        said = []
        keyed = scene.keyboard  # a pointer's pick-up is seen: only its move is said
        if keyed and selected is not None and selected != was_board[1]:
            said.append(pick_sentence(game, selected, targets))
        elif keyed and selected is None and was_board[1] is not None and same_record:
            said.append(f"Put {game.cell_name(was_board[1])} back")
        if scene.cursor is not None and scene.cursor != was_board[0]:
            said.append(cell_sentence(game, pos, scene.cursor, selected, targets))
        said += self._line_news(scene, was_typed, same_record)
        return said

    def _line_news(self, scene: GameScene, was: tuple[bool, str, int],
                   same_record: bool) -> list[str]:
        """Return what changed on ``scene``'s typed-move line since it was ``was``
        (open, text, refusals): opened (how to use it, and what was already typed when
        keys came quickly), the text typed so far (or that it is empty again, unless a
        move emptied it), a refusal, closed."""
        line = scene.line
        typed = [f"Typed {' '.join(line.text)}"] if line.text else []
        if line.open != was[0]:
            return [scene.line_help(), *typed] if line.open else ["Move line closed"]
        if not line.open:
            return []
        if line.refusals != was[2] and line.problem is not None:
            return [line.problem]
        if line.text != was[1] and (line.text or same_record):
            return typed or ["Line empty"]
        return []

    def _played_one(self, record: list[Position]) -> bool:
        """Return True when ``record`` is the last record seen and one move more (a game
        that has just started counts as its first position seen)."""
        last = self._record if self._record is not None else record[:1]
        return len(record) == len(last) + 1 and record[:-1] == last
