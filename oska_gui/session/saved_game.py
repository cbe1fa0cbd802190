"""The game in progress, kept between runs: a quit, a reload or a crash loses nothing.

The App hands its game to a ``GameKeeper`` every frame; the keeper writes it to a
storage (a JSON file on the desktop, ``localStorage`` in the browser) whenever its
record changes, and clears it when the game ends (or has no move yet: nothing to
resume). At start the App reads it back and offers to resume. What comes back is
checked move by move against the rules, so a damaged or hand-edited file is set aside
(with a note saying why and where), never played; so is one whose settings name an
external bot, which is never kept.

The game is kept as a game record in progress (``play.records``, no result yet) with
fields only the window needs: ``settings`` (the start screen's choices), ``cursor``
(the move on the board; the moves after it were taken back and can be redone) and,
once the game is in the game history (``game_history``), ``kept_as``: its entry there,
which the game replaces when it is kept again. Saved games of the first form
(``"version": 1`` without a ``format``: the positions as [white, black, turn] lists)
still resume.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from oska_gui.core.types import BLACK, WHITE, Position
from oska_gui.play.game import GameAdapter, make_game
from oska_gui.play.kept_games import MAX_ID
from oska_gui.play.levels import LevelKey
from oska_gui.play.records import RecordError, from_json, from_positions

from .match import Match
from .settings import Settings, Storage

OLD_VERSION = 1  # the first form, its own JSON: settings, positions, cursor


class SavedGameError(ValueError):
    """A saved game that cannot be resumed, with the reason."""


@dataclass(frozen=True)
class SavedGame:
    """A game's choices, its record from the first position, the move on the board, and
    its entry in the game history (``kept_as``: None until it is kept there)."""

    settings: Settings
    positions: tuple[Position, ...]
    cursor: int
    kept_as: str | None = None

    def to_dict(self) -> dict:
        """Return the game as a dict of JSON values: a record in progress with the
        settings and the cursor."""
        rules = make_game(self.settings.kind, self.settings.n).rules
        record = from_positions(list(self.positions), rules, player_name(self.settings, WHITE),
                                player_name(self.settings, BLACK), None)
        kept = {} if self.kept_as is None else {"kept_as": self.kept_as}
        return {**record.to_json(), "settings": self.settings.to_dict(),
                "cursor": self.cursor, **kept}


def player_name(settings: Settings, side: int) -> str:
    """Return who plays ``side`` under ``settings``, for the record: 'Human' or the
    computer's level ('Computer (hard)')."""
    if side in settings.computer_sides():
        return f"Computer ({settings.levels[side]})"
    return "Human"


def of_match(match: Match) -> SavedGame:
    """Return what is kept of ``match``: its settings, record and cursor."""
    history = match.history
    return SavedGame(match.settings, tuple(history.positions), history.cursor, match.kept_as)


def from_dict(data: Any) -> SavedGame:
    """Return the saved game in ``data``, checked against the rules.

    Args:
        data: what the storage held (any JSON value).

    Returns:
        The game, ready to resume.

    Raises:
        SavedGameError: if it is not a saved game (of either form), its settings or
            moves are not valid, a side is an external bot's, it does not begin at the
            start, or it is over at its cursor (nothing to resume).
    """
    if not isinstance(data, dict):
        raise SavedGameError("not a saved game")
    stored = data.get("settings")
    settings = Settings.from_dict(stored)
    # a setting added since the game was saved (the board's way up, say) is its default
    if not isinstance(stored, dict) or settings.to_dict() != {**Settings().to_dict(),
                                                               **stored}:
        raise SavedGameError("its settings are not valid")
    if _names_a_bot(settings):  # never kept (``worth_keeping``): a hand-made file
        raise SavedGameError("it names an external bot, which only the command line gives")
    game = make_game(settings.kind, settings.n)
    if "format" not in data and data.get("version") == OLD_VERSION:
        positions = _old_positions(data.get("positions"), game)
    else:
        positions = _record_positions(data, game)
    cursor = data.get("cursor")
    if type(cursor) is not int or not 0 <= cursor < len(positions):
        raise SavedGameError("its move number is out of range")
    if positions[0] != game.start():
        raise SavedGameError("it does not begin at the starting position")
    if game.outcome(positions[cursor]) is not None:
        raise SavedGameError("it is over")
    kept_as = data.get("kept_as")
    if not isinstance(kept_as, str) or not 0 < len(kept_as) <= MAX_ID:
        kept_as = None  # an entry of the history it is not: kept anew when it is left
    return SavedGame(settings, positions, cursor, kept_as)


def _record_positions(data: dict, game: GameAdapter) -> tuple[Position, ...]:
    """Return the positions of the game record in progress ``data`` of ``game``."""
    try:
        record = from_json(data)
    except RecordError as error:
        raise SavedGameError(f"its record is not sound: {error}") from None
    if (record.game, record.n) != (game.kind, game.n):
        raise SavedGameError("its record is of another game than its settings")
    if record.finished:
        raise SavedGameError("it is over")
    return tuple(record.positions())


def _old_positions(value: Any, game: GameAdapter) -> tuple[Position, ...]:
    """Return ``value`` read as a non-empty list of positions ([white, black, turn]) of
    ``game``, each a legal move after the one before (the first form)."""
    if not isinstance(value, list) or not value:
        raise SavedGameError("it has no positions")
    positions = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 3
                or not all(type(v) is int and v >= 0 for v in item) or item[2] not in (0, 1)):
            raise SavedGameError("a position is not [white, black, turn]")
        positions.append(Position(*item))
    for before, after in zip(positions, positions[1:], strict=False):
        if after not in game.children(before):
            raise SavedGameError("it holds a move the rules do not allow")
    return tuple(positions)


def _names_a_bot(settings: Settings) -> bool:
    """Return True when the computer plays a side of ``settings`` with an external bot."""
    return LevelKey.EXTERNAL in (settings.levels[side] for side in settings.computer_sides())


def has_a_move(positions: Sequence[Position]) -> bool:
    """Return True when a game's record holds a move (on the board or taken back to
    redo): a game without one has nothing to resume or to lose."""
    return len(positions) > 1


def worth_keeping(match: Match) -> bool:
    """Return True for a game to keep: one with a move, not over, not a replay, no
    external bot (those come from the command line and cannot be brought back by
    themselves)."""
    return (has_a_move(match.history.positions) and not match.over
            and match.replay is None and not _names_a_bot(match.settings))


class GameKeeper:
    """Keeps the App's game in a storage whenever its record changes."""

    def __init__(self, storage: Storage | None,
                 warn: Callable[[str], None] | None = None) -> None:
        """Keep games in ``storage`` (None: keep nothing).

        Args:
            storage: where the game is written ({} once there is none to keep).
            warn: called with a sentence when a saved game cannot be resumed.
        """
        self.storage = storage
        self.warn = warn
        self._kept: tuple[int, int, int, Position, str | None] | None = None

    def load(self) -> SavedGame | None:
        """Return the saved game to resume, or None: none saved, one without a move
        (earlier versions kept those), or a bad one (reported and dropped)."""
        if self.storage is None:
            return None
        try:
            data = self.storage.load()
        except Exception:  # a broken store costs the saved game, never the program
            return None
        if not data:
            return None
        try:
            saved = from_dict(data)
        except SavedGameError as err:
            where = self._set_aside()
            if self.warn is not None:
                done = f"set aside as {where}" if where else "dropped"
                self.warn(f"the saved game cannot be resumed: {err}; {done}")
            return None
        return saved if has_a_move(saved.positions) else None

    def keep(self, match: Match | None) -> None:
        """Write ``match`` if its record changed since the last call (clear it once it
        is over, or when there is no game). A replay leaves the kept game as it is: it
        comes from a file, and the game in progress is offered again next time.

        Args:
            match: the App's game, or None.
        """
        if self.storage is None or (match is not None and match.replay is not None):
            return
        if match is None:
            key = None
        else:
            history = match.history
            key = (id(match), len(history.positions), history.cursor, history.current,
                   match.kept_as)
        if key == self._kept:
            return
        self._kept = key
        keep = match is not None and worth_keeping(match)
        self._write(of_match(match).to_dict() if keep and match is not None else {})

    def _set_aside(self) -> str:
        """Set the stored game aside, so that the next start does without it; return
        where it went ('' when it is dropped instead, or the store fails)."""
        try:
            if self.storage is not None:
                return self.storage.set_aside()
        except Exception:  # a store that cannot set aside: drop the game
            self._write({})
        return ""

    def _write(self, data: dict) -> None:
        """Save ``data``, ignoring a store that fails (the game goes on)."""
        try:
            if self.storage is not None:
                self.storage.save(data)
        except Exception:  # the game goes on without saving, as with private browsing
            return
