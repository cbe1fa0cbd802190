"""The browser front end: runs the shared UI ``App`` for the page, inside a Web Worker.

Python never runs on the page's main thread, so the page keeps painting and answering
while Python starts, thinks or draws. The loader (``static/loader.js``) starts the worker
(``static/game-worker.js``), which starts Pyodide, unpacks the project's Python files and
calls ``start()`` with what the page knows (its size, its pointer, its stored values).
From then on the page (``static/game-page.js``) and this module talk in messages:

- The page asks for a frame (``kind: "frame"``) at each of its animation frames while
  the game has something to do, with the window's size and the DOM pointer and key
  events since the last one; ``WorkerFrontEnd.frame`` feeds them to the App as
  ``ui.kit.events``, runs ``app.update(dt)`` and ``app.draw`` (only when the picture
  changed) on a canvas that records its calls (``recorder``), has the worker draw them
  on the page's canvas (an ``OffscreenCanvas``: ``static/drawing.js``), and answers
  with the canvas's CSS size and whatever changed of what the page mirrors: ``#status``, the moves
  (``body[data-moves]``), the review (``body[data-review]``), the ``#announce`` live
  region and ``#position`` description for screen readers (``ui.speech``), the canvas
  cursor, whether sound is on, whether to open the file picker, a kept game to download
  or whose share link to copy (``export``), and whether more frames are wanted. When
  the App rests the page stops asking until an input event or a resize,
  so an idle game costs nothing.
- A record file the player opens (the picker or a drop on the page) comes as its bytes
  (``kind: "file"``) and opens for review (``record.open_record``); a file that is not
  a record is announced (and said in the game's message line), and the game on show
  stays.
- A share link (the page opened at ``#record=...``, or its hash changed to one) comes
  as the hash (``kind: "link"``) and opens the game in the replay at its start, its
  players and result announced (``record.open_link``); a bad, damaged or oversized link
  is announced in one line and changes nothing.
- The Games screen's Download (S) and Copy link (L) go to the page as ``export`` (a
  file name and the record's text, or the link's fragment); the page saves the file or
  puts the link on the clipboard (or, without the clipboard, in a read-only field,
  selected) and says what it did (``kind: "exported"``), which the Games screen's
  status line, and so the live region, says.
- Sounds are played by the page (``speaker``); settings, the game in progress and the
  kept games (the Games screen's) are kept in the page's ``localStorage``
  (``storage.PageStorage``), so a reload mid-game opens straight on the game in
  progress.
- The canvas takes the keyboard focus (Tab reaches it, a ring shows it); the live region
  also says the keyboard cursor's cell, a piece picked up and where it can go, the
  typed-move line and each start-screen change. O goes to the App with the other keys
  (in order), which asks for the file picker (``openPicker``) only when it is not a
  letter of a typed move: '/' then O in one frame types an o.

A page cannot close itself, so the App runs without a way to quit (``can_quit=False``):
no Quit button, and Q does nothing.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

from js import Float32Array, Object, OffscreenCanvas, console, postMessage
from pyodide.ffi import to_js

from oska_gui.session.game_history import GameHistory
from oska_gui.session.saved_game import GameKeeper

from ..core.text import PASSAGE_LIMIT, drawable
from ..ui.app import App
from ..ui.games.games_layout import DOWNLOAD, LINK
from ..ui.kit.events import Event, Resize
from ..ui.kit.sounds import RATE
from ..ui.speech import Announcer, describe
from .canvas2d import HtmlCanvas
from .dom_events import NAMED_KEYS, key_press, pointer_event
from .record import MovesMirror, exported, open_link, open_record, review_text
from .recorder import BOARD, DrawingLog, RecordingContext
from .speaker import PageSpeaker, cue_samples
from .storage import LocalStorageSettings, PageStorage

MAX_DT = 0.1  # seconds: after a hidden tab or a stall, do not jump animations ahead
GAME_KEY = "oska.game"  # the game in progress, beside the settings
HISTORY_KEY = "oska.history"  # the kept games (``play.kept_games``)
# The page's texts that may hold a bot's or a file's words (the others are the program's
# own: the moves' notation, the review's marks, the cursor's name).
SAID = ("status", "announce", "position")

Size = tuple[int, int, float]  # the window's CSS pixels and its device pixel ratio
Show = Callable[[str | None, int, int], None]  # see WorkerFrontEnd


def post(message: dict) -> None:
    """Send ``message`` (a dict of plain values and JS objects) to the page."""
    postMessage(to_js(message, dict_converter=Object.fromEntries))


def warn(message: str) -> None:
    """Report a problem that costs a saved choice or game (never the game) in the console."""
    console.warn(f"Oska: {message}")


class WorkerFrontEnd:
    """Connects one App to the page by messages: frames, events, files and mirrors."""

    def __init__(self, app: App, speaker: PageSpeaker, log: DrawingLog, size: Size,
                 show: Show) -> None:
        """Prepare to run ``app`` for a window of ``size``.

        Args:
            app: the UI App.
            speaker: the App's speaker, silenced when the page says sound failed.
            log: where the App's drawing is recorded.
            size: the window's width and height in CSS pixels and its pixel ratio.
            show: draws a frame's recorded drawing (None: nothing) on the page's canvas,
                its backing store sized first (width and height in device pixels).
        """
        self.app = app
        self.show = show
        self.speaker = speaker
        self.log = log
        width, height, scale = self.size = size
        self.canvas = HtmlCanvas(RecordingContext(log, BOARD), width, height, scale,
                                 new_surface=log.new_surface)
        self.queue: list[Event] = [Resize(width, height)]
        self.last_time: float | None = None
        self.running = True
        self.announcer = Announcer()
        self.moves = MovesMirror()
        # what the page shows now (None: nothing sent yet), so only changes are sent
        self.shown: dict[str, str | None] = {
            "status": None, "review": None, "cursor": None, "position": None}
        self.problem: str | None = None  # a record file's problem, announced next frame

    def receive(self, message: Any) -> None:
        """Act on a message from the page (``kind``: 'frame', 'file', 'link' or
        'silent')."""
        kind = str(message.kind)
        if kind == "frame":
            self.frame(message)
        elif kind == "file":
            self.open_file(str(message.name), message.data)
        elif kind == "link":
            self.open_link(str(message.hash))
        elif kind == "exported":
            self.app.exported(drawable(str(message.text)))
        elif kind == "silent":
            self.speaker.silence()

    def frame(self, request: Any) -> None:
        """Run one frame for the page's ``request`` and answer it; an error stops the
        game and is sent to the page instead (which shows it)."""
        if not self.running:
            return
        try:
            reply = self._step(request)
        except Exception as err:
            self.running = False
            post({"kind": "error", "message": f"Oska stopped because of an error: {err}",
                  "trace": "".join(traceback.format_exception(err))})
            return
        post(reply)

    def _step(self, request: Any) -> dict:
        """Feed the request's events, advance the App, record its drawing; return the
        reply with the drawing and what changed of the page's mirrors."""
        timestamp = float(request.time)
        dt = 0.0 if self.last_time is None else min(MAX_DT, (timestamp - self.last_time) / 1000)
        self.last_time = timestamp
        self.follow_window((int(request.width), int(request.height), float(request.scale)))
        self.queue.extend(translated for translated in map(dom_event, request.events)
                          if translated is not None)
        events, self.queue = self.queue, []
        for event in events:
            self.app.handle(event)
        open_picker = self.app.take_open_request()
        export = exported(self.app.take_export())
        self.app.update(dt)
        if self.app.needs_draw:
            self.app.draw(self.canvas)
        width, height, scale = self.size
        self.show(self.log.take(), round(width * scale), round(height * scale))
        resting = self.app.resting and not self.queue
        if resting:
            self.last_time = None  # the rest is no time for animations to catch up on
        return {"kind": "frame", "size": [width, height],
                "openPicker": open_picker, "more": not resting, "export": export,
                "sound": bool(self.app.settings.sound), **self._changes()}

    def follow_window(self, size: Size) -> None:
        """Resize the canvas and queue a ``Resize`` when the window's size or zoom changed
        (its backing store is sized when this frame is shown, its CSS size by the page)."""
        if size == self.size:
            return
        self.size = width, height, scale = size
        self.canvas.resize(width, height, scale)
        self.queue.append(Resize(width, height))

    def _changes(self) -> dict[str, str]:
        """Return the page's mirrors that changed since the last frame, by name (those
        in ``SAID`` as ``drawable``)."""
        changes = {name: value for name, value in (
            ("status", self.app.status_text), ("review", review_text(self.app)),
            ("cursor", "pointer" if self.app.hand_cursor else "default"))
            if self._changed(name, value)}
        moves = self.moves.changed_text(self.app)
        if moves is not None:
            changes["moves"] = moves
        news = self.announcer.news(self.app)
        if self.problem is not None:
            news, self.problem = self.problem, None
        if news is not None:
            changes["announce"] = news
        if (news is not None or moves is not None) and self._changed(
                "position", description := describe(self.app)):
            changes["position"] = description
        return {name: drawable(text, PASSAGE_LIMIT) if name in SAID else text
                for name, text in changes.items()}

    def _changed(self, name: str, value: str) -> bool:
        """Remember ``value`` as the page's ``name``; return whether it differs."""
        if self.shown[name] == value:
            return False
        self.shown[name] = value
        return True

    def open_file(self, name: str, data: Any) -> None:
        """Open the record file ``name`` (an ArrayBuffer, None when the page could not
        read it) for review, or say why it cannot be opened."""
        self.report(f"Cannot read {name}" if data is None
                    else open_record(self.app, data.to_bytes(), name))

    def open_link(self, hash_text: str) -> None:
        """Open the shared game of the page's ``hash_text`` ('#record=...') in the
        replay, or say in one line why it cannot be opened (changing nothing)."""
        self.report(open_link(self.app, hash_text))

    def report(self, problem: str) -> None:
        """Announce ``problem`` next frame (also in the console, and in the game's
        message line when a game is on show); '' for none. Redraws either way."""
        if problem:
            warn(problem)
            self.problem = problem
            if self.app.game is not None and self.app.scene is self.app.game:
                self.app.game.say(problem)
        self.app.needs_draw = True


def dom_event(event: Any) -> Event | None:
    """Return the ``ui.kit.events`` form of an event the page forwarded, or None to ignore
    it: ``kind`` 'pointer' (a PointerEvent's fields and the canvas's ``left`` and
    ``top``) or 'key' (a KeyboardEvent's fields)."""
    if event.kind == "pointer":
        return pointer_event(event, float(event.left), float(event.top))
    return key_press(event)


def start(init: Any, show: Show) -> WorkerFrontEnd:
    """Create the Oska App with the page's stored settings and game; tell the page what
    it needs (the keys the game takes, the sounds) and return the front end, ready for
    the page's frames.

    Args:
        init: what the page knows: ``width``, ``height`` (CSS pixels) and ``scale`` (its
            pixel ratio); ``touch`` (its main pointer is a finger), ``calm`` (the system
            asks for reduced motion), ``storage`` (whether ``localStorage`` works) and
            ``stored`` (its values by key).
        show: draws a frame on the page's canvas (see ``WorkerFrontEnd``).

    An error here propagates to the worker, which tells the page.
    """
    store = PageStorage(init.stored.to_py(), post) if init.storage else None
    keeper = GameKeeper(LocalStorageSettings(store, warn, key=GAME_KEY, what="saved game"),
                        warn)
    settings = LocalStorageSettings(store, warn, defaults={"animation": "off"}
                                    if init.calm else None)
    history = GameHistory(LocalStorageSettings(store, warn, key=HISTORY_KEY,
                                               what="game history", aside_unreadable=True),
                          warn)
    speaker = PageSpeaker(post)
    size = (int(init.width), int(init.height), float(init.scale))
    app = App(settings, size[0], size[1], can_quit=False, speaker=speaker, keeper=keeper,
              touch=bool(init.touch), open_saved=True, can_open=True, history=history,
              exports=(DOWNLOAD, LINK))
    log = DrawingLog(OffscreenCanvas.new(1, 1).getContext("2d"))
    post({"kind": "ready", "namedKeys": list(NAMED_KEYS),
          "sound": bool(app.settings.sound), "rate": RATE,
          "sounds": {name: Float32Array.new(to_js(data))
                     for name, data in cue_samples().items()}})
    return WorkerFrontEnd(app, speaker, log, size, show)
