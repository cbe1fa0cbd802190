"""The flow of one game: whose turn it is, computer moves, passes, undo/redo and hints.

``Match`` knows nothing about drawing. The game scene feeds it the human's moves and
calls ``update`` every frame; the match then lets the computer think for a slice of
time when it is the computer's turn, plays forced passes after a short announcement,
and records what happened as ``Played`` and ``Announced`` events for the scene to
animate. ``status_text`` is the one-line summary shown (and mirrored into the page by
the browser): whose turn, thinking depth, pass, or the game-over sentence.

A match may also step through a recorded game (a ``records.Record``): its positions
are the redo future from the start, and a recorded forfeit ends the game at its last
position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from oska_gui.core.types import BLACK, SIDE_NAMES, WHITE, Move, Outcome
from oska_gui.play.game import GameAdapter, Position
from oska_gui.play.history import History
from oska_gui.play.players import Player
from oska_gui.play.records import Record
from oska_gui.play.runner import Runner
from oska_gui.play.search_player import make_player

from .hints import HintPlayer
from .memory import Reclaimer
from .settings import PACE_DELAYS, Animation, Mode, Settings

PASS_SECONDS = 1.1  # how long a pass is announced before it is played
REPLY_SECONDS = 0.25  # a short breath before the computer answers a human move


@dataclass(frozen=True)
class Played:
    """A move entered the record: ``before`` -> ``after`` by ``move``.

    ``dropped_at`` is the pixel where a human dropped a dragged piece (else None).
    """

    before: Position
    after: Position
    move: Move
    dropped_at: tuple[float, float] | None = None


@dataclass(frozen=True)
class Announced:
    """A message for the players, e.g. that a side must pass."""

    text: str


Event = Played | Announced
PlayerFactory = Callable[[GameAdapter, Settings, int], Player]


def default_players(game: GameAdapter, settings: Settings, side: int,
                    reclaimer: Reclaimer | None = None) -> Player:
    """Return the built-in computer player for ``side`` as ``settings`` ask.

    ``reclaimer`` frees its spent search tables a little per frame (None: at once).
    """
    return make_player(game, settings.levels[side], settings.evaluators[side], reclaimer)


class Match:
    """One game in progress: record, players, turn flow, undo/redo, hint, pause."""

    def __init__(self, game: GameAdapter, settings: Settings,
                 make: PlayerFactory = default_players, start: Position | None = None,
                 replay: Record | None = None, reclaimer: Reclaimer | None = None,
                 display: Callable[[], Settings] | None = None,
                 history: History | None = None) -> None:
        """Start a game of ``game`` as ``settings`` say (mode, sides, levels).

        Args:
            game: the game adapter (rules, board size).
            settings: the mode, human side, levels and evaluators of this game.
            make: builds the computer player of a side (an external bot may plug in here).
            start: the position to start from (default: the game's starting position).
            replay: a recorded game of ``game`` to step through: the match starts at its
                first position with the rest ready to redo (``start`` is then unused).
            reclaimer: frees the hint search's spent tables a little per frame (None:
                at once).
            display: returns the current display preferences (animation, pace), which
                may change during the game (None: those of ``settings``).
            history: the record of a game to go on with (a saved game resumed); then
                ``start`` and ``replay`` are unused.
        """
        self.game = game
        self.settings = settings
        self.replay = replay
        self._replayed = [] if replay is None else replay.positions()
        self.players: dict[int, Player] = {side: make(game, settings, side)
                                           for side in settings.computer_sides()}
        sides = (self.players.get(WHITE), self.players.get(BLACK))
        if history is not None:
            self.runner = Runner.resumed(game.rules, sides, history.positions, history.cursor)
        elif self._replayed:
            self.runner = Runner(game.rules, sides, self._replayed[:1],
                                 future=self._replayed[1:])
        else:
            self.runner = Runner(game.rules, sides, [game.start() if start is None else start])
        self.paused = False
        self.step_once = False
        self.delay = 0.0  # seconds before the computer may start its next move
        self.pass_timer: float | None = None
        self.thinking: int | None = None
        self.forfeit: Outcome | None = self._recorded_forfeit()
        self.hint: Move | None = None
        self.hint_proof = ""  # the exact result behind the hint, in words, when known
        self._hinter: HintPlayer | None = None
        self.reclaimer = reclaimer
        self.events: list[Event] = []
        self.display = display or (lambda: settings)
        self.kept_as: str | None = None  # its entry in the game history, once kept

    # -- state -----------------------------------------------------------------------

    @property
    def history(self) -> History:
        """Return the game's line of positions with the cursor on the board's."""
        return self.runner.history

    @property
    def position(self) -> Position:
        """Return the position on the board."""
        return self.history.current

    @property
    def turn(self) -> int:
        """Return the side to move (0 White, 1 Black)."""
        return self.position[2]

    @property
    def outcome(self) -> Outcome | None:
        """Return how the game ended (a forfeit included), or None while it goes on."""
        return self.forfeit or self.game.outcome(self.position)

    @property
    def over(self) -> bool:
        """Return True once the game has ended."""
        return self.outcome is not None

    @property
    def in_motion(self) -> bool:
        """Return True while the game goes on by itself: the computer to move (unpaused),
        a pass to announce and play, or a hint being looked for."""
        if self.over:
            return False
        if self.hint_pending or self.game.pass_child(self.position) is not None:
            return True
        return self.is_computer(self.turn) and (not self.paused or self.step_once)

    def is_computer(self, side: int) -> bool:
        """Return True when the computer plays ``side``."""
        return side in self.players

    @property
    def human_to_move(self) -> bool:
        """Return True when a human may move now (a real move, game not over)."""
        return (not self.over and not self.is_computer(self.turn)
                and self.game.pass_child(self.position) is None)

    def legal_moves(self) -> list:
        """Return the human's legal moves now (empty when it is not a human's turn)."""
        return self.game.legal_moves(self.position) if self.human_to_move else []

    def take_events(self) -> list[Event]:
        """Return the events since the last call and forget them."""
        events, self.events = self.events, []
        return events

    # -- moves -----------------------------------------------------------------------

    def play(self, child: Position, dropped_at: tuple[float, float] | None = None) -> bool:
        """Play the human's move leading to ``child``; return False if not allowed now."""
        if not self.human_to_move or child not in self.game.children(self.position):
            return False
        self._record(child, dropped_at)
        if self.settings.mode == Mode.HVC:
            self.delay = REPLY_SECONDS
        return True

    def _record(self, child: Position, dropped_at: tuple[float, float] | None = None) -> None:
        """Push ``child`` into the record and announce the move; a game that ends is no
        longer paused (there is nothing left to resume)."""
        before = self.position
        self._stop_thinking()
        self.runner.push(child)
        self._played(before, dropped_at)

    def _played(self, before: Position, dropped_at: tuple[float, float] | None = None) -> None:
        """Announce the move from ``before`` to the position now; a game that ends is no
        longer paused (there is nothing left to resume)."""
        after = self.position
        self.forfeit = self._recorded_forfeit()
        if self.over:
            self.paused = self.step_once = False
        self.events.append(Played(before, after, self.game.move_between(before, after),
                                  dropped_at))

    def _stop_thinking(self) -> None:
        """Abandon any computer search or hint in progress and forget the hint."""
        if self.thinking is not None:
            self.players[self.thinking].stop()
            self.thinking = None
        if self._hinter is not None:
            self._hinter.stop()
            self._hinter = None
        self.hint, self.hint_proof = None, ""
        self.pass_timer = None

    def abandon(self) -> None:
        """Stop all thinking: the game is being left (new game, quit)."""
        self._stop_thinking()

    # -- the frame -----------------------------------------------------------------

    def update(self, dt: float, budget: float, busy: bool = False) -> None:
        """Advance the game by one frame.

        Args:
            dt: seconds since the last frame.
            budget: seconds the computer may think during this frame; none (<= 0) when
                the frame's time went elsewhere (thinking waits for the next frame).
            busy: True while the scene still animates the last move; nothing new is
                played then (thinking waits too).
        """
        if self.over or busy:
            return
        if self._hinter is not None and budget > 0:
            self._advance_hint(self._hinter, budget)
        passed = self.game.pass_child(self.position)
        if passed is not None:
            self._advance_pass(dt, passed)
        elif self.is_computer(self.turn):
            self._advance_computer(dt, budget)

    def _advance_pass(self, dt: float, passed: Position) -> None:
        """Announce a forced pass, then play it once the announcement has been seen."""
        if self.pass_timer is None:
            side = SIDE_NAMES[self.turn]
            self.events.append(Announced(f"{side} has no legal move and passes"))
            factor = 0.0 if self.display().animation == Animation.OFF else 1.0
            self.pass_timer = PASS_SECONDS * factor
            return
        self.pass_timer -= dt
        if self.pass_timer <= 0:
            self._record(passed)

    def _advance_computer(self, dt: float, budget: float) -> None:
        """Let the computer to move think for ``budget`` seconds; play its move if found."""
        if self.paused and not self.step_once:
            return
        if self.delay > 0:
            self.delay -= dt
            return
        if budget <= 0:
            return
        before = self.position
        self.thinking = self.turn
        turn = self.runner.step(budget)
        if turn is None:
            return
        self.thinking = None
        self._stop_thinking()
        forfeit = self.runner.forfeit
        if forfeit is not None:
            self.forfeit = forfeit.told
            return
        self._played(before)
        self.step_once = False
        if self.settings.mode == Mode.CVC:
            self.delay = PACE_DELAYS[self.display().pace]

    # -- hint ------------------------------------------------------------------------

    def request_hint(self) -> bool:
        """Start looking for a move to suggest to the human; False if not their turn."""
        if not self.human_to_move:
            return False
        if self._hinter is None and self.hint is None:
            self._hinter = HintPlayer(self.game, self.reclaimer)
            self._hinter.start(self.position)
        return True

    def _advance_hint(self, hinter: HintPlayer, budget: float) -> None:
        """Let the hint search ``hinter`` think for ``budget`` seconds; keep its move when found."""
        child = hinter.advance(budget)
        if child is not None:
            self.hint = self.game.move_between(self.position, child)
            self.hint_proof = hinter.proven
            self._hinter = None

    @property
    def hint_pending(self) -> bool:
        """Return True while a hint is being searched for."""
        return self._hinter is not None

    # -- undo, redo, pause -------------------------------------------------------------

    def _stop_test(self) -> Callable[[Position], bool]:
        """Return where undo and redo stop: a human's turn (a computer's too in CvC)."""
        game, players = self.game, self.players
        everyone = self.settings.mode == Mode.CVC

        def stop(pos: Position) -> bool:
            """Return True for a position where a real move is to be chosen."""
            if game.outcome(pos) is not None or game.pass_child(pos) is not None:
                return False
            return everyone or pos[2] not in players

        return stop

    def can_undo(self) -> bool:
        """Return True when there is a move to take back."""
        return self.history.can_undo(self._stop_test())

    def can_redo(self) -> bool:
        """Return True when there is a taken-back move to play again."""
        return self.history.can_redo(self._stop_test())

    def undo(self) -> bool:
        """Take back to the previous turn of a human (also the computer's reply).

        In computer vs computer it takes back one move and pauses. Returns True if the
        position changed.
        """
        return self._travel(self.runner.undo)

    def redo(self) -> bool:
        """Replay taken-back moves up to the next human turn; True if anything changed."""
        return self._travel(self.runner.redo)

    def _travel(self, move_cursor: Callable[[Callable[[Position], bool]], bool]) -> bool:
        """Move through the record with ``move_cursor``, stopping all thinking first."""
        self._stop_thinking()
        moved = move_cursor(self._stop_test())
        if moved:
            self.forfeit = self._recorded_forfeit()
            self.delay = 0.0
            if self.settings.mode == Mode.CVC:
                self.paused = True
        return moved

    def _recorded_forfeit(self) -> Outcome | None:
        """Return the replay's forfeit when the board shows the replay's last position."""
        replay, history = self.replay, self.history
        if replay is None or replay.forfeit is None:
            return None
        at_end = (history.cursor == len(self._replayed) - 1
                  and history.positions == self._replayed)
        return replay.outcome if at_end else None

    def toggle_pause(self) -> None:
        """Pause or resume a computer-vs-computer game (no effect in other modes, or once
        the game is over)."""
        if self.settings.mode == Mode.CVC and not self.over:
            self.paused = not self.paused
            self.delay = 0.0

    def single_step(self) -> None:
        """In a paused computer-vs-computer game, let the computer play exactly one move."""
        if self.settings.mode == Mode.CVC:
            self.paused = True
            self.step_once = True
            self.delay = 0.0

    # -- text --------------------------------------------------------------------------

    def thinking_text(self, progress: bool = True) -> str:
        """Return 'thinking… looking N moves ahead · S s' for the computer or hint at
        work, else ''.

        Args:
            progress: whether to tell the search's progress (depth, seconds), which
                changes every frame; without it the text reads 'thinking…'.
        """
        if self.thinking is not None:
            work, status = "thinking…", self.players[self.thinking].status
        elif self._hinter is not None:
            work, status = "looking for a hint…", self._hinter.status
        else:
            return ""
        return f"{work} {status}".strip() if progress else work

    @property
    def status_text(self) -> str:
        """Return one line: the game-over sentence, a pass, thinking, or whose turn."""
        return self.status(progress=True)

    @property
    def calm_status(self) -> str:
        """Return the status without the thinking's progress: it changes only when
        something a player cares about does (what a screen reader announces)."""
        return self.status(progress=False)

    def status(self, progress: bool) -> str:
        """Return the game-over sentence, a pass, thinking, or whose turn.

        Args:
            progress: whether to tell the thinking's depth and time.
        """
        outcome = self.outcome
        if outcome is not None:
            return outcome.describe()
        side = SIDE_NAMES[self.turn]
        if self.game.pass_child(self.position) is not None:
            return f"{side} has no legal move and passes"
        if self.is_computer(self.turn):
            if self.paused and not self.step_once:
                return f"Paused: {side} to move"
            if self.thinking is not None:
                return f"{side} is {self.thinking_text(progress)}"
            return f"{side} to move"
        if self.hint is not None:
            return f"Hint for {side}: {self.game.move_text(self.hint)}"
        if self._hinter is not None:
            return f"{side} to move: {self.thinking_text(progress)}"
        if self.settings.mode == Mode.HVC:
            return f"Your move ({side})"
        return f"{side} to move"
