"""The review screen without a screen: opening it, its marks, graph and arrow, input by
keys, mouse and touch, its words for screen readers, and readable text at every size."""

from __future__ import annotations

import json
import random
import re

import pytest
from ui_fakes import TEXT_WIDTH_PER_CHAR, RecordingCanvas

from oska_gui.engine.solver import solver_for
from oska_gui.games.oska import oska_rules
from oska_gui.games.pawns import pawn_rules
from oska_gui.play import records
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.marks import Mark
from oska_gui.session.memory import Reclaimer
from oska_gui.session.review import ReviewSession
from oska_gui.session.settings import MemoryStorage
from oska_gui.ui.app import App
from oska_gui.ui.game.commands import Command
from oska_gui.ui.game.game_scene import GameScene
from oska_gui.ui.kit import theme
from oska_gui.ui.kit.events import KeyPress, PointerDown, Resize
from oska_gui.ui.kit.rect import Rect
from oska_gui.ui.kit.typescale import MIN_TEXT, TOUCH_TARGET
from oska_gui.ui.review.review_layout import BACK, NEXT, PREVIOUS, graph_x, move_cells
from oska_gui.ui.review.review_scene import ReviewScene
from oska_gui.ui.review.review_view import TITLE
from oska_gui.ui.speech import Announcer, describe
from oska_gui.web.record import open_record, review_text

QUICK = {"animation": "off", "pace": "instant", "levels": ["beginner", "beginner"]}
# A 3 x 3 Hexapawn game the solver values exactly, so its marks are known: Black's
# c2-b2 and White's a3xb2 and Black's c3-b3 each turn a result for the worse.
PAWN_MOVES = ("a1-b1", "c2-b2", "a3xb2", "c3-b3", "b2-c2")
PAWN_MARKS = ["good", "blunder", "blunder", "blunder", "best"]
SIZES = [((1100, 760), False), ((640, 480), False), ((390, 844), True), ((844, 390), True),
         ((360, 300), False)]

FAST = Budget(nodes=1_000)  # a review of a few milliseconds a position


def pawn_record() -> records.Record:
    """Return the Hexapawn game of ``PAWN_MOVES`` as a record."""
    rules = pawn_rules(3)
    line = [rules.start()]
    for text in PAWN_MOVES:
        line.append(rules.play(line[-1], rules.parse_move(text, line[-1])))
    return records.from_positions(line, rules, "A", "B", rules.outcome(line[-1]))


def oska_record(seed: int = 3) -> records.Record:
    """Return a random finished n = 5 Oska game as a record."""
    rules, rng = oska_rules(5), random.Random(seed)
    line = [rules.start()]
    while rules.outcome(line[-1]) is None:
        line.append(rng.choice(rules.children(line[-1])))
    return records.from_positions(line, rules, "A", "B", rules.outcome(line[-1]))


def reviewing(record: records.Record, size: tuple[int, int] = (1100, 760),
              touch: bool = False, finish: bool = True) -> tuple[App, ReviewScene]:
    """Return an App replaying ``record`` with its review opened by E (analysed to the
    end if ``finish``), and the review scene."""
    app = App(MemoryStorage(QUICK), *size, touch=touch, review_budget=FAST)
    app.replay(record)
    app.handle(KeyPress("e"))
    scene = app.scene
    assert isinstance(scene, ReviewScene)
    while finish and scene.busy:
        app.update(1 / 60)
    return app, scene


def drawn(app: App) -> RecordingCanvas:
    """Return a RecordingCanvas with ``app``'s screen drawn on it."""
    canvas = RecordingCanvas(app.width, app.height)
    app.draw(canvas)
    return canvas


def test_review_is_offered_once_a_game_is_over_and_in_a_replay() -> None:
    app = App(MemoryStorage(QUICK), 1000, 700, review_budget=FAST)
    app.handle(KeyPress("enter"))
    game = app.game
    assert game is not None and Command.HINT in game.buttons
    assert Command.REVIEW not in game.buttons
    app.handle(KeyPress("e"))
    assert app.scene is game and game.toast is not None and "finished" in game.toast[0]
    app = App(MemoryStorage({**QUICK, "mode": "cvc"}), 1000, 700, review_budget=FAST)
    app.handle(KeyPress("enter"))
    scene = app.game
    assert scene is not None
    for _ in range(2000):
        if scene.match.over:
            break
        app.update(0.05)
    assert scene.match.over
    assert Command.REVIEW in scene.buttons and Command.SLOWER not in scene.buttons
    click = scene.panel().buttons[Command.REVIEW].center
    app.handle(PointerDown(*click))
    assert isinstance(app.scene, ReviewScene)
    review = app.scene
    assert review.session.cursor == review.session.last  # at the end of the game
    assert len(review.session.positions) == len(scene.match.history.positions)


def test_the_marks_graph_and_better_move_are_drawn() -> None:
    app, scene = reviewing(pawn_record())
    session = scene.session
    assert [ply.mark_word for ply in session.review.plies] == PAWN_MARKS
    view = scene.view()
    assert view.marks == [None, Mark.GOOD, Mark.BLUNDER, Mark.BLUNDER, Mark.BLUNDER, Mark.BEST]
    assert view.labels[2] == "c2-b2 ??"
    canvas = drawn(app)
    symbols = [args for name, args in canvas.calls if name == "text" and args[0] == "??"]
    assert len(symbols) == 3 and all(args[4] == theme.MARK_BLUNDER for args in symbols)
    graph = scene.layout().graph
    dots = [args for name, args in canvas.calls
            if name == "circle" and args[3] == theme.MARK_BLUNDER]
    assert [round(x) for x, *_ in dots] == [round(graph_x(graph, i, 5)) for i in (2, 3, 4)]
    area = [args for name, args in canvas.calls
            if name == "polygon" and args[1] == theme.GRAPH_WHITE]
    assert len(area) == 1 and len(area[0][0]) == len(session.positions) + 2
    caption = scene.layout().caption  # the graph says whose chance it shows
    captions = [args for name, args in canvas.calls
                if name == "text" and args[0].startswith("White's win chance")]
    assert len(captions) == 1 and caption.bottom == pytest.approx(graph.y)
    assert caption.x <= captions[0][1] and caption.y <= captions[0][2] <= caption.bottom
    assert session.go(1)  # before Black's c2-b2 ??: its better move and the move itself
    better = session.better_move
    assert better is not None and scene.view().board.hint == better
    assert session.game.move_text(better) == session.review.plies[1].best
    assert session.game.move_text(scene.view().board.replaced) == "c2-b2"
    calls = drawn(app).calls
    for colour in (theme.HINT, theme.REPLACED):  # each arrow's head
        assert [args for name, args in calls if name == "polygon" and args[1][:3] == colour]
    session.go(0)  # before a good move: no arrow
    assert scene.view().board.hint is None and scene.view().board.replaced is None


@pytest.mark.parametrize("record", [pawn_record(), oska_record(3), oska_record(8)],
                         ids=["hexapawn", "oska-3", "oska-8"])
def test_the_better_move_goes_with_the_position_before_the_bad_move(
        record: records.Record) -> None:
    """At every position of the review the board's blue arrow is the better move of
    the move played next from that position, when that move is marked ?!, ? or ??: a
    move of the side to move on the board shown, from a cell holding its piece, which
    differs from the move played (the red arrow); on the position after the bad move
    there is none for it (an arrow there read as the best reply)."""
    _, scene = reviewing(record)
    session = scene.session
    plies = session.review.plies
    assert any(ply.better for ply in plies)
    rules = record.rules
    for index in range(session.last + 1):
        session.go(index)
        board = scene.view().board
        following = plies[index] if index < len(plies) else None
        if following is None or not following.better:
            assert board.hint is None and board.replaced is None, index
            continue
        shown = session.positions[index]
        assert board.position == shown
        assert board.hint in rules.moves(shown) and board.replaced in rules.moves(shown)
        assert rules.move_text(board.hint) == following.better != following.played
        assert rules.move_text(board.replaced) == following.played
        assert rules.play(shown, board.replaced) == session.positions[index + 1]
        assert "the blue arrow" in session.sentence() and following.played in \
            session.sentence()


def test_it_fills_in_while_it_analyses() -> None:
    app, scene = reviewing(oska_record(), finish=False)
    session = scene.session
    assert scene.busy and app.resting is False
    counts = []
    for _ in range(3):
        app.update(1 / 60)
        counts.append(len(session.review.assessments))
    assert counts[-1] < len(session.positions)
    assert "analysing" in app.status_text
    view = scene.view()
    assert len(view.chances) == counts[-1]
    while scene.busy:
        app.update(1 / 60)
    assert len(scene.view().chances) == len(session.positions)
    assert "analysing" not in app.status_text
    app.draw(RecordingCanvas(app.width, app.height))
    # the review's tables, handed over at its end, are freed a slice a frame first
    frames = 0
    while not app.resting and frames < 60:
        app.update(1 / 60)
        frames += 1
    assert app.resting


def test_keys_move_through_the_game_and_back() -> None:
    app, scene = reviewing(pawn_record())
    session = scene.session
    app.handle(KeyPress("home"))
    assert session.cursor == 0
    app.handle(KeyPress("right"))
    assert session.cursor == 1
    app.handle(KeyPress("left"))
    # Down: the position before the next marked move (plies 2, 3 and 4), where its
    # better move is drawn
    app.handle(KeyPress("down"))
    assert session.cursor == 1 and session.better_move is not None
    app.handle(KeyPress("down"))
    assert session.cursor == 2
    app.handle(KeyPress("down"))
    assert session.cursor == 3
    app.handle(KeyPress("down"))  # none after: it stays
    assert session.cursor == 3
    app.handle(KeyPress("up"))
    assert session.cursor == 2
    app.handle(KeyPress("end"))
    assert session.cursor == 5
    app.handle(KeyPress("left"))
    assert session.cursor == 4 and session.position == session.positions[4]
    app.handle(KeyPress("escape"))
    assert isinstance(app.scene, GameScene)
    app.handle(KeyPress("e"))
    assert app.scene is scene and session.cursor == 4  # the same review, as it was left


@pytest.mark.parametrize("touch", [False, True])
def test_clicks_and_taps_on_the_graph_the_list_and_the_buttons(touch: bool) -> None:
    size = (390, 844) if touch else (1100, 760)
    app, scene = reviewing(pawn_record(), size, touch)
    session, layout = scene.session, scene.layout()
    graph = layout.graph
    app.handle(PointerDown(graph_x(graph, 3, 5) + 1, graph.center[1], touch))
    assert session.cursor == 3
    cells = dict(move_cells(layout.moves, layout.scale, 5, session.cursor))
    app.handle(PointerDown(*cells[1].center, touch))
    assert session.cursor == 1
    app.handle(PointerDown(*layout.buttons[NEXT].center, touch))
    assert session.cursor == 2
    app.handle(PointerDown(*layout.buttons[PREVIOUS].center, touch))
    app.handle(PointerDown(*layout.buttons[PREVIOUS].center, touch))
    assert session.cursor == 0
    assert not scene.view().buttons[PREVIOUS].enabled
    app.handle(PointerDown(*layout.buttons[BACK].center, touch))
    assert isinstance(app.scene, GameScene)


def test_screen_readers_hear_the_mark_and_the_better_move() -> None:
    app, scene = reviewing(pawn_record())
    announcer = Announcer()
    announcer.news(app)
    app.handle(KeyPress("home"))
    app.handle(KeyPress("down"))
    news = announcer.news(app)
    better = scene.session.review.plies[1].best
    assert news is not None
    assert "Move 1 of 5, White a1-b1, good" in news
    assert f"Next, Black c2-b2: blunder (??); better {better} (the blue arrow)" in news
    assert announcer.news(app) is None  # said once
    words = describe(app)
    assert "blunder" in words and f"better {better}" in words
    app.handle(KeyPress("right"))  # the blunder played: its mark and better move said
    news = announcer.news(app)
    assert news is not None
    assert "Move 2 of 5, Black c2-b2, blunder (??)" in news and f"better {better}" in news
    assert "White: accuracy" in words and "Black, " in words  # the summary, the pieces


@pytest.mark.parametrize(("size", "touch"), SIZES)
def test_the_review_screen_is_readable_at_every_size(size: tuple[int, int],
                                                     touch: bool) -> None:
    """Texts of the type scale only, in inks whose contrast is checked, inside the
    panel (or the window), and finger-sized buttons after a touch."""
    app, scene = reviewing(oska_record(), size, touch, finish=False)
    for _ in range(5):
        app.update(1 / 60)
    if touch:  # a tap on the graph (a key would end the touch layout)
        app.handle(PointerDown(*scene.layout().graph.center, touch=True))
    else:
        app.handle(KeyPress("down"))
    layout = scene.layout()
    scale = layout.scale
    inks = {ink[:3] for ink, _ in theme.TEXT_PAIRS}
    window = Rect(0, 0, *size)
    for name, args in drawn(app).calls:
        if name != "text":
            continue
        text, x, _, text_size, ink, anchor, _ = args
        assert text_size in {scale.title, scale.body, scale.label, scale.small}, args
        assert text_size >= MIN_TEXT and ink[:3] in inks, args
        width = len(text) * text_size * TEXT_WIDTH_PER_CHAR
        left = {"center": x - width / 2, "left": x, "right": x - width}[anchor]
        assert window.x - 0.5 <= left and left + width <= window.right + 0.5, args
    if touch:
        for rect in layout.buttons.values():
            assert rect.h >= TOUCH_TARGET and rect.w >= TOUCH_TARGET


def test_the_page_opens_a_record_file_for_review() -> None:
    app = App(MemoryStorage(QUICK), 1000, 700, review_budget=FAST)
    assert review_text(app) == ""
    problem = open_record(app, b"{not json", "game.json")
    assert problem.startswith("Cannot open game.json: not JSON") and app.game is None
    data = json.dumps(pawn_record().to_json()).encode()
    assert open_record(app, data, "pawns.json") == ""
    assert isinstance(app.scene, ReviewScene)
    while app.scene.busy:
        app.update(1 / 60)
    assert review_text(app) == "6/6 " + " ".join(PAWN_MARKS)


def test_a_resize_reaches_the_review() -> None:
    app, scene = reviewing(pawn_record())
    app.handle(Resize(390, 844))
    assert (scene.width, scene.height) == (390, 844)
    assert scene.layout().board.rect.bottom <= scene.layout().panel.y


def test_the_review_leaves_its_tables_to_the_reclaimer() -> None:
    """The review's searches share one set of tables, kept from position to position;
    once the review is complete they go to the reclaimer, to be freed a little per frame
    as the players' are, rather than all in the frame the review ends in."""
    reclaimer = Reclaimer()
    session = ReviewSession(oska_record(), FAST, reclaimer=reclaimer)
    while len(session.review.assessments) < 3:
        session.advance(0.01)
    assert reclaimer.pending == 0
    while not session.review.complete:
        session.advance(0.01)
    assert reclaimer.pending > 0


def test_the_exact_endgame_shows_its_progress() -> None:
    """While the solver values the end of a game exactly (from the end back, before
    any position is assessed, seconds on a big table), the progress says so, from
    which move, and counts the positions the solver has met, which grow; the status
    line shows it. Then it counts the positions assessed."""
    solver_for(oska_rules(5)).forget()  # solved afresh, whichever tests ran before
    app, scene = reviewing(oska_record(5), finish=False)
    seen = [scene.session.progress]
    statuses = [app.status_text]
    while scene.busy:
        app.update(1 / 60)
        seen.append(scene.session.progress)
        statuses.append(app.status_text)
    solving = [text for text in seen if "solving exactly from move" in text]
    assessing = [text for text in seen if " of " in text and "analysing: 0 of" not in text]
    assert solving and seen.index(solving[-1]) < seen.index(assessing[0])
    counts = [int(text.rsplit(", ", 1)[1].split()[0].replace(",", "")) for text in solving]
    assert any(later > earlier for earlier, later in zip(counts, counts[1:], strict=False))
    assert any(solving[0] in status for status in statuses)


PROGRESS_SIZES = [(360, 300), (480, 900), (640, 480), (844, 390), (390, 844), (1120, 760),
                  (1920, 1080)]


def title_row_texts(app: App, scene: ReviewScene) -> list[tuple]:
    """Return the arguments of the texts drawn in the review's title row now."""
    row = scene.layout().title
    return [args for name, args in drawn(app).calls
            if name == "text" and row.y <= args[2] <= row.bottom]


def text_rect(args: tuple) -> Rect:
    """Return the rectangle a recorded text covers (its size high)."""
    text, x, y, size, _, anchor, _ = args
    width = len(text) * size * TEXT_WIDTH_PER_CHAR
    left = {"center": x - width / 2, "left": x, "right": x - width}[anchor]
    return Rect(left, y - size / 2, width, size)


def test_the_progress_is_drawn_whole_inside_the_title_row_at_every_size() -> None:
    """As the review opens (positions assessed: none yet), then while the exact solver
    works, the title row shows the progress at every size with a title row: one of its
    wordings, whole (the count is never cut off), inside the row and clear of the
    title."""
    solver_for(oska_rules(5)).forget()  # solved afresh, whichever tests ran before
    app, scene = reviewing(oska_record(5), finish=False)
    session = scene.session
    for phase in (" of ", "solving exactly from move"):
        for _ in range(100_000):
            if phase in session.progress:
                break
            app.update(1 / 60)
        assert phase in session.progress
        count = re.findall(r"[\d,]+\d", session.progress)[-1]
        for size in PROGRESS_SIZES:
            app.handle(Resize(*size))
            row = scene.layout().title
            texts = title_row_texts(app, scene)
            progress = [args for args in texts if args[0] != TITLE]
            assert len(progress) == 1, (size, texts)
            shown = progress[0][0]
            assert count in shown and shown in session.progress_wordings, (size, shown)
            box = text_rect(progress[0])
            assert row.x - 0.5 <= box.x and box.right <= row.right + 0.5, (size, shown)
            for title in (args for args in texts if args[0] == TITLE):
                assert text_rect(title).right <= box.x, (size, shown)


@pytest.mark.parametrize(("size", "touch"), [((960, 640), False), ((390, 844), True),
                                             ((844, 390), True), ((320, 480), True)])
def test_the_page_start_screen_offers_open_game(size: tuple[int, int], touch: bool) -> None:
    """Where the front end can open a record file (the page), the start screen has an
    Open game button (finger-sized after a touch, its label inside it, 12 px at least)
    and the help lists O; a press asks the front end once. Elsewhere there is none."""
    assert "open" not in App(MemoryStorage(QUICK), *size).start.layout().buttons
    app = App(MemoryStorage(QUICK), *size, touch=touch, can_open=True)
    button = app.start.layout().buttons["open"]
    if touch:
        assert button.w >= TOUCH_TARGET and button.h >= TOUCH_TARGET
    labels = [args for name, args in drawn(app).calls
              if name == "text" and args[0].startswith("Open")]
    assert labels and all(args[3] >= MIN_TEXT and button.contains(args[1], args[2])
                          for args in labels)
    assert not app.take_open_request()
    app.handle(PointerDown(*button.center, touch))
    assert app.take_open_request() and not app.take_open_request()
    app.help = True
    assert ("O" in drawn(app).texts()) is not touch  # no keys listed after a touch
