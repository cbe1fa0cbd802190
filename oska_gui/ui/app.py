"""The application: start screen, game screen and help overlay behind one small API.

A front end creates ``App(storage, width, height)`` and then, every frame, feeds it the
input events (``handle``), lets time pass (``update(dt)``, which also gives the computer
a few milliseconds to think) and lets it paint (``draw(canvas)``) when ``needs_draw``
says the picture changed, until ``quitting``. Drawing only then keeps an idle game from
using the processor.
``status_text`` is one line saying what is going on (whose turn, thinking depth, a pass,
the game-over sentence); the browser mirrors it into the page.

Settings (the start screen's choices and display preferences) belong to the App: they
are loaded from the front end's storage at start, and scenes only read them and ask
for changes (``intents.Choose``), which the App adopts and saves.

A game that is over, or a replayed record, can be reviewed (``Action.REVIEW``): the
review screen (``review_scene``) marks every move, analysing in the frames' thinking
time; Back returns to the game, and opening the same game's review again finds it as
it was left.

The desktop may also offer external bots (``bots``: a ``BotSource`` by side, from the
command line) and open a recorded game to step through (``replay``); ``close`` stops
the bots' processes. The browser uses neither, and it makes the App with
``can_quit=False``: a web page cannot close itself, so there is no Quit button and Q
does nothing.

Every finished game, and every game with a move that is left (for a new one, another
game opened, the window closed), is kept in the front end's ``history``
(``session.game_history``); the start screen's Games button (G) lists them on the Games
screen (``games_scene``), which opens one to replay, review or continue.

Memory work is paced (``memory.GcPacer``): the garbage collector stays out of the
frames in which the computer thinks, and the tables of a finished search are freed a
little per frame instead of all in the frame that shows the computer's move.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial

from oska_gui.engine.learned import shipped_models
from oska_gui.engine.registry import GameKind
from oska_gui.play.bot_player import BotSource
from oska_gui.play.game import GameAdapter, Position, make_game
from oska_gui.play.history import History
from oska_gui.play.kept_games import KeptGame
from oska_gui.play.levels import LevelKey
from oska_gui.play.players import Player
from oska_gui.play.records import Record
from oska_gui.play.review.budget import Budget
from oska_gui.session.game_history import GameHistory, continued
from oska_gui.session.match import Match, PlayerFactory, default_players
from oska_gui.session.memory import GcPacer
from oska_gui.session.review import ReviewSession, record_of_match
from oska_gui.session.saved_game import GameKeeper, SavedGame, worth_keeping
from oska_gui.session.settings import Mode, Settings, Storage, load_settings, save_settings

from .game.game_scene import GameScene
from .games.games_scene import GamesScene
from .kit.canvas import Canvas
from .kit.events import Event, KeyPress, PointerDown, PointerMove, Quit, Resize
from .kit.intents import Action, Choose, Intent, OpenKept, Use
from .kit.sounds import Silence, Speaker
from .overlays.confirm import (
    NEW_GAME,
    NEW_GAME_KEPT,
    QUIT,
    Question,
    confirm_layout,
    draw_confirm,
)
from .overlays.help import draw_help
from .review.review_scene import ReviewScene
from .start.start_scene import Option, StartScene, choose, offer_bots

THINK_SLICE = 0.010  # seconds of computer thinking per frame
HELP_KEYS = ("?", "f1")
# Opens a record file where the front end can (the page). The App takes it, in order with
# the other keys, so after '/' it is a letter of the typed move, never the file picker.
OPEN_KEY = "o"
REPLAY_TOAST = "Replay: R or Right arrow for the next move, U or Left arrow to go back"


class App:
    """The whole game UI, independent of pygame and of the browser."""

    def __init__(self, storage: Storage, width: int = 1024, height: int = 720,
                 think_slice: float = THINK_SLICE,
                 make_player: PlayerFactory | None = None,
                 bots: Mapping[int, BotSource] | None = None, can_quit: bool = True,
                 speaker: Speaker | None = None, keeper: GameKeeper | None = None,
                 touch: bool = False, open_saved: bool = False,
                 review_budget: Budget | None = None, can_open: bool = False,
                 history: GameHistory | None = None,
                 exports: tuple[str, ...] = ()) -> None:
        """Open on the start screen with the settings kept in ``storage``.

        Args:
            storage: where settings are loaded from and saved to.
            width: the window width in pixels.
            height: the window height in pixels.
            think_slice: seconds the computer may think per frame.
            make_player: builds the computer player of a side (default: the built-in AI,
                its spent search tables freed by the App a little per frame).
            bots: external bots by side (WHITE = 0, BLACK = 1), offered on the start
                screen and chosen there to begin with.
            can_quit: whether the player may quit (Q, the Quit buttons); a ``Quit``
                event from the front end (the window closing) ends the App either way.
            speaker: plays the game's sounds (None: silence).
            keeper: keeps the game in progress between runs; a game it holds is ready
                to resume from the start screen (None: nothing is kept).
            touch: whether to expect a finger until the first input says otherwise
                (the page asks the browser whether its main pointer is coarse).
            open_saved: whether to open straight on the saved game, if there is one
                (the page: a reload returns to the game), rather than on the start
                screen, where Enter resumes it (the desktop).
            review_budget: the search a position of a review may take (None: the
                default, as ``oska review``'s).
            can_open: whether the front end can open a record file to review (the
                page): the start screen offers Open game and O opens one anywhere but
                in a typed move, which sets ``open_requested`` for the front end to take
                (``take_open_request``).
            history: where finished games, and games left with a move, are kept; the
                start screen then offers the Games screen (None: nothing is kept).
            exports: the Games screen's buttons that hand a game to the front end
                (``games_layout.SAVE`` or ``DOWNLOAD``, ``LINK``); the front end takes
                the request (``take_export``) and says what it did (``exported``).
        """
        self.exports = exports
        self.export: OpenKept | None = None
        self.pacer = GcPacer()
        # parse the learned evaluator's weights (400 KB) now rather than in the frame
        # where a computer player first needs them: ~50 ms here, ~3 times that in a browser
        shipped_models()
        self.can_quit = can_quit
        self.speaker = speaker or Silence()
        self.storage = storage
        self.bots = dict(bots or {})
        self.settings = offer_bots(load_settings(storage), self.bots)
        self.width, self.height = width, height
        self.think_slice = think_slice
        self.review_budget = review_budget
        self.can_open = can_open
        self.open_requested = False
        self._input_seconds = 0.0  # spent handling input since the last update
        self.make_player = make_player or partial(default_players,
                                                  reclaimer=self.pacer.reclaimer)
        self.touch = touch  # whether the last pointer input was a finger
        self.history = history or GameHistory(None)
        self.history.bots = {side: bot.label for side, bot in self.bots.items()}
        self.game: GameScene | None = None
        self.review: ReviewScene | None = None  # the last review opened
        self.start = self._start_scene()
        self.scene: StartScene | GameScene | ReviewScene | GamesScene = self.start
        self.help = False
        self.question: Question | None = None  # the card on show ("Quit Oska?"...)
        self.pointer = (-1.0, -1.0)
        self.finger = touch  # whether the last pointer event (a move too) was a finger's
        self.quitting = False
        self.needs_draw = True  # whether the screen may differ from the last drawing
        self.keeper = keeper or GameKeeper(None)
        saved = self.keeper.load()
        if saved is not None:
            self._restore(saved, open_saved)

    def _restore(self, saved: SavedGame, show: bool) -> None:
        """Make ``saved`` the game in progress: shown if ``show``, else offered on the
        start screen (Resume)."""
        game = make_game(saved.settings.kind, saved.settings.n)
        match = self._going_on(game, saved.settings, saved.positions, saved.cursor)
        match.kept_as = saved.kept_as
        self._show(match)
        self.start = self._start_scene(can_resume=True)
        if not show:
            self.scene = self.start

    def _going_on(self, game: GameAdapter, settings: Settings, positions: Sequence[Position],
                  cursor: int) -> Match:
        """Return a match of ``game`` under ``settings`` that goes on from the record
        ``positions`` with the board at move ``cursor``."""
        return Match(game, settings, self._player, reclaimer=self.pacer.reclaimer,
                     display=self._current_settings, history=History.at(positions, cursor))

    @property
    def asking_quit(self) -> bool:
        """Return True while the "Quit Oska?" card is up."""
        return self.question is QUIT

    @property
    def status_text(self) -> str:
        """Return one line saying what is going on (turn, thinking, pass, game over, or
        the question on show)."""
        if self.question is not None:
            return self.question.spoken
        return self.scene.status_text

    def handle(self, event: Event) -> None:
        """Handle one input event (its time comes out of this frame's thinking)."""
        started = time.perf_counter()
        self.needs_draw = True
        if isinstance(event, (PointerMove, PointerDown)):
            self.pointer = (event.x, event.y)
            self.finger = event.touch
        if isinstance(event, KeyPress) and event.shortcut and self.typing and self.game:
            self.game.line.close()  # Ctrl+Z undoes, Ctrl+Q quits: the typed move is left
        if isinstance(event, Quit):
            self.quitting = True
        elif isinstance(event, Resize):
            self.width, self.height = max(1, event.width), max(1, event.height)
            for scene in {self.start, self.game, self.review, self.scene}:
                if scene is not None:
                    scene.resize(self.width, self.height)
        elif self.question is not None:
            self._answer(self.question, event)
        elif isinstance(event, KeyPress) and self.typing:
            self._act(self.scene.handle(event))  # '?' and 'q' are typed, not commands
        elif self.help:
            if isinstance(event, (KeyPress, PointerDown)):
                self.help = False
                if isinstance(event, KeyPress) and event.key == "q":
                    self._act(Action.QUIT)
        elif isinstance(event, KeyPress) and event.key in HELP_KEYS:
            self.help = True
        elif isinstance(event, KeyPress) and event.key == "q":
            self._act(Action.QUIT)
        elif isinstance(event, KeyPress) and event.key == OPEN_KEY and self.can_open:
            self._act(Action.OPEN)
        else:
            self._act(self.scene.handle(event))
        self._note_input_kind(event)  # after: a click acts on the layout it was aimed at
        self._input_seconds += time.perf_counter() - started

    def _note_input_kind(self, event: Event) -> None:
        """Remember whether the player last pressed with a finger or with the mouse or
        a key: wording, key hints and target sizes follow it. Moving the pointer does
        not count, so the layout never changes under a mouse on its way to a button."""
        if isinstance(event, PointerDown):
            self.touch = event.touch
        elif isinstance(event, KeyPress):
            self.touch = False

    @property
    def typing(self) -> bool:
        """Return True while a move is being typed (the game's typed-move line is
        open): every key is the line's, and a front end's own keys (the page's O)
        must leave them to it."""
        return self.game is not None and self.scene is self.game and self.game.typing

    @property
    def hand_cursor(self) -> bool:
        """Return True when the pointer is over something a click would act on (a
        button, a choice, a piece that can move): the desktop shows the system's hand
        cursor, the page the 'pointer' cursor. Over the help or the quit question,
        which any click answers, it stays an arrow; under a finger there is no pointer."""
        if self.help or self.question is not None or self.finger:
            return False
        return self.scene.clickable(*self.pointer)

    def _touch_input(self) -> bool:
        """Return whether the last input was a touch (scenes read it through this)."""
        return self.touch

    def _act(self, intent: Intent | None) -> None:
        """Carry out a scene's intent: adopt chosen settings, or start, resume, start a
        new game, open the menu or help, or quit."""
        if isinstance(intent, Choose):
            self._keep_settings(intent.settings)
        elif isinstance(intent, OpenKept):
            self.open_kept(intent.game, intent.use, intent.ply)
        elif intent == Action.GAMES and self.history.available:
            self.scene = GamesScene(self.history, self.width, self.height, self._touch_input,
                                    self.exports)
        elif intent == Action.QUIT:
            self._ask_quit()
        elif intent == Action.HELP:
            self.help = True
        elif intent in (Action.START, Action.NEW):
            if self._game_to_lose:
                self.question = NEW_GAME_KEPT if self.history.available else NEW_GAME
            else:
                self.new_game()
        elif intent == Action.RESUME and self.game is not None:
            self._resume(self.game)
        elif intent == Action.REVIEW and self.game is not None:
            self.open_review(self.game)
        elif intent == Action.BACK and self.game is not None:
            self.scene = self.game
        elif intent == Action.OPEN and self.can_open:
            self.open_requested = True
        elif intent == Action.MENU:
            self.start = self._start_scene(can_resume=self.game_in_progress)
            self.scene = self.start

    @property
    def game_in_progress(self) -> bool:
        """Return True while there is a game that is not over."""
        return self.game is not None and not self.game.match.over

    @property
    def _game_to_lose(self) -> bool:
        """Return True when a new game would lose a game worth asking about: one kept
        between runs (in progress, with a move played)."""
        return self.game is not None and worth_keeping(self.game.match)

    def _resume(self, scene: GameScene) -> None:
        """Go back to the game of ``scene``, its computer players at the strengths (and
        evaluators) chosen since on the start screen."""
        match = scene.match
        chosen = replace(match.settings, levels=self.settings.levels,
                         evaluators=self.settings.evaluators)
        if match.replay is None and chosen != match.settings:
            history = match.history
            self._show(self._going_on(match.game, chosen, history.positions, history.cursor))
        else:
            self.scene = scene

    def _ask_quit(self) -> None:
        """Quit, after asking when a game is in progress (nothing happens if the App
        may not quit)."""
        if not self.can_quit:
            return
        if self.game_in_progress:
            self.question = QUIT
        else:
            self.quitting = True

    def _answer(self, question: Question, event: Event) -> None:
        """Take the answer to ``question``: a key or a press on its card. Leaving the
        game quits or starts the new one; staying changes nothing."""
        choice = None
        if isinstance(event, KeyPress):
            choice = question.answer(event.key)
        elif isinstance(event, PointerDown):
            choice = confirm_layout(self.width, self.height).choice_at(event.x, event.y)
        if choice is None:
            return
        self.question = None
        if choice == "quit" and question is QUIT:
            self.quitting = True
        elif choice == "quit":
            self.new_game()

    def open_review(self, scene: GameScene, cursor: int | None = None) -> None:
        """Show the review of ``scene``'s game: the one already made if it is of the
        same game, else a new one at ``cursor`` (None: the position on the board, the
        end of a finished game), the board the same way up."""
        record = record_of_match(scene.match)
        review = self.review
        if review is None or review.session.record != record:
            at = scene.match.history.cursor if cursor is None else cursor
            session = ReviewSession(record, self.review_budget, at, self.pacer.reclaimer)
            review = self.review = ReviewScene(session, self.width, self.height,
                                               self._think_budget, self._touch_input,
                                               scene.flipped)
        self.scene = review

    def _start_scene(self, can_resume: bool = False) -> StartScene:
        """Return a start screen over the current settings, offering the bots."""
        labels = {side: bot.label for side, bot in self.bots.items()}
        return StartScene(self._current_settings, self.width, self.height, can_resume, labels,
                          self.can_quit, self._touch_input, self._sound_available,
                          self.can_open, self.history.available)

    def _sound_available(self) -> bool:
        """Return whether the speaker can play sound (the start screen says if not)."""
        return self.speaker.available

    def _current_settings(self) -> Settings:
        """Return the current settings (scenes read them through this)."""
        return self.settings

    def _keep_settings(self, settings: Settings) -> None:
        """Adopt and save ``settings`` if they differ from the current ones."""
        if settings != self.settings:
            self.settings = settings
            save_settings(self.storage, settings)

    def new_game(self) -> None:
        """Start a new game with the current settings and show it."""
        game = make_game(self.settings.kind, self.settings.n)
        self._show(Match(game, self.settings, self._player, reclaimer=self.pacer.reclaimer,
                         display=self._current_settings))

    def start_size(self, n: int) -> None:
        """Choose the Oska board of size ``n`` (kept as the start screen's choice) and
        start a game on it; a game in progress worth keeping is not lost unasked: the
        new-game question comes first.

        Args:
            n: the board size, one Oska supports (``main.py --n`` checked it).
        """
        self._keep_settings(choose(choose(self.settings, Option.KIND, GameKind.OSKA),
                                   Option.N, n))
        self._act(Action.START)

    def replay(self, record: Record, intro: str = "") -> None:
        """Show the recorded game ``record`` at its start, its moves ready to redo.

        It is played as a two-player game, so that Redo / Undo (and the arrow keys)
        step through it one move at a time, and either side may try another move.
        The saved settings stay as they are.

        Args:
            record: the game, its moves already checked.
            intro: said before how to step through it (a shared game's players and
                result), '' for nothing.
        """
        game = make_game(record.game, record.n)
        settings = replace(self.settings, kind=game.kind, n=record.n, mode=Mode.HVH)
        scene = self._show(Match(game, settings, self._player, replay=record,
                                 reclaimer=self.pacer.reclaimer,
                                 display=self._current_settings))
        scene.say(f"{intro}. {REPLAY_TOAST}" if intro else REPLAY_TOAST)

    def take_open_request(self) -> bool:
        """Return True once after the player asked to open a record file (the front end
        then shows its file picker)."""
        requested, self.open_requested = self.open_requested, False
        return requested

    def take_export(self) -> OpenKept | None:
        """Return, once, the kept game the player asked to save or share (``use``
        ``Use.SAVE`` or ``Use.LINK``), or None; the front end does it and calls
        ``exported``."""
        export, self.export = self.export, None
        return export

    def exported(self, text: str) -> None:
        """Say ``text``, what the front end did with a game to save or share (where it
        went, or why it could not), on the Games screen's status line."""
        if isinstance(self.scene, GamesScene):
            self.scene.done(text)
        self.needs_draw = True

    def review_record(self, record: Record, cursor: int = 0) -> None:
        """Replay the recorded game ``record`` and open its review at once (a record
        file opened in the page), at position ``cursor`` (0: its first)."""
        self.replay(record)
        if self.game is not None:
            self.open_review(self.game, cursor)

    def open_kept(self, kept: KeptGame, use: Use, ply: int) -> None:
        """Open the kept game ``kept`` from the Games screen: replay it from its start,
        review it at move ``ply``, or continue it from there (the game on show, if
        any, is left: kept in the history when it has a move).

        Continuing plays on with the kept game's players, the moves after ``ply`` ready
        to redo; an external bot that played a side and is not offered now is replaced
        by a level, which the game's message line says.
        """
        record = kept.record
        if use in (Use.SAVE, Use.LINK):
            self.export = OpenKept(kept, use, ply)
        elif use == Use.REPLAY:
            self.replay(record)
        elif use == Use.REVIEW:
            self.review_record(record, ply)
        else:
            settings, note = continued(kept, self.settings, self.bots)
            positions = record.positions()
            game = make_game(record.game, record.n)
            scene = self._show(self._going_on(game, settings, positions,
                                              max(0, min(ply, len(positions) - 1))))
            scene.say(note or f"Continuing the game of {kept.players_text()} from "
                              + (f"move {ply}" if ply else "its start"))

    def _show(self, match: Match) -> GameScene:
        """Leave the game in progress (if any: kept in the history when it has a move)
        and show ``match`` instead; return its scene."""
        if self.game is not None:
            self._leave(self.game.match)
        self.review = None
        self.game = GameScene(match, self._current_settings, self.width, self.height,
                              self._think_budget, self.can_quit, self.speaker, self._touch_input)
        self.scene = self.game
        return self.game

    def _leave(self, match: Match) -> None:
        """Leave ``match``: keep it in the history when it has a move, with its entry in
        the saved game (a game replaced by a replay is offered again next time, and
        resumed it replaces its entry), and stop its thinking."""
        self.history.leave(match)
        self.keeper.keep(match)
        match.abandon()

    def _player(self, game: GameAdapter, settings: Settings, side: int) -> Player:
        """Return the computer player of ``side``: its external bot, or ``make_player``'s."""
        if settings.levels[side] == LevelKey.EXTERNAL:
            return self.bots[side].player(game)
        return self.make_player(game, settings, side)

    def close(self) -> None:
        """Stop all thinking and the external bots' processes (the program is ending);
        the game on show, when it has a move, is kept in the history (and its entry in
        the saved game, so that a resumed game replaces it there)."""
        if self.game is not None:
            self._leave(self.game.match)
        for bot in self.bots.values():
            bot.close()

    def update(self, dt: float) -> None:
        """Let ``dt`` seconds pass: animations, and computer thinking for one slice."""
        dt = max(0.0, dt)
        if self._computer_turn():
            self.pacer.hold()
        was_animating = self.scene.animating
        self.scene.update(dt)
        self._input_seconds = 0.0
        self.needs_draw |= was_animating or self.scene.animating
        self.pacer.frame(self._computer_turn())
        match = None if self.game is None else self.game.match
        self.history.follow(match)
        self.keeper.keep(match)

    @property
    def resting(self) -> bool:
        """Return True when nothing changes until the next input event (drawn, nothing
        moving, no memory work left): a front end may stop running frames until then."""
        return not self.needs_draw and not self.scene.animating and self.pacer.idle

    def _think_budget(self) -> float:
        """Return the seconds the computer may think in this frame: the slice, less the
        time the frame's input took (a new game's first frame, say: it builds the
        players and draws a new screen)."""
        return self.think_slice - self._input_seconds

    def _computer_turn(self) -> bool:
        """Return True while the computer thinks (a move, a hint or a review) or is
        about to."""
        if self.review is not None and self.scene is self.review:
            return self.review.busy
        if self.game is None or self.scene is not self.game:
            return False
        match = self.game.match
        return self.game.busy or (not match.over and match.is_computer(match.turn))

    def draw(self, canvas: Canvas) -> None:
        """Paint the current scene (and the help overlay) on ``canvas``.

        A front end may skip drawing while ``needs_draw`` is False: the picture would
        be the same as the last one.
        """
        self.scene.draw(canvas)
        if self.help:
            draw_help(canvas, self.width, self.height, self.can_quit, self.touch,
                      self.can_open)
        if self.question is not None:
            draw_confirm(canvas, confirm_layout(self.width, self.height), self.pointer,
                         self.touch, self.question)
        self.needs_draw = False
