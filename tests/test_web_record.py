"""The move record the page mirrors into ``body[data-moves]``, checked without a browser."""

from __future__ import annotations

from ui_fakes import must_pass_position

from oska_gui.games.oska import oska_rules
from oska_gui.play.game import make_game
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.kit.events import KeyPress
from oska_gui.web.record import MovesMirror, moves_text

HUMAN_VS_BEGINNER = {"levels": ["beginner", "beginner"], "animation": "off"}


def played(texts: list[str], start: object = None) -> list:
    """Return the n = 4 Oska record from ``start`` (default the start) after ``texts``."""
    rules = oska_rules(4)
    positions = [rules.start() if start is None else start]
    for text in texts:
        positions.append(rules.play(positions[-1], rules.parse_move(text, positions[-1])))
    return positions


def test_moves_are_named_in_notation_captures_included() -> None:
    game = make_game("oska", 4)
    texts = ["a2-b1", "e1-d1", "a4-b3", "e2-d2", "a3-b2", "d2-c2", "b2-c1", "d1xb2"]
    assert moves_text(game, played(texts)) == " ".join(texts)
    assert moves_text(game, played([])) == ""


def test_a_forced_pass_is_written_pass() -> None:
    game = make_game("oska", 4)
    stuck = must_pass_position()
    passed = game.pass_child(stuck)
    assert passed is not None
    assert moves_text(game, [stuck, passed]) == "pass"


def test_the_mirror_follows_moves_undo_and_new_games() -> None:
    app = App(MemoryStorage(HUMAN_VS_BEGINNER), 1000, 700)
    mirror = MovesMirror()
    assert mirror.changed_text(app) == ""  # the start screen: no game yet
    assert mirror.changed_text(app) is None
    app.handle(KeyPress("enter"))
    match = app.game.match
    first = played(["a2-b1"])[1]
    assert match.play(first)
    assert mirror.changed_text(app) == "a2-b1"
    assert mirror.changed_text(app) is None
    match.history.push(played(["a2-b1", "e1-d1"])[2])
    assert mirror.changed_text(app) == "a2-b1 e1-d1"
    assert match.undo()  # back to White's turn at the start
    assert mirror.changed_text(app) == ""
    assert mirror.changed_text(app) is None
