"""One game runner and player protocol: self-play, ``oska match``, tournaments, the window.

A ``Player`` answers ``think(position, seconds)``: it works on its move in ``position``
for about ``seconds`` and returns a ``Turn`` once it has decided (None until then; it is
asked again with the same position). A blocking player, such as a fixed-depth search,
simply answers in its first slice; a sliced one (the time-limited AI, an external bot
in its own process) answers when ready, so a frame loop can keep drawing meanwhile
(the window's ``ui.match.Match`` asks its computer players the same way). A ``Turn``
holds the child position chosen, or why the player forfeits, and the time it took.

``Runner`` plays one game from an opening: ``step()`` gives the player to move one
slice and plays its move once it comes, ``run()`` steps to the end, ``rewind(ply)``
takes the game back (undo) and ``record()`` returns the game as a ``records.Record``.
``play(...)`` does all of it in one call. A player that forfeits (an illegal or
malformed answer, an exception, a timeout, a crash) loses the game to the other side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from oska_gui.core.types import SIDE_NAMES, Outcome, Position, Rules, Termination
from oska_gui.play.records import Record, from_positions

SLICE_SECONDS = 0.25  # how long a player thinks between two looks at the clock by ``run``


@dataclass(frozen=True)
class Turn:
    """A player's answer: the chosen child position, or None with why it forfeits.

    ``reason`` is a short key (see ``bot_process.REASONS``: 'timeout', 'illegal', ...)
    and ``detail`` one line on it (the window's players make it a sentence for the status
    line); ``seconds`` is the time the player took.
    """

    child: Position | None
    seconds: float
    reason: str | None = None
    detail: str = ""


class Player(Protocol):
    """A move source for the ``Runner``: blocking (answers at once) or sliced."""

    @property
    def name(self) -> str:
        """Return the player's name for records and reports."""

    def think(self, position: Position, seconds: float) -> Turn | None:
        """Work on the move in ``position`` for about ``seconds``.

        Args:
            position: the position to move in (the game is not over there); asked
                again with the same position until the player answers.
            seconds: the time this slice may take.

        Returns:
            The Turn once decided, else None.
        """

    def stop(self) -> None:
        """Abandon the move in progress (the game was taken back or left)."""


@dataclass(frozen=True)
class Forfeit:
    """A game lost by a forfeit: ``side`` (WHITE or BLACK) forfeited for ``reason``."""

    side: int
    reason: str
    detail: str = ""

    @property
    def outcome(self) -> Outcome:
        """Return the game's end: the other side wins, e.g. 'Black forfeits: timeout (...)'."""
        text = f"{SIDE_NAMES[self.side]} forfeits: {self.reason} ({self.detail})"
        return Outcome(1 - self.side, text, Termination.FORFEIT)


PlyHook = Callable[[int, Position, Position, Turn | None], None]


class Runner:
    """One game between two Players, a slice at a time, with undo and a record."""

    def __init__(self, rules: Rules, players: Sequence[Player],
                 opening: Sequence[Position] = (), slice_seconds: float = SLICE_SECONDS) -> None:
        """Prepare a game of ``players`` (White's, Black's) from the end of ``opening``.

        Args:
            rules: the game's rules.
            players: the White and the Black player.
            opening: the positions so far, from the first (random opening plies);
                empty for the rules' start.
            slice_seconds: how long a player thinks in one ``step``.

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
        self.positions = line
        self.opening_plies = len(line) - 1
        self.seconds: list[float | None] = [None] * self.opening_plies
        self.forfeit: Forfeit | None = None

    @property
    def position(self) -> Position:
        """Return the position now."""
        return self.positions[-1]

    @property
    def outcome(self) -> Outcome | None:
        """Return how the game ended (a forfeit included), or None while it goes on."""
        if self.forfeit is not None:
            return self.forfeit.outcome
        return self.rules.outcome(self.position)

    def step(self) -> Turn | None:
        """Let the player to move think for one slice; play its answer once it comes.

        Returns:
            The player's Turn when it answered in this slice (a move or a forfeit),
            None while it thinks or once the game is over.
        """
        if self.outcome is not None:
            return None
        return self._slice()

    def _slice(self) -> Turn | None:
        """Give the player to move one slice in a game not over (``step`` without the check)."""
        pos = self.position
        turn = self.players[pos.turn].think(pos, self.slice_seconds)
        if turn is None:
            return None
        self.seconds.append(turn.seconds)
        if turn.child is None:
            self.forfeit = Forfeit(pos.turn, turn.reason or "forfeit", turn.detail)
        elif turn.child not in self.rules.children(pos):
            self.forfeit = Forfeit(pos.turn, "illegal", "chose a position no legal move gives")
        else:
            self.positions.append(turn.child)
        return turn

    def run(self, on_ply: PlyHook | None = None) -> Outcome:
        """Step until the game is over and return how it ended.

        Args:
            on_ply: called after each move played with the ply number, the positions
                before and after and the player's Turn.
        """
        while (outcome := self.outcome) is None:
            before = self.position
            turn = self._slice()
            if turn is not None and self.forfeit is None and on_ply is not None:
                on_ply(len(self.positions) - 1, before, self.position, turn)
        return outcome

    def rewind(self, ply: int) -> None:
        """Take the game back to just after ``ply`` plies (0: its first position).

        Both players stop thinking; a forfeit is forgotten; rewinding into the opening
        makes its later plies the players' own.

        Raises:
            ValueError: ``ply`` is not from 0 to the plies played.
        """
        if not 0 <= ply < len(self.positions):
            raise ValueError(f"ply must be 0 to {len(self.positions) - 1}, got {ply}")
        for player in self.players:
            player.stop()
        del self.positions[ply + 1:]
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
        return from_positions(self.positions, self.rules, self.players[0].name,
                              self.players[1].name, outcome, opening_plies=self.opening_plies,
                              forfeit=forfeit, seconds=tuple(self.seconds))


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
