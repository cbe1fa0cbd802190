"""The desktop frame loop: pygame window, events in, ``App.update``, drawing out.

``DesktopRunner.step()`` runs exactly one frame (tests drive it frame by frame);
``run()`` is the ``async`` loop for ``main.py``: one frame, then ``await
asyncio.sleep(0)``, so the same loop works under pygbag. No threads anywhere: the
App thinks in slices inside ``update``.

While something moves or thinks, frames run at up to 60 a second. Once the App rests
(``App.resting``: drawn, nothing moving, nothing thinking, no memory work), no frames
run at all: the loop sleeps (``asyncio.sleep``, so the loop stays async) and looks for
input in between, ``IDLE_POLL`` apart for the first ``IDLE_WARM`` seconds (a player
at the keys), then ``IDLE_SLOW`` apart (every wake-up costs the process about 0.2 ms);
the next event starts frames again. Once the warm spell is over the runner calls its
``on_rest`` (``main.py``: the speaker closes its idle mixer, whose audio thread would
keep waking).
Given a ``voice`` (``main.py --speak``), each frame's announcement (``ui.speech``: a
move, the cursor's cell, a piece picked up...) goes to it, as the page's live region
gets it.
``pygame.event.wait`` is not used: with SDL's dummy driver it polls the queue every
millisecond (1.7% of a core, measured), and under pygbag a blocking wait would stall
the page.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pygame

from ..engine.registry import GameKind
from ..ui.app import App
from ..ui.board.board_view import piece
from ..ui.kit.events import Resize
from ..ui.speech import Announcer
from .canvas import SurfaceCanvas
from .events import translate
from .save_as import save_copy

WINDOW_SIZE = (1120, 760)
MIN_WINDOW = (360, 300)
FPS = 60
MAX_DT = 0.1  # after a stall, do not jump animations far ahead
IDLE_POLL = 1 / 30  # seconds between two looks for input while the App rests ...
IDLE_WARM = 1.0  # ... for this long, then
IDLE_SLOW = 1 / 15  # seconds between two looks: at most 67 ms before an event is seen
TITLE = "Oska"
ICON_SIZE = 64


def window_icon() -> pygame.Surface:
    """Return the window icon: a white and a black Oska piece, drawn by the UI's code."""
    icon = pygame.Surface((ICON_SIZE, ICON_SIZE), pygame.SRCALPHA)
    canvas = SurfaceCanvas(icon)
    r = ICON_SIZE * 0.27
    piece(canvas, GameKind.OSKA, r, ICON_SIZE * 0.34, ICON_SIZE * 0.34, 0)
    piece(canvas, GameKind.OSKA, r, ICON_SIZE * 0.64, ICON_SIZE * 0.64, 1)
    return icon


def window_surface() -> pygame.Surface:
    """Return the window's surface, which ``set_mode`` may replace on a resize.

    Raises:
        RuntimeError: if the window is closed (pygame then has no surface).
    """
    surface = pygame.display.get_surface()
    if surface is None:
        raise RuntimeError("the pygame window is closed")
    return surface


class DesktopRunner:
    """One pygame window running one App."""

    def __init__(self, app: App, size: tuple[int, int] = WINDOW_SIZE,
                 on_rest: Callable[[], None] | None = None,
                 voice: Callable[[str], None] | None = None) -> None:
        """Open a resizable window of ``size`` for ``app`` (pygame display must be init).

        Args:
            app: the App to run.
            size: the window's size in pixels.
            on_rest: called when the App has rested ``IDLE_WARM`` seconds (None: nothing).
            voice: says each frame's announcement for screen-reader users (None: none).
        """
        self.app = app
        self.on_rest = on_rest
        self.voice = voice
        self.announcer = Announcer()
        pygame.display.set_icon(window_icon())
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(TITLE)
        self.canvas = SurfaceCanvas(self.screen)
        self.clock = pygame.time.Clock()
        self.last = time.perf_counter()
        self.frames = 0
        self.draws = 0
        self.rests = 0  # how many times the loop slept until the next event
        self.hand = False  # whether the hand cursor is wanted (shown where SDL has one)
        self.cursors = True  # False once SDL says it has no system cursors (no display)
        app.handle(Resize(*self.screen.get_size()))

    def step(self, dt: float | None = None) -> bool:
        """Run one frame; return False once the App wants to quit.

        Args:
            dt: seconds to advance the App by, or None for the real time since the
                last frame (capped at ``MAX_DT``).
        """
        events = pygame.event.get()
        for event in events:
            if event.type == pygame.VIDEORESIZE:
                self._resize(event.w, event.h)
                continue
            for ui_event in translate(event):
                self.app.handle(ui_event)
        self.canvas.surface = surface = window_surface()
        if surface.get_size() != (self.app.width, self.app.height):
            self.app.handle(Resize(*surface.get_size()))
        now = time.perf_counter()
        elapsed = min(MAX_DT, now - self.last) if dt is None else dt
        self.last = now
        export = self.app.take_export()
        if export is not None:  # Save as: the only export the window offers
            self.app.exported(save_copy(export.game))
        self.app.update(elapsed)
        if self.voice is not None:
            news = self.announcer.news(self.app)
            if news is not None:
                self.voice(news)
        # any window event (shown, exposed, focus) may have spoiled the picture
        if self.app.needs_draw or events or self.frames == 0:
            self.app.draw(self.canvas)
            pygame.display.flip()
            self.draws += 1
        self._show_cursor()
        self.frames += 1
        return not self.app.quitting

    def _show_cursor(self) -> None:
        """Show the system's hand cursor over what a click acts on (the App decides)
        and the arrow elsewhere, changing it only when that changes."""
        hand = self.app.hand_cursor
        if hand == self.hand:
            return
        self.hand = hand
        if self.cursors:
            try:
                pygame.mouse.set_cursor(pygame.SYSTEM_CURSOR_HAND if hand
                                        else pygame.SYSTEM_CURSOR_ARROW)
            except pygame.error:  # a driver without cursors (the headless dummy)
                self.cursors = False

    def _resize(self, width: int, height: int) -> None:
        """Make the window surface match a new size (no smaller than ``MIN_WINDOW``).

        The App hears of it at the next size check in ``step``.
        """
        size = (max(MIN_WINDOW[0], width), max(MIN_WINDOW[1], height))
        if window_surface().get_size() != size:
            pygame.display.set_mode(size, pygame.RESIZABLE)

    async def run(self, fps: int = FPS, frames: int | None = None) -> None:
        """Run frames until the App quits, yielding to the event loop after each one,
        and sleeping until the next input while the App rests.

        Args:
            fps: the most frames per second.
            frames: stop after this many frames (None: only when the App quits). A
                run with a frame count never rests: a script counts on its frames.
        """
        while self.step() and (frames is None or self.frames < frames):
            if frames is None and self.app.resting:
                await self.rest()
            else:
                self.clock.tick(fps)
                await asyncio.sleep(0)

    async def rest(self) -> None:
        """Sleep until an input or window event is queued (the App rests meanwhile);
        the time slept is no time for animations to catch up on."""
        self.rests += 1
        started, told = time.perf_counter(), False
        while not pygame.event.peek():
            warm = time.perf_counter() - started < IDLE_WARM
            if not warm and not told and self.on_rest is not None:
                self.on_rest()
                told = True
            await asyncio.sleep(IDLE_POLL if warm else IDLE_SLOW)
        self.last = time.perf_counter()
        self.clock.tick()
