"""The application: start screen, game screen and help overlay behind one small API.

A front end creates ``App(storage, width, height)`` and then, every frame, feeds it the
input events (``handle``), lets time pass (``update(dt)``, which also gives the computer
a few milliseconds to think) and lets it paint (``draw(canvas)``), until ``quitting``.
``status_text`` is one line saying what is going on (whose turn, thinking depth, a pass,
the game-over sentence); the browser mirrors it into the page.

Settings (the start screen's choices and display preferences) are loaded from the
front end's storage at start and saved whenever they change.
"""

from __future__ import annotations

import gc

from .canvas import Canvas
from .events import Event, KeyPress, PointerDown, Quit, Resize
from .game_scene import GameScene
from .games import make_game
from .help import draw_help
from .match import Match, PlayerFactory, default_players
from .settings import Settings, Storage, load_settings, save_settings
from .start_scene import StartScene

THINK_SLICE = 0.010  # seconds of computer thinking per frame
HELP_KEYS = ("?", "f1")


class GcPacer:
    """Keeps the garbage collector's full sweeps out of the frames where the AI thinks.

    A search creates a large transposition table; Python's periodic full collections
    walk all of it and can stall a frame for tens of milliseconds. While thinking, every
    frame freezes what exists (frozen objects are skipped by collections); once the
    thinking is over, the objects are unfrozen and collected in one go.
    """

    def __init__(self) -> None:
        """Start with nothing frozen."""
        self.frozen = False

    def frame(self, thinking: bool) -> None:
        """Call once per frame with whether the computer is thinking."""
        if thinking:
            gc.freeze()
            self.frozen = True
        elif self.frozen:
            gc.unfreeze()
            self.frozen = False
            gc.collect()


class App:
    """The whole game UI, independent of pygame and of the browser."""

    def __init__(self, storage: Storage, width: int = 1024, height: int = 720,
                 think_slice: float = THINK_SLICE,
                 make_player: PlayerFactory = default_players) -> None:
        """Open on the start screen with the settings kept in ``storage``.

        Args:
            storage: where settings are loaded from and saved to.
            width: the window width in pixels.
            height: the window height in pixels.
            think_slice: seconds the computer may think per frame.
            make_player: builds the computer player of a side (default: the built-in AI).
        """
        self.storage = storage
        self.settings = load_settings(storage)
        self.width, self.height = width, height
        self.think_slice = think_slice
        self.make_player = make_player
        self.game: GameScene | None = None
        self.start = StartScene(self.settings, width, height)
        self.scene: StartScene | GameScene = self.start
        self.help = False
        self.quitting = False
        self.pacer = GcPacer()

    @property
    def status_text(self) -> str:
        """Return one line saying what is going on (turn, thinking, pass, game over)."""
        return self.scene.status_text

    def handle(self, event: Event) -> None:
        """Handle one input event."""
        if isinstance(event, Quit):
            self.quitting = True
        elif isinstance(event, Resize):
            self.width, self.height = max(1, event.width), max(1, event.height)
            for scene in (self.start, self.game):
                if scene is not None:
                    scene.resize(self.width, self.height)
        elif self.help:
            if isinstance(event, (KeyPress, PointerDown)):
                self.help = False
                if isinstance(event, KeyPress) and event.key == "q":
                    self.quitting = True
        elif isinstance(event, KeyPress) and event.key in HELP_KEYS:
            self.help = True
        elif isinstance(event, KeyPress) and event.key == "q":
            self.quitting = True
        else:
            action = self.scene.handle(event)
            if self.scene is self.start:
                self._keep_settings(self.start.settings)
            else:  # a game keeps its own choices; only display preferences carry over
                self._keep_settings(self.settings.with_display_of(self.scene.settings))
            self._act(action)

    def _act(self, action: str | None) -> None:
        """Carry out a scene's action: start, resume, new, menu, help or quit."""
        if action == "quit":
            self.quitting = True
        elif action == "help":
            self.help = True
        elif action in ("start", "new"):
            self.new_game()
        elif action == "resume" and self.game is not None:
            self.scene = self.game
        elif action == "menu":
            self.start = StartScene(self.settings, self.width, self.height,
                                    can_resume=self.game is not None and not self.game.match.over)
            self.scene = self.start

    def _keep_settings(self, settings: Settings) -> None:
        """Adopt and save ``settings`` if they differ from the current ones."""
        if settings != self.settings:
            self.settings = settings
            save_settings(self.storage, settings)

    def new_game(self) -> None:
        """Start a new game with the current settings and show it."""
        if self.game is not None:
            self.game.match.abandon()
        game = make_game(self.settings.kind, self.settings.n)
        match = Match(game, self.settings, self.make_player)
        self.game = GameScene(match, self.width, self.height, self.think_slice)
        self.scene = self.game

    def update(self, dt: float) -> None:
        """Let ``dt`` seconds pass: animations, and computer thinking for one slice."""
        dt = max(0.0, dt)
        self.scene.update(dt)
        thinking = self.scene is self.game and self.game.busy
        self.pacer.frame(thinking)

    def draw(self, canvas: Canvas) -> None:
        """Paint the current scene (and the help overlay) on ``canvas``."""
        self.scene.draw(canvas)
        if self.help:
            draw_help(canvas, self.width, self.height)
