"""What ``oska check`` finds: each disagreement, its kind, and the known convention differences.

A disagreement's *kind* is the function and the problems found (e.g. movegen: missing,
extra). Some disagreements are not bugs in the moves at all but a different reading of
what the function should return in a corner the assignment leaves open: a ``movegen``
that returns the board itself when the side must pass meets every no-move position as
an "extra" board. Those are recognised here, each is its own kind, and the report
names it in one line instead of showing it as hundreds of unexplained boards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from oska_gui.core.types import Position
from oska_gui.games.board_forms import read_board
from oska_gui.games.oska import OskaRules

from .cases import Case

MOVEGEN, PLAYER = "movegen", "oskaplayer"
GIVE_UP_AFTER = 3  # timeouts or crashes of one function before it is no longer called
Rows = tuple[str, ...]


@dataclass
class Finding:
    """What was wrong with one call: its kinds of problem and the boards involved.

    ``role`` is MOVEGEN or PLAYER; ``function`` the name it has in the file;
    ``convention`` the key of the known convention difference it follows, or ''.
    """

    role: str
    function: str
    case: Case
    kinds: list[str]
    detail: str = ""
    missing: list[tuple[str, ...]] = field(default_factory=list)
    extra: list[tuple[str, ...]] = field(default_factory=list)
    duplicates: list[tuple[str, ...]] = field(default_factory=list)
    returned: tuple[str, ...] | None = None
    convention: str = ""

    @property
    def kind(self) -> str:
        """Return the key of this disagreement's kind: its convention's, else the problems."""
        return self.convention or f"{self.role}: {', '.join(self.kinds)}"

    @property
    def title(self) -> str:
        """Return the short title of this disagreement's kind, for the summary table."""
        if self.convention:
            return CONVENTIONS[self.convention].title
        return ", ".join(self.kinds)


@dataclass
class Stats:
    """Counts of one function's calls for one board size."""

    calls: int = 0
    special: int = 0
    problems: Counter = field(default_factory=Counter)

    @property
    def agreeing(self) -> int:
        """Return the calls without any problem."""
        return self.calls - self.problems["_any"]


@dataclass(frozen=True)
class Convention:
    """A known convention difference: its key, function, short title and explanation.

    ``sentence`` is one line in the second person, saying what the checked code does
    and what this project does instead.
    """

    key: str
    role: str
    title: str
    sentence: str


CONVENTIONS = {convention.key: convention for convention in (
    Convention("pass-as-board", MOVEGEN, "the board itself when there is no move",
               "your movegen returns the board itself when there is no move; this project "
               "returns [] (the side passes)"),
    Convention("nothing-after-end", MOVEGEN, "no boards once the game is over",
               "your movegen returns no boards once the game is over; this project lists "
               "every move the rules allow (the game loop, not movegen, stops the game)"),
    Convention("captures-only", MOVEGEN, "only the captures when one is possible",
               "your movegen lists only the captures when one is possible; capturing is "
               "never compulsory in Oska, so this project lists every move"),
    Convention("rows-as-lists", MOVEGEN, "boards as lists of characters",
               "your movegen returns boards as lists of characters when given row strings; "
               "this project returns boards in the form it was given"),
    Convention("nothing-on-pass", PLAYER, "nothing when there is no move",
               "your oskaplayer returns nothing (None or an empty list) when the side has "
               "no move; this project returns the board unchanged"),
    Convention("player-rows-as-lists", PLAYER, "the move as lists of characters",
               "your oskaplayer returns its board as lists of characters when given row "
               "strings; this project returns the board in the form it was given"),
)}


def captures(boards: Iterable[Rows], given: Rows, player: str) -> set[Rows]:
    """Return the boards of ``boards`` where ``player`` took an opponent's piece."""
    opponent = "b" if player == "w" else "w"
    before = "".join(given).count(opponent)
    return {board for board in boards if "".join(board).count(opponent) < before}


def movegen_convention(rules: OskaRules, pos: Position, given: Rows, player: str,
                       theirs: list[Rows], ours: set[Rows]) -> str:
    """Return the key of the convention a ``movegen`` answer follows, or '' for none.

    Args:
        rules: the board size's rules.
        pos: the position asked about (``player`` to move).
        given: the board it was given, as row strings.
        player: 'w' or 'b'.
        theirs: the boards the checked movegen returned (well formed, row strings).
        ours: this project's boards for the same call.
    """
    answer = set(theirs)
    if not ours and answer == {given}:
        return "pass-as-board"
    if ours and not answer and rules.outcome(pos) is not None:
        return "nothing-after-end"
    taken = captures(ours, given, player)
    if taken and taken != ours and answer == taken:
        return "captures-only"
    return ""


def lists_convention(value: Any, n: int, role: str) -> str:
    """Return the key of the "lists of characters" convention if ``value`` follows it.

    ``value`` is what the checked function returned for a board of size ``n`` given as
    row strings: a list of boards (``movegen``) or one board (``oskaplayer``), and the
    convention holds when every board is well formed, the right size, but lists.
    """
    boards = value if role == MOVEGEN else [value]
    if not isinstance(boards, list) or not boards:
        return ""
    for board in boards:
        try:
            rules, _, form = read_board(board)
        except (TypeError, ValueError):
            return ""
        if not form.as_lists or rules.n != n:
            return ""
    return "rows-as-lists" if role == MOVEGEN else "player-rows-as-lists"


def player_convention(value: Any, n: int, has_move: bool) -> str:
    """Return the key of the convention a rejected ``oskaplayer`` answer follows, or ''.

    Args:
        value: what the checked oskaplayer returned.
        n: the board size it was given (row strings).
        has_move: whether the side to move had a legal move.
    """
    if not has_move and (value is None or value == [] or value == ()):
        return "nothing-on-pass"
    return lists_convention(value, n, PLAYER)
