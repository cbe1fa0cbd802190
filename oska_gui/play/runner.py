"""The one game loop: every game of every front end and tool is played by a ``Runner``.

A ``Runner`` holds one game: its players (``players.Player``; None for a side a person
plays), its line of positions with a cursor (``history.History``: undo and redo keep
the moves taken back until another is played), each ply's thinking time and a
forfeit. ``step()`` gives the player to move one slice and plays its move once it
comes; ``push`` plays a person's move or a forced pass; ``run()`` steps to the end;
``undo``/``redo`` move through the line, ``rewind(ply)`` cuts it; ``record()`` returns
the game as a ``records.Record``. ``play(...)`` does it all in one call. A player that
forfeits (an illegal or malformed answer, an exception, a timeout, a crash) loses the
game to the other side.

The window's match, self-play, ``oska match``, tournaments, the strength tool and
training all play their games here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oska_gui.core.types import SIDE_NAMES, Outcome, Position, Rules, Termination
from oska_gui.play.records import Record, from_positions

from .bot_player import forfeit_sentence
from .history import History, StopTest
from .players import Player, Turn

SLICE_SECONDS = 0.25  # how long a player thinks between two looks at the clock by ``run``


@dataclass(frozen=True)
class Forfeit:
    """A game lost by a forfeit: ``side`` (WHITE or BLACK) forfeited for ``reason``.

    ``detail`` is one line on why; ``player`` the forfeiting player's name.
    """

    side: int
    reason: str
    detail: str = ""
    player: str = ""

    @property
    def outcome(self) -> Outcome:
        """Return the game's end as records keep it: the other side wins, e.g.
        'Black forfeits: timeout (no answer within 1 s)'."""
        text = f"{SIDE_NAMES[self.side]} forfeits: {self.reason} ({self.detail})"
        return Outcome(1 - self.side, text, Termination.FORFEIT)

    @property
    def told(self) -> Outcome:
        """Return the game's end as the window tells it, by the player's name, e.g.
        'bot a.py forfeits: did not answer within the time limit'."""
        text = f"{self.player} forfeits: {forfeit_sentence(self.reason, self.detail)}"
        return Outcome(1 - self.side, text, Termination.FORFEIT)


PlyHook = Callable[[int, Position, Position, Turn | None], None]


class Runner:
    """One game between two players (or people), a slice at a time, with undo and a record."""

    def __init__(self, rules: Rules, players: Sequence[Player | None],
                 opening: Sequence[Position] = (), slice_seconds: float = SLICE_SECONDS,
                 future: Sequence[Position] = ()) -> None:
        """Prepare a game of ``players`` (White's, Black's) from the end of ``opening``.

        Args:
            rules: the game's rules.
            players: the White and the Black player; None for a side a person plays
                (its moves come through ``push``).
            opening: the positions so far, from the first (random opening plies, or
                a game resumed); empty for the rules' start.
            slice_seconds: how long a player thinks in one ``step`` by default.
            future: positions after the opening's last, ready to redo (a recorded
                game stepped through).

        Raises:
            ValueError: not two players, or an opening that is not a line of moves.
        """
        if len(players) != 2:
            raise ValueError(f"a game needs two players, got {len(players)}")
        line = list(opening) or [rules.start()]
        for ply, (before, after) in enumerate(zip(line, line[1:], strict=False), start=1):
            if after not in rules.children(before):
                raise ValueError(f"opening ply {ply} is not a legal move")
        self.rules = rules
        self.players = (players[0], players[1])
        self.slice_seconds = slice_seconds
        self.history = History.at([*line, *future], len(line) - 1)
        self.opening_plies = len(line) - 1
        self.seconds: list[float | None] = [None] * self.opening_plies
        self.forfeit: Forfeit | None = None

    @classmethod
    def resumed(cls, rules: Rules, players: Sequence[Player | None],
                positions: Sequence[Position], cursor: int) -> Runner:
        """Return the runner of a game taken up again: ``positions`` with the board at
        ``positions[cursor]`` and the rest ready to redo.

        Args:
            rules: the game's rules.
            players: the White and the Black player (None for a person).
            positions: the game's line from its first position.
            cursor: the index of the position on the board.

        Returns:
            The runner (no opening plies: every move is the players' own).
        """
        runner = cls(rules, players, positions[:1], future=positions[1:])
        runner.history.cursor = cursor
        runner.seconds = [None] * cursor
        return runner

    @property
    def positions(self) -> list[Position]:
        """Return the game's positions from the first up to the one on the board."""
        history = self.history
        return history.positions[:history.cursor + 1]

    @property
    def position(self) -> Position:
        """Return the position now."""
        return self.history.current

    @property
    def outcome(self) -> Outcome | None:
        """Return how the game ended (a forfeit included), or None while it goes on."""
        if self.forfeit is not None:
            return self.forfeit.outcome
        return self.rules.outcome(self.position)

    def step(self, seconds: float | None = None) -> Turn | None:
        """Let the player to move think for one slice; play its answer once it comes.

        Args:
            seconds: the slice's length (default ``slice_seconds``).

        Returns:
            The player's Turn when it answered in this slice (a move or a forfeit),
            None while it thinks, once the game is over or when a person is to move.
        """
        if self.outcome is not None or self.players[self.position.turn] is None:
            return None
        return self._slice(self.slice_seconds if seconds is None else seconds)

    def _slice(self, seconds: float) -> Turn | None:
        """Give the player to move one slice in a game not over (``step`` without checks)."""
        pos = self.position
        player = self.players[pos.turn]
        assert player is not None, "a person's move comes through push"
        turn = player.think(pos, seconds)
        if turn is None:
            return None
        if turn.child is None:
            self._forfeit(Forfeit(pos.turn, turn.reason or "forfeit", turn.detail, player.name),
                          turn.seconds)
        elif turn.child not in self.rules.children(pos):
            self._forfeit(Forfeit(pos.turn, "illegal", "chose a position no legal move gives",
                                  player.name), turn.seconds)
        else:
            self.push(turn.child, turn.seconds)
        return turn

    def _forfeit(self, forfeit: Forfeit, seconds: float) -> None:
        """End the game by ``forfeit``, keeping the failed attempt's time after the moves."""
        del self.seconds[self.history.cursor:]
        self.seconds.append(seconds)
        self.forfeit = forfeit

    def push(self, child: Position, seconds: float | None = None) -> None:
        """Play the move to ``child`` (a person's, a forced pass, a player's answer).

        A move the line goes on with keeps the moves after it (as a redo does);
        another drops them.

        Args:
            child: the position after the move, a child of the current one.
            seconds: the time the move took (None: not measured).
        """
        cursor = self.history.cursor
        if not self.history.push(child) or len(self.seconds) <= cursor:
            del self.seconds[cursor:]
            self.seconds.append(seconds)

    def run(self, on_ply: PlyHook | None = None) -> Outcome:
        """Step until the game is over and return how it ended.

        Args:
            on_ply: called after each move played with the ply number, the positions
                before and after and the player's Turn.
        """
        while (outcome := self.outcome) is None:
            before = self.position
            turn = self._slice(self.slice_seconds)
            if turn is not None and self.forfeit is None and on_ply is not None:
                on_ply(self.history.cursor, before, self.position, turn)
        return outcome

    def stop_players(self) -> None:
        """Let every player abandon the move it is working on."""
        for player in self.players:
            if player is not None:
                player.stop()

    def undo(self, stop: StopTest) -> bool:
        """Move back to the latest earlier position passing ``stop`` (the moves after it
        stay, ready to redo); players stop thinking and a forfeit is forgotten.

        Returns:
            True if the position changed.
        """
        return self._travel(self.history.undo(stop))

    def redo(self, stop: StopTest) -> bool:
        """Move forward to the next position passing ``stop`` (or the line's end).

        Returns:
            True if the position changed.
        """
        return self._travel(self.history.redo(stop))

    def _travel(self, moved: bool) -> bool:
        """Finish an undo or redo that ``moved`` (or not): stop players, drop a forfeit."""
        if moved:
            self.stop_players()
            self.forfeit = None
        return moved

    def rewind(self, ply: int) -> None:
        """Take the game back to just after ``ply`` plies (0: its first position) for good.

        Both players stop thinking; a forfeit is forgotten; rewinding into the opening
        makes its later plies the players' own.

        Raises:
            ValueError: ``ply`` is not from 0 to the plies played.
        """
        if not 0 <= ply <= self.history.cursor:
            raise ValueError(f"ply must be 0 to {self.history.cursor}, got {ply}")
        self.stop_players()
        del self.history.positions[ply + 1:]
        self.history.cursor = ply
        del self.seconds[ply:]
        self.opening_plies = min(self.opening_plies, ply)
        self.forfeit = None

    def record(self) -> Record:
        """Return the finished game as a Record.

        Raises:
            ValueError: the game is not over yet.
        """
        outcome = self.outcome
        if outcome is None:
            raise ValueError("the game is not over: there is no record yet")
        forfeit = None if self.forfeit is None else self.forfeit.reason
        moves = self.history.cursor
        names = [player.name if player is not None else "person" for player in self.players]
        return from_positions(self.positions, self.rules, names[0], names[1], outcome,
                              opening_plies=self.opening_plies, forfeit=forfeit,
                              seconds=tuple(self.seconds[:moves + (forfeit is not None)]))


def play(rules: Rules, players: Sequence[Player], opening: Sequence[Position] = (),
         on_ply: PlyHook | None = None) -> Record:
    """Play a whole game and return its record.

    Args:
        rules: the game's rules.
        players: the White and the Black player.
        opening: the positions so far, from the first; empty for the rules' start.
        on_ply: called after each ply (opening plies included, with Turn None) with
            the ply number, the positions before and after and the Turn.

    Returns:
        The game's Record; a forfeit makes the other side the winner.
    """
    runner = Runner(rules, players, opening)
    if on_ply is not None:
        line = runner.positions
        for ply, (before, after) in enumerate(zip(line, line[1:], strict=False), start=1):
            on_ply(ply, before, after, None)
    runner.run(on_ply)
    return runner.record()
