"""Game records: a game of any of the project's games and sizes as a small JSON file.

A record names its game ('oska', 'hexapawn': ``engine.registry.GameKind``) and board
size, the players and the moves in notation ('b2-c1', 'b2xd3', 'pass'), and how the
game ended: an ``Outcome``, who won, the ``Termination`` and the reason in words. A
record may also be a game in progress (no result yet: the window keeps its game so). It
may start from a position other than the usual start (``start``), may count random
opening plies (``opening_plies``, the first moves of ``moves``) and may carry each
move's thinking time (``seconds``: None for opening plies; after a forfeit one more
entry, the failed attempt's time). When a player forfeited (an external bot that timed
out, say) ``forfeit`` holds the reason and the game ends before the rules end it.

The rules come from the registry (``game_info(game).rules(n)``), so every game the
registry knows has records, and ``load`` replays every move with them: a record that
loads is a legal game whose result agrees with its final position. A bad file raises
``RecordError``, also when it is hostile (nested thousands deep, megabytes long, a game
or board size the registry does not support, numbers where text belongs): every check
is cheap and comes first. The GUI replays a record with ``record.positions()``.

The file::

    {"format": "oska-game", "version": 3, "game": "oska", "n": 4,
     "players": {"white": "AI depth 4 (strong)", "black": "bot.py:oskaplayer"},
     "moves": ["a4-b3", "e1-d1", ...], "result": "white", "reason": "...",
     "termination": "home", "opening_plies": 2, "forfeit": null, "seconds": [0.01, ...],
     "start": {"board": [...], "turn": "w"}}   (start only when not the usual one)

A game in progress has "result", "reason" and "termination" null. Older files still
load: version 2 (before records named their game: always Oska) as it is, and version 1
(before records stored the termination) with the termination read off the final
position, or a forfeit when one is recorded. Fields a reader does not know are left
alone, so a program may add its own (the window's saved game adds its settings).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from oska_gui.core.files import write_whole
from oska_gui.core.types import (
    BLACK,
    SIDE_LETTERS,
    SIDE_WORDS,
    WHITE,
    Outcome,
    Position,
    Rules,
    Termination,
)
from oska_gui.engine.registry import GameInfo, GameKind, game_info
from oska_gui.games.board_forms import check_board_list, check_piece_counts, read_player, read_rows

FORMAT = "oska-game"
VERSION = 3
OLD_VERSIONS = (1, 2)  # still read: version 2 is Oska's, version 1 lacks the termination
UNTERMINATED = (1,)  # the versions whose termination is worked out on load
RESULTS = {"white": WHITE, "black": BLACK, "draw": None}
# Far above any real record (the longest game at n = 24 has a few thousand plies, about
# 100 kB), far below what could hurt: reading stops here.
MAX_BYTES = 4 * 1024 * 1024


class RecordError(ValueError):
    """A game record file that cannot be read or does not describe a legal game."""


@dataclass(frozen=True)
class Record:
    """One game: size, players, moves in notation and how it ended (``ending``, None
    while the game is in progress); ``game`` says which game it is."""

    n: int
    white: str
    black: str
    moves: tuple[str, ...]
    ending: Outcome | None
    start: tuple[str, ...] | None = None
    start_turn: int = WHITE
    opening_plies: int = 0
    forfeit: str | None = None
    seconds: tuple[float | None, ...] = field(default=())
    game: GameKind = GameKind.OSKA

    @property
    def rules(self) -> Rules:
        """Return the rules of this record's game and board size."""
        return game_info(self.game).rules(self.n)

    @property
    def finished(self) -> bool:
        """Return True when the record says how the game ended (False: in progress)."""
        return self.ending is not None

    @property
    def outcome(self) -> Outcome:
        """Return how the game ended; raises ValueError for a game in progress."""
        if self.ending is None:
            raise ValueError("the game in this record is still in progress")
        return self.ending

    def first_position(self) -> Position:
        """Return the position the game started from."""
        rules = self.rules
        if self.start is None:
            return rules.start()
        return rules.from_rows(list(self.start), self.start_turn)

    def positions(self) -> list[Position]:
        """Return every position of the game, from the first; raises RecordError.

        The error says which move is illegal or cannot be read.
        """
        rules = self.rules
        line = [self.first_position()]
        for ply, text in enumerate(self.moves, start=1):
            if rules.outcome(line[-1]) is not None:
                raise RecordError(f"move {ply} ({text!r:.40}) comes after the end of the game")
            try:
                move = rules.parse_move(text, line[-1])
            except ValueError as error:
                raise RecordError(f"move {ply} ({text!r:.40}): {error}") from None
            line.append(rules.play(line[-1], move))
        return line

    @property
    def result(self) -> str | None:
        """Return 'white', 'black' or 'draw'; None for a game in progress."""
        if self.ending is None:
            return None
        winner = self.ending.winner
        return "draw" if winner is None else SIDE_WORDS[winner]

    def to_json(self) -> dict[str, Any]:
        """Return the record as a JSON-able dict (the file's content)."""
        ending = self.ending
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game.value, "n": self.n,
            "players": {"white": self.white, "black": self.black},
            "moves": list(self.moves), "result": self.result,
            "reason": None if ending is None else ending.reason,
            "termination": None if ending is None else ending.termination.value,
            "opening_plies": self.opening_plies, "forfeit": self.forfeit,
        }
        if self.seconds:
            data["seconds"] = [None if s is None else round(s, 6) for s in self.seconds]
        if self.start is not None:
            data["start"] = {"board": list(self.start), "turn": SIDE_LETTERS[self.start_turn]}
        return data


def move_texts(rules: Rules, positions: list[Position]) -> tuple[str, ...]:
    """Return the moves between consecutive ``positions`` in ``rules``' notation.

    Args:
        rules: the game's rules.
        positions: a game's positions, consecutive ones one move apart.

    Returns:
        The moves ('a2-b1', 'pass', ...), one fewer than the positions.
    """
    return tuple(rules.move_text(rules.move_between(a, b))
                 for a, b in zip(positions, positions[1:], strict=False))


def from_positions(positions: list[Position], rules: Rules, white: str, black: str,
                   outcome: Outcome | None, **extra: Any) -> Record:
    """Return the Record of a game given as its positions (the first is the start).

    Args:
        positions: the game's positions, consecutive ones one move apart.
        rules: the game's rules (its ``game`` and ``n`` go into the record).
        white, black: the players' names.
        outcome: how the game ended (a forfeit included); None for a game in progress.
        extra: other Record fields (opening_plies, forfeit, seconds).

    Returns:
        The record; ``start`` is set only when the first position is not the usual start.
    """
    first = positions[0]
    start = None if first == rules.start() else tuple(rules.to_rows(first))
    return Record(rules.n, white, black, move_texts(rules, positions), outcome, start,
                  first.turn, **extra, game=GameKind(rules.game))


def from_json(data: Any, replay: bool = True) -> Record:
    """Return the Record in a file's parsed JSON ``data``; raises RecordError if bad.

    Everything is checked: the fields and their types, every move's legality and that
    the result agrees with the final position (unless a player forfeited, or the game
    is in progress). Without ``replay`` only the fields and their types are (no move is
    played, so a long list is as quick as a short one): the record's moves and result
    are then unchecked, and ``positions()`` may raise RecordError; a version 1 record
    needs its moves played to be read, so it is always replayed.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not an Oska game record (expected \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if type(version) is not int or version not in (VERSION, *OLD_VERSIONS):  # not True, 2.0
        raise RecordError(f"unsupported record version {version!r:.80}")
    try:
        record = _build(data)
    except RecordError:
        raise
    except KeyError as error:
        raise RecordError(f"bad record field: {error} is missing") from None
    except (TypeError, ValueError) as error:  # a bad start board, game or board size
        raise RecordError(f"bad record field: {error}") from None
    if not replay and version not in UNTERMINATED:
        return record
    last = record.positions()[-1]
    if version in UNTERMINATED:
        record = _migrated(record, last)
    _check_result(record, last)
    return record


def _migrated(record: Record, last: Position) -> Record:
    """Return a version 1 ``record`` with its termination worked out.

    Args:
        record: the record as read, its termination a placeholder.
        last: the record's final position.

    Returns:
        The record with the termination of a forfeit, or of the final position's end
        (a record whose game is not over keeps the placeholder; the result check
        refuses it).
    """
    outcome = record.rules.outcome(last)
    if record.ending is None or record.forfeit is not None or outcome is None:
        return record
    return replace(record, ending=record.ending._replace(termination=outcome.termination))


def _build(data: dict) -> Record:
    """Return the Record of a dict with the file's fields (types checked here)."""
    info = _game(data.get("game", GameKind.OSKA.value))
    n, players, moves = info.check(_whole(data["n"], "n")), data["players"], data["moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("moves must be a list of strings in notation")
    start, turn = _start(data.get("start"), info, n)
    forfeit = _text_or_none(data.get("forfeit"), "forfeit")
    seconds = _seconds(data.get("seconds") or [], len(moves), forfeit is not None)
    opening_plies = _whole(data.get("opening_plies", 0), "opening_plies")
    if opening_plies > len(moves):
        raise RecordError(f"opening_plies must be 0 to the {len(moves)} moves, "
                          f"got {opening_plies}")
    return Record(n, _text(players["white"], "players.white"),
                  _text(players["black"], "players.black"), tuple(moves),
                  _ending(data, forfeit is not None), start, turn, opening_plies, forfeit,
                  seconds, info.kind)


def _game(value: Any) -> GameInfo:
    """Return the registry entry of the ``game`` field; raises RecordError if unknown."""
    try:
        return game_info(value if isinstance(value, str) else None)
    except ValueError:
        known = [kind.value for kind in GameKind]
        raise RecordError(f"game must be one of {known}, got {value!r:.80}") from None


def _ending(data: dict, forfeited: bool) -> Outcome | None:
    """Return the Outcome of the result fields, or None for a game in progress.

    Args:
        data: the file's fields: ``result`` null means the game is in progress (then
            ``reason`` and ``termination`` are null and nobody forfeited).
        forfeited: whether the record names a forfeit.

    Returns:
        The outcome, or None.

    Raises:
        RecordError: for a field of the wrong kind.
    """
    result = data["result"]
    if result is None:
        if forfeited or data.get("reason") is not None or data.get("termination") is not None:
            raise RecordError("a game in progress (result null) has no reason, termination "
                              "or forfeit")
        return None
    if not isinstance(result, str) or result not in RESULTS:
        raise RecordError(f"result must be one of {sorted(RESULTS)} or null, "
                          f"got {result!r:.80}")
    return Outcome(RESULTS[result], _text(data["reason"], "reason"),
                   _termination(data, forfeited))


def _termination(data: dict, forfeited: bool) -> Termination:
    """Return the Termination of the ``termination`` field; raises RecordError if bad.

    Args:
        data: the file's fields. A version 1 file has no termination: it reads as a
            forfeit when the record names one, else as a stand-in that ``_migrated``
            replaces with the final position's once the moves are replayed.
        forfeited: whether the record names a forfeit.

    Returns:
        The termination.
    """
    if data["version"] in UNTERMINATED:
        return Termination.FORFEIT if forfeited else Termination.DEADLOCK
    value = data["termination"]
    if not isinstance(value, str) or value not in set(Termination):
        raise RecordError(f"termination must be one of {[t.value for t in Termination]}, "
                          f"got {value!r:.80}")
    return Termination(value)


def _whole(value: Any, name: str) -> int:
    """Return ``value`` if it is an int >= 0 (not a bool); raises RecordError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(f"{name} must be a whole number >= 0, got {value!r:.80}")
    return value


def _text(value: Any, name: str) -> str:
    """Return ``value`` if it is a string; raises RecordError naming the field."""
    if not isinstance(value, str):
        raise RecordError(f"{name} must be a string, got {type(value).__name__}")
    return value


def _text_or_none(value: Any, name: str) -> str | None:
    """Return ``value`` if it is a string or None; raises RecordError naming the field."""
    return None if value is None else _text(value, name)


def _start(start: Any, info: GameInfo, n: int) -> tuple[tuple[str, ...] | None, int]:
    """Return the start board's rows and side to move from the ``start`` field.

    Args:
        start: the field's value: None (absent) for the usual start, else an object
            with the board (row strings over 'w', 'b', '-', or lists of one-character
            strings) and the side to move ('w' or 'b').
        info: the record's game.
        n: the record's board size.

    Returns:
        The rows (None for the usual start) and the side to move.

    Raises:
        RecordError, or ValueError/TypeError for a bad board: the row count is checked
        first (no supported board has more rows than the largest), so a huge board is
        refused at once.
    """
    if start is None:
        return None, WHITE
    if not isinstance(start, dict):
        raise RecordError(f"start must be an object with board and turn, got "
                          f"{type(start).__name__}")
    board, lengths = check_board_list(start["board"]), info.row_lengths(n)
    if not 0 < len(board) <= len(info.row_lengths(info.sizes[-1])):
        raise RecordError(f"the start board has {len(board)} rows, the {info.title} board "
                          f"of n = {n} has {len(lengths)}")
    rows, _ = read_rows(board)
    found = tuple(len(row) for row in rows)
    if found != lengths:
        other = [size for size in info.sizes if info.row_lengths(size) == found]
        raise RecordError(f"the start board has size {other[0]}, the record says n = {n}"
                          if other else f"the start board's rows have {list(found)} cells, "
                          f"the {info.title} board of n = {n} has {list(lengths)}")
    check_piece_counts(rows, n)
    return tuple(rows), read_player(start["turn"])


def _seconds(seconds: Any, moves: int, forfeited: bool) -> tuple[float | None, ...]:
    """Return the move times of the ``seconds`` field, checked against the moves.

    Each is a finite number, or None for an opening ply (earlier versions could write
    tiny negative times); there is one per move, and one more after a forfeit (the
    failed attempt). Raises RecordError otherwise.
    """
    if not isinstance(seconds, list) or not all(
            s is None or (isinstance(s, int | float) and not isinstance(s, bool)
                          and math.isfinite(s)) for s in seconds):
        raise RecordError("seconds must be a list of numbers (or null for opening plies)")
    if seconds and len(seconds) - moves not in (0, forfeited):
        raise RecordError(f"{len(seconds)} times for {moves} moves")
    return tuple(seconds)


def _check_result(record: Record, last: Position) -> None:
    """Raise RecordError unless the record's result agrees with its final position.

    A forfeit ends a game the rules have not ended; otherwise the winner and the
    termination are the final position's. A game in progress claims nothing: it may
    stop anywhere (the window keeps the moves a player took back, the end included).
    """
    ending = record.ending
    if ending is None:
        return
    outcome = record.rules.outcome(last)
    forfeit = record.forfeit is not None
    if forfeit and outcome is not None:
        raise RecordError("the record says a player forfeited, but the game was over")
    if forfeit != (ending.termination is Termination.FORFEIT):
        raise RecordError(f"the termination {ending.termination.value!r} and the "
                          f"forfeit {record.forfeit!r:.80} disagree")
    if forfeit:
        return
    if outcome is None:
        raise RecordError("the game in the record is not over after its last move")
    if outcome.winner != ending.winner:
        raise RecordError(f"the record says {record.result!r}, but the final position "
                          f"says {outcome.describe()!r}")
    if outcome.termination is not ending.termination:
        raise RecordError(f"the record says the game ended by "
                          f"{ending.termination.value!r}, but the final position "
                          f"says {outcome.termination.value!r}")


def save(record: Record, path: str | Path) -> None:
    """Write ``record`` to ``path`` as JSON, one field a line (lists stay on one line).

    The file is written whole or not at all (``core.files.write_whole``): a failed save
    leaves an older record there as it was. Raises OSError when it cannot be written.
    """
    write_whole(path, record_text(record))


def record_text(record: Record) -> str:
    """Return the text of ``record``'s file: JSON, one field a line (lists on one line)."""
    fields = [f" {json.dumps(key)}: {json.dumps(value)}"
              for key, value in record.to_json().items()]
    return "{\n" + ",\n".join(fields) + "\n}\n"


def load(path: str | Path) -> Record:
    """Read the record in file ``path``; raises RecordError (OSError if unreadable).

    A file over ``MAX_BYTES``, not UTF-8, not JSON or nested too deeply for the JSON
    reader is a RecordError too.
    """
    with open(path, "rb") as file:
        raw = file.read(MAX_BYTES + 1)
    return parse(raw, str(path))


def parse(raw: bytes, name: str) -> Record:
    """Return the record in a file's bytes ``raw`` (at most ``MAX_BYTES``; a file
    opened in the page, or read by ``load``); raises RecordError, naming ``name``.

    A file over ``MAX_BYTES``, not UTF-8, not JSON or nested too deeply for the JSON
    reader is a RecordError too.
    """
    return from_json(decode(raw, name))


def decode(raw: bytes, name: str) -> Any:
    """Return the JSON data in a record's bytes ``raw``, not yet checked as a record
    (``from_json`` does that); raises RecordError naming ``name`` when ``raw`` is over
    ``MAX_BYTES``, not UTF-8, not JSON or nested too deeply for the JSON reader."""
    if len(raw) > MAX_BYTES:
        raise RecordError(f"{name}: over {MAX_BYTES:,} bytes, too big for a game record")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise RecordError(f"{name}: not UTF-8 text ({error.reason})") from None
    except RecursionError:
        raise RecordError(f"{name}: nested too deeply to be a game record") from None
    except ValueError as error:  # not JSON, or a number too long to read
        raise RecordError(f"{name}: not JSON ({error})") from None
