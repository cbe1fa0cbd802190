"""The browser front end: runs the shared UI ``App`` on the page's canvas inside Pyodide.

The loader (``static/loader.js``) starts Pyodide, unpacks the project's Python files and
calls ``start()``. From then on everything is Python: DOM pointer and key events become
``ui.events`` (queued, then handled at the start of the next frame, like the desktop
loop), and each ``requestAnimationFrame`` callback runs ``app.update(dt)`` and
``app.draw(canvas)`` (only when the picture changed). There are no threads in the
page, so the App thinks in short slices inside ``update`` and the page keeps answering.
When the App rests (nothing moving, nothing to draw) the page stops asking for frames
until an input event or a resize wakes it, so an idle game costs nothing.

The canvas fills the window; its backing store has ``devicePixelRatio`` device pixels
per CSS pixel for sharp drawing, and the window size is checked every frame so resizes,
zooms and rotations reach the App as ``Resize`` events. ``app.status_text`` is copied
into ``#status`` (for tests and tools), and the moves of the game into
``body[data-moves]`` (notation, space-separated) in the same frame, so a test reads
both together. For screen readers ``#position`` describes the position in words and
the ``#announce`` live region says what changed, only when it matters (``ui.speech``).
``body[data-state]`` tells the page's state: loading, ready (with ``data-ready-at``, ms
since navigation) or error.

The canvas takes the keyboard focus (Tab reaches it, a ring shows it); the live
region also says the keyboard cursor's cell, a piece picked up and where it can go, the
typed-move line ('/': O is then a letter of the move, not the file picker) and each
start-screen change.

A game record file opens for review (``record.open_record``) by O or the start
screen's Open game button (a file picker, the hidden ``#record-file`` input) or by
dropping it on the page; a file that is not a record is announced (and said in the
game's message line), and the game on show stays. O opens the picker from its key
handler; the button's tap reaches the App a frame later, still within the browser's
allowance for a gesture.

A page cannot close itself, so the App runs without a way to quit (``can_quit=False``):
no Quit button, and Q does nothing.
A reload mid-game opens straight on the game in progress (kept in ``localStorage``).
"""

from __future__ import annotations

import traceback
from typing import Any

from js import Float32Array, console, document, performance, window
from pyodide.ffi import create_proxy, to_js

from oska_gui.session.saved_game import GameKeeper

from ..ui.app import App
from ..ui.events import Event, Resize
from ..ui.speech import Announcer, describe
from .canvas2d import HtmlCanvas
from .dom_events import key_press, pointer_event
from .record import MovesMirror, open_record, review_text
from .speaker import WebAudioSpeaker
from .storage import LocalStorageSettings

MAX_DT = 0.1  # seconds: after a hidden tab or a stall, do not jump animations ahead
POINTER_EVENTS = ("pointerdown", "pointermove", "pointerup", "pointercancel")
OPEN_KEY = "o"  # opens a record file (the App has no use for it)


def window_size() -> tuple[int, int, float]:
    """Return the window's inner size in CSS pixels and its device pixel ratio."""
    return int(window.innerWidth), int(window.innerHeight), float(window.devicePixelRatio or 1)


REDUCED_MOTION = "(prefers-reduced-motion: reduce)"
COARSE_POINTER = "(pointer: coarse)"  # the main pointer is a finger: a phone or tablet


GAME_KEY = "oska.game"  # the game in progress, beside the settings


def warn(message: str) -> None:
    """Report a problem that costs a saved choice or game (never the game) in the console."""
    console.warn(f"Oska: {message}")


def local_storage() -> Any:
    """Return ``localStorage``, or None where the browser refuses it (said in the console)."""
    try:
        return window.localStorage
    except Exception as err:  # a JsException: storage disabled for this origin
        warn(f"settings and games will not be kept ({err})")
        return None


def open_settings(store: Any) -> LocalStorageSettings:
    """Return the settings store on ``store`` (``localStorage``; None keeps nothing).

    Someone whose system asks for reduced motion starts with animations off.
    """
    calm = bool(window.matchMedia(REDUCED_MOTION).matches)
    return LocalStorageSettings(store, warn, defaults={"animation": "off"} if calm else None)


class BrowserFrontEnd:
    """Connects one App to the page: canvas, DOM events, frame loop and status region."""

    def __init__(self, app: App, speaker: WebAudioSpeaker | None = None) -> None:
        """Size the canvas to the window and prepare to run ``app`` on it.

        Args:
            app: the UI App.
            speaker: the App's speaker, woken by every gesture (None: silent).
        """
        self.app = app
        self.speaker = speaker
        self.element = document.getElementById("board")
        self.status = document.getElementById("status")
        self.position = document.getElementById("position")
        self.announce = document.getElementById("announce")
        self.announcer = Announcer()
        self.described: str | None = None
        self.cursor = "default"  # the canvas's CSS cursor
        width, height, scale = self.size = window_size()
        self._size_element(width, height, scale)
        self.canvas = HtmlCanvas(self.element.getContext("2d"), width, height, scale,
                                 new_surface=lambda: document.createElement("canvas"))
        self.queue: list[Event] = [Resize(width, height)]
        self.last_time: float | None = None
        self.shown_status: str | None = None
        self.moves = MovesMirror()
        self.running = False
        self.parked = False  # no frame requested: the App rests until the next event
        self.drawn = False  # whether a first frame has been drawn (the page is ready)
        # Proxies keep the Python callables alive for JavaScript; created once, kept here.
        self.on_frame = create_proxy(self.frame)
        self.on_pointer = create_proxy(self.pointer)
        self.on_key = create_proxy(self.key)
        self.on_resize = create_proxy(lambda event: self.wake())
        self.on_context_menu = create_proxy(lambda event: event.preventDefault())
        self.picker = document.getElementById("record-file")
        self.on_picked = create_proxy(self.picked)
        self.on_drag = create_proxy(lambda event: event.preventDefault())  # allows a drop
        self.on_drop = create_proxy(self.dropped)
        self.on_read = create_proxy(self.read_done)
        self.reading = ""  # the name of the file being read
        self.shown_review: str | None = None

    def start(self) -> None:
        """Listen to the DOM events and request the first frame."""
        for name in POINTER_EVENTS:
            self.element.addEventListener(name, self.on_pointer)
        self.element.addEventListener("contextmenu", self.on_context_menu)
        window.addEventListener("keydown", self.on_key)
        window.addEventListener("resize", self.on_resize)
        self.picker.addEventListener("change", self.on_picked)
        window.addEventListener("dragover", self.on_drag)
        window.addEventListener("drop", self.on_drop)
        self.running = True
        self.element.focus()  # keys and a screen reader start on the board
        window.requestAnimationFrame(self.on_frame)

    def stop(self) -> None:
        """Stop the frame loop and stop listening to events."""
        self.running = False
        for name in POINTER_EVENTS:
            self.element.removeEventListener(name, self.on_pointer)
        self.element.removeEventListener("contextmenu", self.on_context_menu)
        window.removeEventListener("keydown", self.on_key)
        window.removeEventListener("resize", self.on_resize)
        self.picker.removeEventListener("change", self.on_picked)
        window.removeEventListener("dragover", self.on_drag)
        window.removeEventListener("drop", self.on_drop)

    def _size_element(self, width: int, height: int, scale: float) -> None:
        """Give the canvas element a CSS size and a backing store ``scale`` times larger."""
        self.element.style.width = f"{width}px"
        self.element.style.height = f"{height}px"
        self.element.width = round(width * scale)
        self.element.height = round(height * scale)

    def pointer(self, event: Any) -> None:
        """Queue the ``ui.events`` form of a DOM pointer event on the canvas."""
        box = self.element.getBoundingClientRect()
        translated = pointer_event(event, float(box.left), float(box.top))
        if translated is None:
            return
        event.preventDefault()  # no text selection, scrolling or emulated mouse events
        if event.type == "pointerdown":
            # Keep receiving this pointer's move and up events if it leaves the canvas.
            self.element.setPointerCapture(event.pointerId)
            self._ready_sound()
        self.queue.append(translated)
        self.wake()

    def key(self, event: Any) -> None:
        """Queue the ``ui.events`` form of a ``keydown`` event the game understands."""
        translated = key_press(event)
        if translated is not None and translated.key == OPEN_KEY and not self.app.typing:
            event.preventDefault()
            self.picker.click()  # a key press is a gesture: the browser lets it open
        elif translated is not None:
            event.preventDefault()  # e.g. space and arrows must not scroll the page
            self._ready_sound()
            self.queue.append(translated)
            self.wake()

    def picked(self, event: Any) -> None:
        """Read the record file chosen in the file picker."""
        files = self.picker.files
        if files.length:
            self.read(files.item(0))
        self.picker.value = ""  # choosing the same file again is a change too

    def dropped(self, event: Any) -> None:
        """Read the first file dropped on the page (the browser would open it instead)."""
        event.preventDefault()
        files = event.dataTransfer.files if event.dataTransfer else None
        if files is not None and files.length:
            self.read(files.item(0))

    def read(self, file: Any) -> None:
        """Start reading ``file`` (a File); ``read_done`` opens it once it is read."""
        reader = window.FileReader.new()
        self.reading = str(file.name)
        reader.addEventListener("loadend", self.on_read)
        reader.readAsArrayBuffer(file)

    def read_done(self, event: Any) -> None:
        """Open the file just read for review, or say why it cannot be opened."""
        result = event.target.result
        problem = (f"Cannot read {self.reading}" if result is None
                   else open_record(self.app, result.to_bytes(), self.reading))
        if problem:
            warn(problem)
            self.announce.textContent = problem
            if self.app.game is not None and self.app.scene is self.app.game:
                self.app.game.say(problem)
        self.app.needs_draw = True
        self.wake()

    def _ready_sound(self) -> None:
        """Let the audio context run when sound is on: browsers allow it in a gesture's
        handler (see ``speaker``)."""
        if self.speaker is not None and self.app.settings.sound:
            self.speaker.wake()

    def wake(self) -> None:
        """Run frames again after a rest: an event arrived or the window changed."""
        if self.parked and self.running:
            self.parked = False
            self.last_time = None  # the rest is no time for animations to catch up on
            window.requestAnimationFrame(self.on_frame)

    def follow_window(self) -> None:
        """Resize the canvas and queue a ``Resize`` when the window's size or zoom changed."""
        size = window_size()
        if size == self.size:
            return
        self.size = width, height, scale = size
        self._size_element(width, height, scale)
        self.canvas.resize(width, height, scale)
        self.queue.append(Resize(width, height))

    def frame(self, timestamp: float) -> None:
        """Run one frame: events, ``update(dt)``, ``draw``, status; then ask for the next.

        Args:
            timestamp: the frame's time in ms, given by ``requestAnimationFrame``.
        """
        if not self.running:
            return
        try:
            self._step(timestamp)
        except Exception as err:
            self.stop()
            show_failure(err)
            return
        if self.app.resting and not self.queue:
            self.parked = True
        else:
            window.requestAnimationFrame(self.on_frame)

    def _step(self, timestamp: float) -> None:
        """Feed the queued events, advance the App, redraw it and mirror its state."""
        dt = 0.0 if self.last_time is None else min(MAX_DT, (timestamp - self.last_time) / 1000)
        self.last_time = timestamp
        self.follow_window()
        events, self.queue = self.queue, []
        for event in events:
            self.app.handle(event)
        if self.app.take_open_request():
            self.picker.click()
        self.app.update(dt)
        if self.app.needs_draw:
            self.app.draw(self.canvas)
        self._show_cursor()
        text = self.app.status_text
        if text != self.shown_status:
            self.status.textContent = text
            self.shown_status = text
        moves = self.moves.changed_text(self.app)
        if moves is not None:
            document.body.dataset.moves = moves
        review = review_text(self.app)
        if review != self.shown_review:
            document.body.dataset.review = self.shown_review = review
        self._speak(moves is not None)
        if not self.drawn:
            self.drawn = True
            mark_ready()

    def _show_cursor(self) -> None:
        """Give the canvas the 'pointer' cursor over what a click acts on (the App
        decides), the default arrow elsewhere; the style is written only on a change."""
        cursor = "pointer" if self.app.hand_cursor else "default"
        if cursor != self.cursor:
            self.element.style.cursor = self.cursor = cursor

    def _speak(self, moved: bool) -> None:
        """Announce what changed, and describe the position anew when anything did.

        Args:
            moved: whether the game's record changed in this frame.
        """
        news = self.announcer.news(self.app)
        if news is not None:
            self.announce.textContent = news
        if news is not None or moved:
            description = describe(self.app)
            if description != self.described:
                self.position.textContent = description
                self.described = description


def mark_ready() -> None:
    """Hide the loading indicator and record when the page became interactive."""
    document.getElementById("loading").hidden = True
    document.body.dataset.readyAt = f"{performance.now():.0f}"
    document.body.dataset.state = "ready"


def show_message(state: str, text: str) -> None:
    """Show ``text`` in the page's message box and set ``body[data-state]`` to ``state``."""
    box = document.getElementById("loading")
    document.getElementById("loading-text").textContent = text
    box.classList.add("message")
    box.hidden = False
    document.body.dataset.state = state


def show_failure(err: BaseException) -> None:
    """Report an error that stopped the game on the page and in the console."""
    console.error("".join(traceback.format_exception(err)))
    show_message("error", f"Oska stopped because of an error: {err}")


def open_speaker() -> WebAudioSpeaker:
    """Return the page's speaker: Web Audio, silent (with a console warning) without it."""
    return WebAudioSpeaker(lambda: window.AudioContext.new(),
                           lambda data: Float32Array.new(to_js(data)),
                           lambda message: console.warn(f"Oska: {message}"))


def start() -> BrowserFrontEnd:
    """Create the Oska App with settings in ``localStorage`` and run it on the page.

    An error here propagates to the loader, which shows it in place of the game.

    Returns:
        The running front end.
    """
    width, height, _ = window_size()
    touch = bool(window.matchMedia(COARSE_POINTER).matches)
    store = local_storage()
    keeper = GameKeeper(LocalStorageSettings(store, warn, key=GAME_KEY, what="saved game"),
                        warn)
    speaker = open_speaker()
    app = App(open_settings(store), width, height, can_quit=False, speaker=speaker,
              keeper=keeper, touch=touch, open_saved=True, can_open=True)
    if app.settings.sound:
        speaker.prepare()  # while the page loads: no frame pays for it
    front_end = BrowserFrontEnd(app, speaker)
    front_end.start()
    return front_end
