"""Game records: a finished (or forfeited) Oska game as a small JSON file.

A record names the board size, the players and the moves in notation ('b2-c1',
'b2xd3', 'pass'), and says who won and why. It may start from a position other than
the usual start (``start``), may count random opening plies (``opening_plies``, the
first moves of ``moves``) and may carry each move's thinking time (``seconds``:
None for opening plies; after a forfeit one more entry, the failed attempt's time).
When a player forfeited (an external bot that timed out, say) ``forfeit`` holds the
reason and the game ends before the rules end it.

``load`` replays every move with the rules, so a record that loads is a legal game
whose result agrees with its final position; a bad file raises ``RecordError``.
The GUI replays a record with ``record.positions()``.

The file::

    {"format": "oska-game", "version": 1, "n": 4,
     "players": {"white": "AI depth 4 (strong)", "black": "bot.py:oskaplayer"},
     "moves": ["a4-b3", "e1-d1", ...], "result": "white", "reason": "...",
     "opening_plies": 2, "forfeit": null, "seconds": [0.01, ...],
     "start": {"board": [...], "turn": "w"}}   (start only when not the usual one)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .boards import read_board, read_player
from .oska import BLACK, SIDE_LETTERS, SIDE_WORDS, WHITE, OskaRules, Position, oska_rules

FORMAT = "oska-game"
VERSION = 1
RESULTS = {"white": WHITE, "black": BLACK, "draw": None}


class RecordError(ValueError):
    """A game record file that cannot be read or does not describe a legal game."""


@dataclass(frozen=True)
class Record:
    """One game: size, players, moves in notation, winner (WHITE/BLACK/None) and reason."""

    n: int
    white: str
    black: str
    moves: tuple[str, ...]
    winner: int | None
    reason: str
    start: tuple[str, ...] | None = None
    start_turn: int = WHITE
    opening_plies: int = 0
    forfeit: str | None = None
    seconds: tuple[float | None, ...] = field(default=())

    @property
    def rules(self) -> OskaRules:
        """Return the rules of this record's board size."""
        return oska_rules(self.n)

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
            try:
                move = rules.parse_move(text, line[-1])
            except ValueError as error:
                raise RecordError(f"move {ply} ({text!r}): {error}") from None
            line.append(rules.play(line[-1], move))
        return line

    @property
    def result(self) -> str:
        """Return 'white', 'black' or 'draw'."""
        return "draw" if self.winner is None else SIDE_WORDS[self.winner]

    def describe(self) -> str:
        """Return the result as a sentence, e.g. 'White wins: all black pieces captured'."""
        if self.winner is None:
            return f"Draw: {self.reason}"
        return f"{SIDE_WORDS[self.winner].capitalize()} wins: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        """Return the record as a JSON-able dict (the file's content)."""
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "n": self.n,
            "players": {"white": self.white, "black": self.black},
            "moves": list(self.moves), "result": self.result, "reason": self.reason,
            "opening_plies": self.opening_plies, "forfeit": self.forfeit,
        }
        if self.seconds:
            data["seconds"] = [None if s is None else round(s, 6) for s in self.seconds]
        if self.start is not None:
            data["start"] = {"board": list(self.start), "turn": SIDE_LETTERS[self.start_turn]}
        return data


def from_positions(positions: list[Position], n: int, white: str, black: str,
                   winner: int | None, reason: str, **extra: Any) -> Record:
    """Return the Record of a game given as its positions (the first is the start).

    Args:
        positions: the game's positions, consecutive ones one move apart.
        n: the board size.
        white, black: the players' names.
        winner: WHITE, BLACK or None (draw).
        reason: why the game ended.
        extra: other Record fields (opening_plies, forfeit, seconds).

    Returns:
        The record; ``start`` is set only when the first position is not the usual start.
    """
    rules = oska_rules(n)
    moves = tuple(rules.move_text(rules.move_between(a, b))
                  for a, b in zip(positions, positions[1:], strict=False))
    first = positions[0]
    start = None if first == rules.start() else tuple(rules.to_rows(first))
    return Record(n, white, black, moves, winner, reason, start, first.turn, **extra)


def from_json(data: Any) -> Record:
    """Return the Record in a file's parsed JSON ``data``; raises RecordError if bad.

    Everything is checked: the fields and their types, every move's legality and that
    the result agrees with the final position (unless a player forfeited).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not an Oska game record (expected \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}")
    try:
        record = _build(data)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"bad record field: {error!r}") from None
    _check_result(record, record.positions()[-1])
    return record


def _build(data: dict) -> Record:
    """Return the Record of a dict with the file's fields (types checked here)."""
    n, players, moves = data["n"], data["players"], data["moves"]
    if not isinstance(n, int) or isinstance(n, bool) or n < 4:
        raise RecordError(f"n must be an integer >= 4, got {n!r}")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("moves must be a list of strings in notation")
    if data["result"] not in RESULTS:
        raise RecordError(f"result must be one of {sorted(RESULTS)}, got {data['result']!r}")
    start, turn = None, WHITE
    if data.get("start") is not None:
        rules, rows, _ = read_board(data["start"]["board"])
        if rules.n != n:
            raise RecordError(f"the start board has size {rules.n}, the record says n = {n}")
        start, turn = tuple(rows), read_player(data["start"]["turn"])
    seconds = data.get("seconds") or ()
    if not all(s is None or isinstance(s, int | float) for s in seconds):
        raise RecordError("seconds must be a list of numbers (or null for opening plies)")
    if seconds and len(seconds) - len(moves) not in (0, data.get("forfeit") is not None):
        raise RecordError(f"{len(seconds)} times for {len(moves)} moves")
    return Record(n, str(players["white"]), str(players["black"]), tuple(moves),
                  RESULTS[data["result"]], str(data["reason"]), start, turn,
                  int(data.get("opening_plies", 0)), data.get("forfeit"), tuple(seconds))


def _check_result(record: Record, last: Position) -> None:
    """Raise RecordError unless the record's result agrees with its final position."""
    outcome = record.rules.outcome(last)
    if record.forfeit is not None:
        if outcome is not None:
            raise RecordError("the record says a player forfeited, but the game was over")
        return
    if outcome is None:
        raise RecordError("the game in the record is not over after its last move")
    if outcome.winner != record.winner:
        raise RecordError(f"the record says {record.result!r}, but the final position "
                          f"says {outcome.describe()!r}")


def save(record: Record, path: str | Path) -> None:
    """Write ``record`` to ``path`` as JSON, one field a line (lists stay on one line)."""
    fields = [f" {json.dumps(key)}: {json.dumps(value)}"
              for key, value in record.to_json().items()]
    Path(path).write_text("{\n" + ",\n".join(fields) + "\n}\n", encoding="utf-8")


def load(path: str | Path) -> Record:
    """Read the record in file ``path``; raises RecordError (OSError if unreadable)."""
    text = Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: not JSON ({error})") from None
    return from_json(data)
