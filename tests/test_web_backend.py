"""Browser-free tests of the web backend's parts: canvas drawing calls, DOM event
translation and settings storage, with plain stand-ins for the browser objects."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ui_fakes import FakeContext

from oska_gui.ui.kit.events import KeyPress, PointerDown, PointerMove, PointerUp
from oska_gui.web.canvas2d import HtmlCanvas, css_color, css_font
from oska_gui.web.dom_events import key_press, pointer_event
from oska_gui.web.storage import LocalStorageSettings


@pytest.fixture
def ctx() -> FakeContext:
    """A fresh recording context."""
    return FakeContext()


def test_css_colors() -> None:
    """Colour tuples become CSS colours; a bad tuple is a clear error."""
    assert css_color((1, 2, 3)) == "rgb(1,2,3)"
    assert css_color((255, 0, 10, 51)) == "rgba(255,0,10,0.200)"
    with pytest.raises(ValueError, match="3 or 4 channels"):
        css_color((1, 2))


def test_css_font_uses_local_fonts_only() -> None:
    """Fonts are the system's: sized in pixels, never loaded from a URL."""
    assert css_font(18, True).startswith("bold 18px ")
    assert css_font(12.5, False).startswith("12.5px ")
    assert "url(" not in css_font(10, False)


def test_canvas_scales_to_device_pixels(ctx: FakeContext) -> None:
    """The context is scaled to the device pixel ratio, on creation and resize."""
    canvas = HtmlCanvas(ctx, 300, 200, scale=2.0)
    assert (canvas.width, canvas.height) == (300, 200)
    assert ctx.calls("setTransform") == [(2.0, 0, 0, 2.0, 0, 0)]
    canvas.resize(640, 480, 1.5)
    assert (canvas.width, canvas.height) == (640, 480)
    assert ctx.calls("setTransform")[-1] == (1.5, 0, 0, 1.5, 0, 0)


def test_clear_fills_the_css_size(ctx: FakeContext) -> None:
    """clear fills the CSS-pixel area (the transform scales it)."""
    HtmlCanvas(ctx, 300, 200, scale=3.0).clear((9, 8, 7))
    assert ctx.calls("fillRect") == [(0, 0, 300, 200)]
    assert ctx.sets("fillStyle") == ["rgb(9,8,7)"]


def test_outlines_are_drawn_inside_the_shape(ctx: FakeContext) -> None:
    """Outlines lie inside the shape, as pygame draws them."""
    canvas = HtmlCanvas(ctx, 100, 100)
    canvas.rect(10, 20, 40, 30, (0, 0, 0), width=4)
    assert ctx.calls("moveTo")[0] == (12, 22)  # the stroke's centre line is 2 px inside
    xs = [call[0] for call in ctx.calls("arcTo")] + [call[2] for call in ctx.calls("arcTo")]
    assert min(xs) == 12 and max(xs) == 48
    assert ctx.sets("lineWidth") == [4] and ctx.calls("stroke") and not ctx.calls("fill")
    canvas.circle(50, 50, 10, (0, 0, 0), width=2)
    assert ctx.calls("arc")[-1] == (50, 50, 9, 0, 2 * math.pi)


def test_filled_shapes_fill(ctx: FakeContext) -> None:
    """Filled circles and polygons fill their paths."""
    canvas = HtmlCanvas(ctx, 100, 100)
    canvas.circle(5, 6, 7, (1, 1, 1))
    canvas.polygon([(0, 0), (10, 0), (5, 8)], (2, 2, 2))
    assert ctx.calls("arc") == [(5, 6, 7, 0, 2 * math.pi)]
    assert ctx.calls("lineTo") == [(10, 0), (5, 8)]
    assert len(ctx.calls("fill")) == 2 and not ctx.calls("stroke")


def test_rounded_rect_radius_is_limited_by_the_size(ctx: FakeContext) -> None:
    """A corner radius never exceeds half the rectangle's side."""
    HtmlCanvas(ctx, 100, 100).rect(0, 0, 20, 10, (0, 0, 0), radius=50)
    assert {call[4] for call in ctx.calls("arcTo")} == {5}


def test_degenerate_shapes_draw_nothing(ctx: FakeContext) -> None:
    """Empty rectangles, zero circles and one-point polygons draw nothing."""
    canvas = HtmlCanvas(ctx, 100, 100)
    canvas.rect(0, 0, 0, 10, (0, 0, 0))
    canvas.rect(0, 0, 10, -1, (0, 0, 0), width=1)
    canvas.circle(0, 0, 0, (0, 0, 0))
    canvas.polygon([(1, 1)], (0, 0, 0))
    assert not ctx.calls("fill") and not ctx.calls("stroke")


def test_outlines_thicker_than_the_shape_fill_it(ctx: FakeContext) -> None:
    """An outline that covers the whole shape fills it instead."""
    canvas = HtmlCanvas(ctx, 100, 100)
    canvas.rect(0, 0, 6, 20, (0, 0, 0), width=3)
    canvas.circle(50, 50, 4, (0, 0, 0), width=5)
    assert len(ctx.calls("fill")) == 2 and not ctx.calls("stroke")
    assert ctx.calls("moveTo") == [(0, 0)] and ctx.calls("arc") == [(50, 50, 4, 0, 2 * math.pi)]


def test_line(ctx: FakeContext) -> None:
    """A line is a stroked segment of the given width and colour."""
    HtmlCanvas(ctx, 100, 100).line(1, 2, 3, 4, (5, 6, 7), 3)
    assert ctx.calls("moveTo") == [(1, 2)] and ctx.calls("lineTo") == [(3, 4)]
    assert ctx.sets("lineWidth") == [3] and ctx.sets("strokeStyle") == ["rgb(5,6,7)"]


@pytest.mark.parametrize(("anchor", "align", "baseline"), [
    ("center", "center", "middle"),
    ("left", "left", "middle"),
    ("right", "right", "middle"),
    ("topleft", "left", "top"),
])
def test_text_anchors(ctx: FakeContext, anchor: str, align: str, baseline: str) -> None:
    """Each text anchor maps to the matching canvas alignment and baseline."""
    HtmlCanvas(ctx, 100, 100).text("Oska", 10, 20, 16, (0, 0, 0), anchor=anchor, bold=True)
    assert ctx.sets("textAlign") == [align] and ctx.sets("textBaseline") == [baseline]
    assert ctx.sets("font") == [css_font(16, True)]
    assert ctx.calls("fillText") == [("Oska", 10, 20)]


def test_unknown_anchor_is_a_clear_error(ctx: FakeContext) -> None:
    """An unknown text anchor is a clear error."""
    with pytest.raises(ValueError, match="unknown text anchor 'middle'"):
        HtmlCanvas(ctx, 100, 100).text("x", 0, 0, 10, (0, 0, 0), anchor="middle")


def test_font_and_anchor_are_set_only_when_they_change(ctx: FakeContext) -> None:
    """Font and alignment are set once while unchanged, and again after a resize."""
    canvas = HtmlCanvas(ctx, 100, 100)
    for _ in range(3):
        canvas.text("a", 0, 0, 12, (0, 0, 0))
    assert len(ctx.sets("font")) == 1 and len(ctx.sets("textAlign")) == 1
    canvas.resize(100, 100, 1.0)  # a resized canvas forgets its context state
    canvas.text("a", 0, 0, 12, (0, 0, 0))
    assert len(ctx.sets("font")) == 2 and len(ctx.sets("textAlign")) == 2


def test_styles_are_set_only_when_they_change(ctx: FakeContext) -> None:
    """Fill, stroke and width are set only on change; a resize forgets them."""
    canvas = HtmlCanvas(ctx, 100, 100)
    for _ in range(3):
        canvas.circle(5, 5, 4, (1, 2, 3))
        canvas.line(0, 0, 9, 9, (4, 5, 6), 2)
    assert ctx.sets("fillStyle") == ["rgb(1,2,3)"]
    assert ctx.sets("strokeStyle") == ["rgb(4,5,6)"] and ctx.sets("lineWidth") == [2]
    canvas.circle(5, 5, 4, (9, 9, 9))
    canvas.resize(100, 100, 1.0)
    canvas.circle(5, 5, 4, (9, 9, 9))
    assert ctx.sets("fillStyle") == ["rgb(1,2,3)", "rgb(9,9,9)", "rgb(9,9,9)"]


def test_text_width_measures_in_the_right_font(ctx: FakeContext) -> None:
    """Text is measured with the font it will be drawn in."""
    assert HtmlCanvas(ctx, 100, 100).text_width("abc", 20, bold=True) == 30.0
    assert ctx.sets("font") == [css_font(20, True)]


class FakeSurface:
    """An off-screen canvas element stand-in with its own recording context."""

    def __init__(self) -> None:
        """Start 0 x 0 with a fresh context."""
        self.width = self.height = 0
        self.ctx = FakeContext()

    def getContext(self, kind: str) -> FakeContext:  # noqa: N802 (the DOM's name)
        """Return the 2D context."""
        assert kind == "2d"
        return self.ctx


def test_layers_are_painted_once_per_key_and_size(ctx: FakeContext) -> None:
    """A layer is painted off screen once per key and size, then copied."""
    made: list[FakeSurface] = []
    painted: list[object] = []

    def new_surface() -> FakeSurface:
        """Make and remember an off-screen surface."""
        made.append(FakeSurface())
        return made[-1]

    canvas = HtmlCanvas(ctx, 300, 200, scale=2.0, new_surface=new_surface)
    for name in ("a", "a", "b", "b"):
        canvas.layer(name, lambda c, name=name: (painted.append(name), c.clear((1, 2, 3))))
    assert painted == ["a", "b"] and len(made) == 1
    surface = made[0]
    assert (surface.width, surface.height) == (600, 400)
    assert surface.ctx.calls("fillRect") == [(0, 0, 300, 200), (0, 0, 300, 200)]
    assert not ctx.calls("fillRect")  # the window only gets copies of the picture
    assert ctx.calls("drawImage") == [(surface, 0, 0)] * 4
    assert ctx.calls("setTransform")[-2:] == [(1, 0, 0, 1, 0, 0), (2.0, 0, 0, 2.0, 0, 0)]
    canvas.resize(100, 50, 1.0)
    canvas.layer("b", lambda c: painted.append("b again"))
    assert painted[-1] == "b again" and (surface.width, surface.height) == (100, 50)


def test_without_off_screen_surfaces_layers_paint_directly(ctx: FakeContext) -> None:
    """Without off-screen canvases a layer is simply painted each time."""
    canvas = HtmlCanvas(ctx, 10, 10)
    for _ in range(2):
        canvas.layer("k", lambda c: c.clear((0, 0, 0)))
    assert len(ctx.calls("fillRect")) == 2 and not ctx.calls("drawImage")


def key(k: str, ctrl: bool = False, alt: bool = False, meta: bool = False) -> SimpleNamespace:
    """Return a stand-in KeyboardEvent."""
    return SimpleNamespace(key=k, ctrlKey=ctrl, altKey=alt, metaKey=meta)


@pytest.mark.parametrize(("dom", "name"), [
    (" ", "space"), ("Enter", "enter"), ("Escape", "escape"), ("ArrowLeft", "left"),
    ("ArrowRight", "right"), ("ArrowUp", "up"), ("ArrowDown", "down"), ("F1", "f1"),
    ("N", "n"), ("u", "u"), ("?", "?"), ("Backspace", "backspace"),
])
def test_keys_the_game_understands(dom: str, name: str) -> None:
    """Named DOM keys map to the UI's key names."""
    assert key_press(key(dom)) == KeyPress(name)


@pytest.mark.parametrize("event", [
    key("r", ctrl=True), key("F5", alt=True), key("c", meta=True), key("Shift"),
    key("Control"), key("Dead"), key("Unidentified"),
])
def test_keys_left_to_the_browser(event: SimpleNamespace) -> None:
    """Browser shortcuts and lone modifiers are not the game's."""
    assert key_press(event) is None


@given(st.characters(blacklist_categories=("Cs",)))
def test_every_single_character_key_is_passed_on_in_lower_case(char: str) -> None:
    """Any single-character key reaches the game in lower case."""
    expected = "space" if char == " " else char.lower()
    assert key_press(key(char)) == KeyPress(expected)


def pointer(kind: str, x: float = 110, y: float = 70, primary: bool = True,
            device: str = "mouse", button: int = 0) -> SimpleNamespace:
    """Return a stand-in PointerEvent at client coordinates (x, y)."""
    return SimpleNamespace(type=kind, clientX=x, clientY=y, isPrimary=primary,
                           pointerType=device, button=button)


@pytest.mark.parametrize(("kind", "cls"), [
    ("pointerdown", PointerDown), ("pointermove", PointerMove), ("pointerup", PointerUp),
])
def test_pointer_events_use_canvas_coordinates(kind: str, cls: type) -> None:
    """Pointer events become UI events at canvas coordinates."""
    assert pointer_event(pointer(kind), left=10, top=20) == cls(100, 50)


def test_a_cancelled_pointer_is_a_release_marked_cancelled() -> None:
    """A pointercancel (a pinch or scroll took the finger) is a release at canvas
    coordinates marked ``cancel``, so the game drops nothing where the finger was; it
    used to be a plain PointerUp there, which could play a move mid-pinch."""
    released = pointer_event(pointer("pointercancel", device="touch"), left=10, top=20)
    assert released == PointerUp(100, 50, touch=True, cancel=True)


def test_touch_counts_like_the_mouse_and_says_it_is_a_finger() -> None:
    """A finger's pointerdown is a press like the mouse's, marked as a touch (a pen's
    and the mouse's are not)."""
    assert pointer_event(pointer("pointerdown", device="touch"), 0, 0) == PointerDown(
        110, 70, touch=True)
    for device in ("mouse", "pen"):
        assert not pointer_event(pointer("pointermove", device=device), 0, 0).touch


@pytest.mark.parametrize("event", [
    pointer("pointerdown", primary=False, device="touch"),
    pointer("pointerdown", button=2),
    pointer("pointerover"),
])
def test_pointer_events_ignored(event: SimpleNamespace) -> None:
    """Second fingers, right clicks and other pointer events are ignored."""
    assert pointer_event(event, 0, 0) is None


class FakeStorage:
    """A Web Storage stand-in keeping strings in a dict; it may refuse to work."""

    def __init__(self, broken: bool = False) -> None:
        """Start empty; a ``broken`` storage raises on every access, like a blocked one."""
        self.items: dict[str, str] = {}
        self.broken = broken

    def getItem(self, key: str) -> str | None:  # noqa: N802 (the Web Storage API's name)
        """Return the stored string, or None."""
        if self.broken:
            raise RuntimeError("SecurityError: access denied")
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802 (the Web Storage API's name)
        """Store the string."""
        if self.broken:
            raise RuntimeError("QuotaExceededError")
        self.items[key] = value


def settings(store: object) -> tuple[LocalStorageSettings, list[str]]:
    """Return a settings store on ``store`` and the list its warnings go to."""
    warnings: list[str] = []
    return LocalStorageSettings(store, warnings.append, key="k"), warnings


def test_settings_round_trip() -> None:
    """Saved settings come back as saved."""
    store = FakeStorage()
    kept, warnings = settings(store)
    assert kept.load() == {}
    kept.save({"size": 5, "level": "hard"})
    assert json.loads(store.items["k"]) == {"size": 5, "level": "hard"}
    assert settings(store)[0].load() == {"size": 5, "level": "hard"}
    assert warnings == []


def test_defaults_stand_until_the_player_chooses() -> None:
    """A default (no animation, for reduced motion) holds until a choice is saved."""
    store = FakeStorage()
    calm = LocalStorageSettings(store, [].append, key="k", defaults={"animation": "off"})
    assert calm.load() == {"animation": "off"}
    calm.save({"animation": "fast", "n": 5})
    assert calm.load() == {"animation": "fast", "n": 5}
    store.items["k"] = "{not json"
    assert calm.load() == {"animation": "off"}


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "42"])
def test_bad_saved_settings_are_ignored_with_a_warning(text: str) -> None:
    """Unreadable saved settings give defaults and a warning."""
    store = FakeStorage()
    store.items["k"] = text
    kept, warnings = settings(store)
    assert kept.load() == {}
    assert len(warnings) == 1 and "settings" in warnings[0]


def test_blocked_storage_costs_only_the_settings() -> None:
    """Blocked storage warns but never raises."""
    kept, warnings = settings(FakeStorage(broken=True))
    assert kept.load() == {}
    kept.save({"a": 1})
    assert [w.split(":")[0] for w in warnings] == ["cannot read saved settings",
                                                   "cannot save settings"]


def test_no_storage_keeps_nothing_quietly() -> None:
    """Without storage nothing is kept and nothing is said."""
    kept, warnings = settings(None)
    kept.save({"a": 1})
    assert kept.load() == {} and warnings == []


def test_unserialisable_settings_are_a_programming_error() -> None:
    """Settings that are not JSON are a programming error, raised."""
    kept, _ = settings(FakeStorage())
    with pytest.raises(TypeError):
        kept.save({"a": object()})
