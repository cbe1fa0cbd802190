"""The games a front end keeps: each finished game, and each game with a move that is
left for another or closed with the window, goes to a history (``play.kept_games``).

``GameHistory`` writes to a storage (``settings.Storage``: a JSON file in the user's
data folder on the desktop, a ``localStorage`` key in the page) and reads it afresh at
every change, so two windows keeping games at once add to each other's. The App hands
it its game every frame (``follow``: a game that has just ended is kept) and when it
leaves one (``leave``: a new game, another game opened, the window closed). A game is
kept under one entry (``Match.kept_as``), replaced when it is kept again (played on
after an undo, finished after a resume), so the history never holds it twice.

A history that cannot be read as a whole is set aside (with a note) before the next
game is kept, never written over; a storage that fails costs the history, never the
game. ``continued`` gives the settings to continue a kept game with: an external bot
that played a side and is not offered now is replaced by a level, and the note says so.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace

from oska_gui.core.types import SIDE_NAMES, WHITE, Termination
from oska_gui.play.kept_games import (
    MAX_CHARS,
    MAX_GAMES,
    HistoryError,
    KeptGame,
    Listing,
    listing,
    new_id,
    now_text,
    with_game,
    without_game,
)
from oska_gui.play.levels import LEVELS_BY_KEY, LevelKey
from oska_gui.play.records import Record, from_positions

from .match import Match
from .saved_game import has_a_move, player_name
from .settings import Mode, Settings, Storage, with_side

FALLBACK_LEVEL = LevelKey.HARD  # plays a bot's side when the bot is not offered now


def kept_record(match: Match, bots: Mapping[int, str]) -> Record:
    """Return the record of ``match`` as kept: a game that ended (a forfeit included) to
    its end, even when moves were taken back to look at it again; else its moves up to
    the position on the board, in progress.

    Args:
        match: the game.
        bots: the label of the external bot of a side, by side (its name in the record).
    """
    history, settings = match.history, match.settings
    positions = list(history.positions[:history.cursor + 1])
    outcome = match.outcome
    end = match.game.outcome(history.positions[-1])
    if outcome is None and end is not None:  # taken back from the end: the game is over
        positions, outcome = list(history.positions), end
    forfeit = (outcome.reason if outcome is not None
               and outcome.termination is Termination.FORFEIT else None)
    names = [f"Bot {bots[side]}" if settings.levels[side] == LevelKey.EXTERNAL
             and side in settings.computer_sides() and side in bots
             else player_name(settings, side) for side in (WHITE, 1 - WHITE)]
    return from_positions(positions, match.game.rules, names[0], names[1], outcome,
                          forfeit=forfeit)


class GameHistory:
    """Keeps games in a storage and lists, finds and deletes them."""

    def __init__(self, storage: Storage | None, warn: Callable[[str], None] | None = None,
                 bots: Mapping[int, str] | None = None,
                 clock: Callable[[], str] = now_text, max_games: int = MAX_GAMES,
                 max_chars: int = MAX_CHARS) -> None:
        """Keep games in ``storage`` (None: keep nothing, list nothing).

        Args:
            storage: where the history is kept (its ``load`` gives {} when empty).
            warn: called with a sentence when the history cannot be read or written.
            bots: the labels of the external bots by side (the players' names).
            clock: returns the time a game is kept, as ``kept_games.now_text`` does.
            max_games: the most games kept (the oldest go first).
            max_chars: the most characters of JSON kept (the oldest go first).
        """
        self.storage = storage
        self.warn = warn or (lambda message: None)
        self.bots = dict(bots or {})
        self.clock = clock
        self.max_games, self.max_chars = max_games, max_chars
        self._last: tuple[Match, int, int] | None = None  # the game last kept, as kept

    @property
    def available(self) -> bool:
        """Return True when games are kept (there is a storage)."""
        return self.storage is not None

    def _load(self) -> object:
        """Return what the storage holds ({} when it fails, said once by ``warn``)."""
        if self.storage is None:
            return {}
        try:
            return self.storage.load()
        except Exception as error:  # a broken store costs the history, never the game
            self.warn(f"cannot read the game history: {error}")
            return {}

    def listing(self, replay: bool = True) -> Listing:
        """Return the kept games (oldest first) and a note per damaged entry (without
        ``replay``, their moves not played yet: see ``kept_games.listing``)."""
        return listing(self._load(), replay)

    def last(self) -> KeptGame | None:
        """Return the game kept last, or None."""
        games = self.listing().games
        return games[-1] if games else None

    def follow(self, match: Match | None) -> None:
        """Keep ``match`` once it has ended (called every frame; a game kept in this
        very state is not written again)."""
        if match is not None and match.over:
            self._keep_changed(match)

    def leave(self, match: Match | None) -> None:
        """Keep ``match``, which is being left (a new game, another game opened, the
        window closed), if it has a move and is not a replay."""
        if match is not None and has_a_move(match.history.positions[:match.history.cursor + 1]):
            self._keep_changed(match)

    def _keep_changed(self, match: Match) -> None:
        """Keep ``match`` unless it is a replay or was kept in this state already."""
        state = (match, match.history.cursor, len(match.history.positions))
        if match.replay is not None or self.storage is None or (
                self._last is not None and self._last[0] is match and self._last == state):
            return
        self._last = state
        self.keep(match)

    def keep(self, match: Match) -> None:
        """Write ``match`` as the newest entry (replacing its earlier one)."""
        game_id = match.kept_as or new_id()
        match.kept_as = game_id
        game = KeptGame(game_id, self.clock(), kept_record(match, self.bots),
                        match.settings.to_dict())
        self._change(lambda data: with_game(data, game, self.max_games, self.max_chars))

    def delete(self, game_id: str) -> None:
        """Remove the entry ``game_id`` (nothing happens when there is none)."""
        self._change(lambda data: without_game(data, game_id))

    def _change(self, change: Callable[[object], dict]) -> None:
        """Write the history as ``change`` makes it from what is stored now; a history
        that cannot be read is set aside first (with a note), never written over."""
        if self.storage is None:
            return
        data = self._load()
        try:
            new = change(data)
        except HistoryError as error:
            where = self._set_aside()
            self.warn(f"the game history cannot be read ({error}); "
                      + (f"set aside as {where}" if where else "started afresh"))
            new = change({})
        try:
            self.storage.save(new)
        except Exception as error:  # the game goes on without its history
            self.warn(f"cannot save the game history: {error}")

    def _set_aside(self) -> str:
        """Set the stored history aside; return where it went ('' if nowhere)."""
        try:
            return self.storage.set_aside() if self.storage is not None else ""
        except Exception:  # a store that cannot set aside: the history starts afresh
            return ""


def continued(game: KeptGame, current: Settings,
              bots: Collection[int] = ()) -> tuple[Settings, str]:
    """Return the settings to continue the kept ``game`` with, and a note ('' if none).

    The players are the kept game's (its mode, side and levels), the display choices the
    current ones; a game kept without settings of its own game and size is continued by
    two players. A side an external bot played keeps its bot when the window offers one
    for it now (``bots``), else plays at ``FALLBACK_LEVEL``, which the note says.

    Args:
        game: the kept game.
        current: the window's settings now.
        bots: the sides with an external bot now.
    """
    record = game.record
    own = Settings.from_dict(game.settings) if game.settings else None
    base = replace(current, kind=record.game, n=record.n)
    if own is None or (own.kind, own.n) != (record.game, record.n):
        return replace(base, mode=Mode.HVH), ""
    settings = replace(base, mode=own.mode, human_side=own.human_side, levels=own.levels,
                       evaluators=own.evaluators)
    notes = []
    for side in settings.computer_sides():
        if settings.levels[side] == LevelKey.EXTERNAL and side not in bots:
            settings = replace(settings, levels=with_side(settings.levels, side,
                                                          FALLBACK_LEVEL))
            notes.append(f"{SIDE_NAMES[side]} was an external bot, which is not given now: "
                         f"the computer plays it at {LEVELS_BY_KEY[FALLBACK_LEVEL].name}")
    return settings, "; ".join(notes)
