"""Game records on the page: the moves mirrored into the DOM, and record files opened.

The page mirrors the record of the App's current game into the DOM next to the status
line (``body[data-moves]``), so tests and tools can follow the game exactly (which
move was played, how many) instead of guessing from short-lived status texts; on the
review screen ``body[data-review]`` says how far the analysis is and the marks so far
(``review_text``). A record file the player opens (a file picker, or dropped on the
page) is read with the checks of ``main.py --replay`` and reviewed (``open_record``).
Runs without a browser.
"""

from __future__ import annotations

from oska_gui.play.game import GameAdapter, Position
from oska_gui.play.records import RecordError, move_texts, parse, record_text
from oska_gui.play.share import (
    ShareError,
    file_name,
    fragment,
    record_from_fragment,
    shared_words,
)

from ..ui.app import App
from ..ui.kit.intents import OpenKept, Use
from ..ui.review.review_scene import ReviewScene


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


def review_text(app: App) -> str:
    """Return the review on show as '<positions analysed>/<positions> <marks>', the
    marks being each move's mark word in order ('best good mistake ...'); '' when no
    review is on show."""
    scene = app.scene
    if not isinstance(scene, ReviewScene):
        return ""
    review = scene.session.review
    marks = " ".join(ply.mark_word for ply in review.plies)
    return f"{len(review.assessments)}/{len(review.positions)} {marks}".rstrip()


def open_record(app: App, raw: bytes, name: str) -> str:
    """Open the record file ``name`` (its bytes ``raw``) in ``app``: replayed and its
    review on show.

    Returns:
        '' once it is open, else why it cannot be (the file is left alone).
    """
    try:
        record = parse(raw, name)
    except RecordError as error:
        return f"Cannot open {name}: {str(error).removeprefix(name + ': ')}"
    app.review_record(record)
    return ""


def open_link(app: App, hash_text: str) -> str:
    """Open the game of the share link ``hash_text`` (the page's ``location.hash``) in
    ``app``'s replay, at its start, its players and result said first.

    Args:
        app: the UI App.
        hash_text: '#record=' and the base64url of a record's JSON, from anyone.

    Returns:
        '' once it is open, else one line saying why it cannot be (then nothing has
        changed: the game on show, the saved game and the history are as they were).
    """
    try:
        record = record_from_fragment(hash_text)
    except ShareError as error:
        return f"Cannot open the shared game: {error}"
    app.replay(record, intro=shared_words(record))
    return ""


def exported(request: OpenKept | None) -> dict[str, str] | None:
    """Return what the page needs to carry out a Games screen's export request (None
    for none): ``kind`` 'file' with the file's ``name`` and ``text``, or 'link' with the
    share link's ``fragment`` (the page adds its own address)."""
    if request is None:
        return None
    record = request.game.record
    if request.use == Use.LINK:
        return {"kind": "link", "fragment": fragment(record)}
    return {"kind": "file", "name": file_name(record, request.game.kept),
            "text": record_text(record)}
