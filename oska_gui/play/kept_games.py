"""The games a front end kept: a history of game records, newest last, with a cap.

Both front ends keep every finished game, and every game with a move that was left for
another or closed with the window, as an entry of one JSON object (the desktop's
``history.json`` in the user's data folder, ``history_path``; a ``localStorage`` key in
the page)::

    {"format": "oska-history", "version": 1,
     "games": [{"id": "...", "kept": "2025-03-12T14:05:09Z", "settings": {...},
                "format": "oska-game", "version": 3, "game": "oska", "n": 4, ...}, ...]}

Each entry is a game record (``play.records``, finished or in progress) with three fields
of its own: ``id`` (unique in the history: a game kept again, after an undo say,
replaces its entry), ``kept`` (when, in UTC) and ``settings`` (the window's choices, so
that a game can be continued with its players). An entry is therefore a record file as
it stands: ``oska review`` reads it.

The history holds at most ``MAX_GAMES`` entries and ``MAX_CHARS`` characters of JSON;
the oldest go first. Reading it never fails on one entry: a damaged one is skipped with
a note (``Listing.notes``) and left as it is in the stored list, where a person can
still mend it, until the cap drops it. This module holds the format and the command
line's reading (``read_file``); writing is the front ends' (``session.game_history``).
"""

from __future__ import annotations

import calendar
import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oska_gui.core.files import open_regular
from oska_gui.core.types import SIDE_NAMES, Position
from oska_gui.engine.registry import game_info
from oska_gui.engine.solved_file import data_folder

from .records import Record, RecordError, from_json

FORMAT = "oska-history"
VERSION = 1
FILE_NAME = "history.json"
MAX_GAMES = 200  # entries kept; the oldest go first
MAX_CHARS = 2_000_000  # of the stored JSON: well inside a browser's 5 MB localStorage
MAX_BYTES = 4 * MAX_CHARS  # of a history file read: its characters in UTF-8, at most
MAX_ID = 64  # characters of an entry's id
OWN_FIELDS = ("id", "kept", "settings")  # an entry's fields beside the record's
KEPT_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # when a game was kept, in UTC


class HistoryError(ValueError):
    """The stored history as a whole cannot be read (not a history, not JSON)."""


@dataclass(frozen=True)
class KeptGame:
    """One kept game: its ``id``, when it was ``kept`` (UTC, ISO 8601), the window's
    ``settings`` (a dict as stored; {} when unknown) and its ``record``."""

    id: str
    kept: str
    record: Record
    settings: dict = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the entry as stored: the record's fields and the entry's own."""
        return {"id": self.id, "kept": self.kept, "settings": self.settings,
                **self.record.to_json()}

    @property
    def plies(self) -> int:
        """Return how many moves (plies) the game has."""
        return len(self.record.moves)

    def players_text(self) -> str:
        """Return the players, e.g. 'Human vs Computer (hard)' (White first)."""
        return f"{self.record.white} vs {self.record.black}"

    def short_players_text(self) -> str:
        """Return the players in short, a computer by its level: 'Human vs Hard'."""
        return " vs ".join(_short_name(name) for name in (self.record.white,
                                                          self.record.black))

    def size_text(self) -> str:
        """Return the game and its board, e.g. 'Oska n = 5'."""
        info = game_info(self.record.game)
        return f"{info.title} {info.size_text(self.record.n)}"

    def result_text(self) -> str:
        """Return how the game ended in a few words: 'White won', 'Draw', 'Unfinished'."""
        if self.record.ending is None:
            return "Unfinished"
        winner = self.record.ending.winner
        return "Draw" if winner is None else f"{SIDE_NAMES[winner]} won"

    def length_text(self) -> str:
        """Return the game's length, e.g. '23 moves' (a move is one side's ply)."""
        return f"{self.plies} move{'' if self.plies == 1 else 's'}"

    def date_text(self) -> str:
        """Return when it was kept in local time, e.g. '2025-03-12 14:05' (the stored
        text itself when it cannot be read as a time)."""
        try:
            stamp = calendar.timegm(time.strptime(self.kept, KEPT_FORMAT))
            return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))
        except (ValueError, OverflowError, OSError):
            return self.kept[:20]

    def line(self) -> str:
        """Return the game in one line: date, players, size, result, length."""
        return " · ".join((self.date_text(), self.players_text(), self.size_text(),
                           self.result_text(), self.length_text()))


def _short_name(name: str) -> str:
    """Return a player's name in short: 'Computer (hard)' as 'Hard', others as they are."""
    if name.startswith("Computer (") and name.endswith(")"):
        return name[len("Computer ("):-1].title()
    return name


@dataclass
class Listing:
    """What a history holds: the games that read well (oldest first) and a note for
    each entry that does not (or for a history that cannot be read at all)."""

    games: list[KeptGame] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def find(self, game_id: str) -> KeptGame | None:
        """Return the game with ``game_id``, or None."""
        return next((game for game in self.games if game.id == game_id), None)


def history_path() -> Path:
    """Return the desktop's history file: ``history.json`` in the user's data folder
    (``$XDG_DATA_HOME/oska-gui``, else ``~/.local/share/oska-gui``)."""
    return data_folder() / FILE_NAME


def now_text(seconds: float | None = None) -> str:
    """Return the time ``seconds`` (default: now) as the UTC text of ``kept``."""
    return time.strftime(KEPT_FORMAT, time.gmtime(seconds))


def new_id() -> str:
    """Return a new entry id: random, 12 hex digits."""
    return secrets.token_hex(6)


def entries(data: Any) -> list[Any]:
    """Return the stored entries of a history's JSON ``data`` ({} or None: none), as
    they are, oldest first; raises HistoryError when ``data`` is not a history."""
    if data is None or data == {}:
        return []
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise HistoryError(f"not a game history (expected \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise HistoryError(f"unsupported history version {data.get('version')!r:.40}")
    games = data.get("games")
    if not isinstance(games, list):
        raise HistoryError("its games are not a list")
    return games


def stored(games: list[Any]) -> dict[str, Any]:
    """Return the history's JSON object holding ``games`` (entries as stored)."""
    return {"format": FORMAT, "version": VERSION, "games": games}


def kept_game(entry: Any, replay: bool = True) -> KeptGame:
    """Return the kept game of one stored ``entry``; raises RecordError saying why it
    is damaged (a bad id or time, or a record that does not load). Without ``replay``
    its moves are not played (``records.from_json``): ``check`` does that later."""
    if not isinstance(entry, dict):
        raise RecordError("it is not an object")
    game_id, kept, settings = (entry.get(name) for name in OWN_FIELDS)
    if not isinstance(game_id, str) or not 0 < len(game_id) <= MAX_ID:
        raise RecordError("its id is not a short text")
    if not isinstance(kept, str) or len(kept) > MAX_ID:
        raise RecordError("its time is not a short text")
    record = from_json({key: value for key, value in entry.items() if key not in OWN_FIELDS},
                       replay)
    return KeptGame(game_id, kept, record, settings if isinstance(settings, dict) else {})


def listing(data: Any, replay: bool = True) -> Listing:
    """Return the games of a history's JSON ``data``, each damaged entry skipped with
    a note ('game 3 of the history is damaged and skipped: ...'); a ``data`` that is
    not a history at all gives one note and no games.

    Without ``replay`` the moves are not played (a full history of long games reads in
    a blink): a game with an illegal move is then found by ``check`` when it is used."""
    try:
        stored_games = entries(data)
    except HistoryError as error:
        return Listing(notes=[f"the game history cannot be read: {error}"])
    found = Listing()
    for number, entry in enumerate(stored_games, start=1):
        try:
            found.games.append(kept_game(entry, replay))
        except RecordError as error:
            found.notes.append(f"game {number} of the history is damaged and skipped: "
                               f"{str(error):.200}")
    return found


def check(game: KeptGame) -> list[Position]:
    """Return the positions of ``game``'s record, its moves played and its result
    checked (a game listed without ``replay``); raises RecordError when it is damaged."""
    return from_json(game.record.to_json()).positions()


def _size(entry: Any) -> int:
    """Return the characters ``entry`` takes in the stored JSON (and a separator)."""
    return len(json.dumps(entry, sort_keys=True)) + 2


def capped(games: list[Any], max_games: int = MAX_GAMES,
           max_chars: int = MAX_CHARS) -> list[Any]:
    """Return the newest of ``games`` (oldest first) that fit the cap: at most
    ``max_games`` entries and ``max_chars`` characters; the newest is always kept."""
    kept: list[Any] = []
    total = 0
    for entry in reversed(games):
        total += _size(entry)
        if kept and (len(kept) >= max_games or total > max_chars):
            break
        kept.append(entry)
    return kept[::-1]


def with_game(data: Any, game: KeptGame, max_games: int = MAX_GAMES,
              max_chars: int = MAX_CHARS) -> dict[str, Any]:
    """Return the history ``data`` with ``game`` as its newest entry (replacing an entry
    of the same id), capped; raises HistoryError when ``data`` is not a history."""
    games = [entry for entry in entries(data)
             if not (isinstance(entry, dict) and entry.get("id") == game.id)]
    games.append(game.to_json())
    return stored(capped(games, max_games, max_chars))


def without_game(data: Any, game_id: str) -> dict[str, Any]:
    """Return the history ``data`` without the entry ``game_id``; raises HistoryError
    when ``data`` is not a history."""
    return stored([entry for entry in entries(data)
                   if not (isinstance(entry, dict) and entry.get("id") == game_id)])


def history_text(data: dict[str, Any]) -> str:
    """Return the text of a history file: JSON, one game a line."""
    games = ",\n".join(json.dumps(entry, sort_keys=True) for entry in data.get("games", []))
    return (f'{{"format": {json.dumps(data.get("format"))}, '
            f'"version": {json.dumps(data.get("version"))}, "games": [\n{games}\n]}}\n')


def read_file(path: Path) -> Listing:
    """Return the games kept in the history file ``path``, without changing it (the
    command line's reading): none when it is missing; a note when it is not a regular
    file, cannot be read, is too big or is not a history."""
    try:
        descriptor = open_regular(path)
        with open(descriptor, "rb") as file:
            raw = file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return Listing()
    except OSError as error:
        return Listing(notes=[f"cannot read the game history {path}: "
                              f"{error.strerror or error}"])
    if not raw:
        return Listing()
    if len(raw) > MAX_BYTES:
        return Listing(notes=[f"the game history {path} is over {MAX_BYTES:,} bytes"])
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as error:
        return Listing(notes=[f"the game history {path} is not JSON: {str(error):.80}"])
    return listing(data)
