"""The drawing the game's worker records for the page (``web.recorder``) and the page's
storage as the worker sees it (``web.storage.PageStorage``), without a browser."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from oska_gui.web.canvas2d import HtmlCanvas, css_font
from oska_gui.web.recorder import BOARD, DrawingLog, RecordingContext
from oska_gui.web.storage import LocalStorageSettings, PageStorage


class Measurer:
    """A measuring context stand-in: 10 pixels a character, 1 more per font change."""

    def __init__(self) -> None:
        """Start with no font."""
        self.font = ""
        self.fonts: list[str] = []

    def measureText(self, text: str) -> SimpleNamespace:  # noqa: N802 (the DOM's name)
        """Return metrics with the text's width, noting the font it was measured in."""
        self.fonts.append(self.font)
        return SimpleNamespace(width=10.0 * len(text))


def recording(width: int = 300, height: int = 200,
              scale: float = 1.0) -> tuple[HtmlCanvas, DrawingLog, Measurer]:
    """Return an ``HtmlCanvas`` recording into a fresh log, the log and its measurer."""
    measurer = Measurer()
    log = DrawingLog(measurer)
    canvas = HtmlCanvas(RecordingContext(log, BOARD), width, height, scale,
                        new_surface=log.new_surface)
    return canvas, log, measurer


def taken(log: DrawingLog) -> list[list[object]]:
    """Return the log's entries as the page receives them (its JSON text, read)."""
    text = log.take()
    assert text is not None
    return json.loads(text)


def test_calls_and_properties_are_logged_in_order_then_taken_once() -> None:
    """A frame's drawing is every call and assignment on the board, in order; taking
    it starts a new frame's log, and an empty one gives nothing to send."""
    canvas, log, _ = recording(scale=2.0)
    canvas.clear((1, 2, 3))
    canvas.text("Hi", 5, 6, 18, (9, 9, 9), anchor="left", bold=True)
    assert taken(log) == [
        [BOARD, "setTransform", 2.0, 0, 0, 2.0, 0, 0],
        [BOARD, "=fillStyle", "rgb(1,2,3)"], [BOARD, "fillRect", 0, 0, 300, 200],
        [BOARD, "=font", css_font(18, True)], [BOARD, "=textAlign", "left"],
        [BOARD, "=textBaseline", "middle"], [BOARD, "=fillStyle", "rgb(9,9,9)"],
        [BOARD, "fillText", "Hi", 5, 6]]
    assert log.take() is None


def test_text_is_measured_in_the_font_it_will_be_drawn_in() -> None:
    """Measuring answers at once from the worker's own context, in the font just set."""
    canvas, log, measurer = recording()
    assert canvas.text_width("abc", 20, bold=True) == 30.0
    assert measurer.fonts == [css_font(20, True)]
    assert [BOARD, "=font", css_font(20, True)] in taken(log)


def test_layers_are_sized_painted_and_copied_by_number() -> None:
    """A layer is a numbered surface of the page: sized and painted once per key,
    then copied onto the board by its number."""
    canvas, log, _ = recording(300, 200, scale=2.0)
    log.take()
    for _ in range(2):
        canvas.layer("k", lambda c: c.clear((1, 2, 3)))
    entries = taken(log)
    assert entries[:2] == [[1, "=width", 600], [1, "=height", 400]]
    assert [1, "fillRect", 0, 0, 300, 200] in entries
    assert entries.count([BOARD, "drawImage", 1, 0, 0]) == 2
    assert not [e for e in entries if e[0] == BOARD and e[1] == "fillRect"]
    assert [e[0] for e in entries if e[1] == "fillRect"] == [1]


def test_what_the_page_cannot_replay_is_refused_at_once() -> None:
    """Only the methods the page replays exist; a layer has a 2d context and a size."""
    _, log, _ = recording()
    context = RecordingContext(log, BOARD)
    with pytest.raises(AttributeError, match="no method 'getImageData'"):
        context.getImageData(0, 0, 1, 1)
    layer = log.new_surface()
    with pytest.raises(ValueError, match="only a 2d context"):
        layer.getContext("webgl")
    with pytest.raises(AttributeError, match="no attribute 'style'"):
        layer.style = "x"


def test_the_worker_reads_the_page_storage_and_asks_the_page_to_write() -> None:
    """Settings load from the values the page sent; saving keeps the new value and asks
    the page to store it."""
    posted: list[dict] = []
    store = PageStorage({"k": json.dumps({"n": 5})}, posted.append)
    kept = LocalStorageSettings(store, pytest.fail, key="k")
    assert kept.load() == {"n": 5}
    kept.save({"n": 6})
    assert posted == [{"kind": "store", "key": "k", "text": json.dumps({"n": 6})}]
    assert kept.load() == {"n": 6}
    assert LocalStorageSettings(PageStorage({}, posted.append), pytest.fail,
                                key="k").load() == {}
