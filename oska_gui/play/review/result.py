"""A game's review as data: each position's ``Assessment``, each move's ``PlyReview``,
each side's ``SideSummary``, and the ``Review`` that holds them.

``Review.add`` takes the positions' assessments in order and judges each move as soon
as the position it was played in is assessed (``marks``). A review turns into JSON and
back (``to_json``, ``from_json``) so that it can be stored and shown later without
analysing the game again: the assessments are stored, the marks worked out again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from oska_gui.core.types import WHITE, Position
from oska_gui.engine.solver import Solution

from ..records import Record
from .marks import Mark, mark_by_drop, mark_exact, move_accuracy

FORMAT = "oska-review"
VERSION = 1


@dataclass(frozen=True)
class Assessment:
    """What one position is worth, its best move and what the move played was worth.

    Attributes:
        chance: the win chance of the side to move, 0..1.
        best: the best child (None once the game is over).
        played: the side to move's win chance after the move played, as the same
            search (or the exact values) saw it; None at the last position.
        depth: the search depth reached; 0 for an exact value or a finished game.
        exact: the best move's and the move played's perfect-play values for the side
            to move, when the solver covered the position; else None.
    """

    chance: float
    best: Position | None
    played: float | None = None
    depth: int = 0
    exact: tuple[Solution, Solution] | None = None


@dataclass(frozen=True)
class PlyReview:
    """One move played, judged.

    Attributes:
        ply: the move's number in the game, from 1.
        side: who played it (WHITE or BLACK).
        played: the move played, in notation.
        best: the best move in that position, in notation.
        chance: the mover's win chance before the move, 0..1.
        after: the mover's win chance after it, 0..1.
        mark: the move's mark.
        drop: the win chance the move lost, in percentage points (0 for the best move).
        exact: True when the mark comes from exact values, False from the search.
        opening: True for a random opening ply (not counted in the summary).
    """

    ply: int
    side: int
    played: str
    best: str
    chance: float
    after: float
    mark: Mark
    drop: float
    exact: bool
    opening: bool

    @property
    def judged(self) -> bool:
        """Return True for a move the players chose (a random opening ply is not judged)."""
        return not self.opening

    @property
    def annotated(self) -> str:
        """Return the move played with its mark's symbol ('b2-c1 ??'), none on an
        opening ply or a move not marked bad."""
        return f"{self.played} {self.mark.symbol}" if self.judged and self.mark.bad \
            else self.played

    @property
    def mark_word(self) -> str:
        """Return the mark's word, or 'opening' for a random opening ply."""
        return self.mark.value if self.judged else "opening"

    @property
    def better(self) -> str:
        """Return the better move after a judged inaccuracy, mistake or blunder, else ''."""
        return self.best if self.judged and self.mark.bad else ""

    @property
    def accuracy(self) -> float:
        """Return the move's accuracy in per cent (``marks.move_accuracy``)."""
        return move_accuracy(self.drop)

    def to_json(self) -> dict[str, Any]:
        """Return the move's review as a JSON-able dict (side as 'white' or 'black')."""
        return {"ply": self.ply, "side": "white" if self.side == WHITE else "black",
                "played": self.played, "best": self.best, "chance": round(self.chance, 4),
                "after": round(self.after, 4), "mark": self.mark.value,
                "drop": round(self.drop, 2), "exact": self.exact, "opening": self.opening}


@dataclass(frozen=True)
class SideSummary:
    """One side's moves in sum: the mean accuracy (None without a move) and the marks."""

    side: int
    accuracy: float | None
    counts: dict[Mark, int]

    def accuracy_text(self, decimals: int = 1) -> str:
        """Return the accuracy as shown, e.g. '81.4 %' (``decimals`` after the point), or
        '-' before any of the side's moves is judged."""
        return "-" if self.accuracy is None else f"{self.accuracy:.{decimals}f} %"


@dataclass
class Review:
    """A game's review so far: the positions' assessments and the moves' marks.

    Attributes:
        record: the game reviewed.
        positions: every position of the game, the first one first.
        assessments: the positions assessed so far, in order.
        plies: the moves judged so far, in order: the move of each position assessed
            but the last one of the game.
    """

    record: Record
    positions: list[Position]
    assessments: list[Assessment] = field(default_factory=list)
    plies: list[PlyReview] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Return True once every position is assessed."""
        return len(self.assessments) == len(self.positions)

    def add(self, assessment: Assessment) -> None:
        """Append the next position's assessment, and judge the move played there
        (every position but the last has one)."""
        self.assessments.append(assessment)
        index = len(self.assessments) - 1
        if index + 1 < len(self.positions):
            self.plies.append(self._judge(index))

    def _judge(self, index: int) -> PlyReview:
        """Return the review of the move from position ``index`` to the next one."""
        assessment, rules = self.assessments[index], self.record.rules
        before, after = self.positions[index], self.positions[index + 1]
        played = assessment.played if assessment.played is not None else assessment.chance
        drop = max(0.0, 100 * (assessment.chance - played))
        if assessment.exact is not None:
            mark = mark_exact(*assessment.exact)
        else:
            mark = mark_by_drop(drop, after == assessment.best)
        if mark is Mark.BEST:
            drop = 0.0
        best = assessment.best if assessment.best is not None else after
        return PlyReview(index + 1, before.turn,
                         rules.move_text(rules.move_between(before, after)),
                         rules.move_text(rules.move_between(before, best)),
                         assessment.chance, played, mark, drop,
                         assessment.exact is not None, index < self.record.opening_plies)

    def white_chances(self) -> list[float]:
        """Return White's win chance at each position assessed so far (the graph)."""
        return [a.chance if pos.turn == WHITE else 1.0 - a.chance
                for pos, a in zip(self.positions, self.assessments, strict=False)]

    def white_around(self, ply: PlyReview) -> tuple[float, float | None]:
        """Return White's win chance before and after ``ply``: the values of the two
        positions, each from its own assessment, so that the chance after one move is
        the chance before the next (None: the position after is not assessed yet)."""
        chances = self.white_chances()
        return chances[ply.ply - 1], chances[ply.ply] if ply.ply < len(chances) else None

    def summary(self, side: int) -> SideSummary:
        """Return ``side``'s summary over its moves judged so far, opening plies left out."""
        moves = [ply for ply in self.plies if ply.side == side and ply.judged]
        counts = {mark: sum(ply.mark is mark for ply in moves) for mark in Mark}
        accuracy = sum(ply.accuracy for ply in moves) / len(moves) if moves else None
        return SideSummary(side, accuracy, counts)

    def to_json(self) -> dict[str, Any]:
        """Return the review as a JSON-able dict: the game's kind, size and moves and the
        assessments (what ``from_json`` reads), and for readers White's chances and the
        judged moves."""
        rules = self.record.rules
        return {"format": FORMAT, "version": VERSION, "game": self.record.game.value,
                "n": self.record.n, "moves": list(self.record.moves),
                "assessments": [_assessment_json(rules, pos, a)
                                for pos, a in zip(self.positions, self.assessments,
                                                  strict=False)],
                "white_chances": self.white_chances(),
                "plies": [ply.to_json() for ply in self.plies]}

    @classmethod
    def from_json(cls, record: Record, data: Any) -> Review:
        """Return the review of ``record`` stored by ``to_json``, its marks worked out
        again; raises ValueError when ``data`` is not such a review of this record."""
        if not isinstance(data, dict) or data.get("format") != FORMAT \
                or data.get("version") != VERSION:
            raise ValueError(f"not a review (expected format {FORMAT!r}, version {VERSION})")
        if [data.get("game"), data.get("n"), data.get("moves")] != [
                record.game.value, record.n, list(record.moves)]:
            raise ValueError("the review is of another game than the record")
        review = cls(record, record.positions())
        stored = data.get("assessments")
        if not isinstance(stored, list) or len(stored) > len(review.positions):
            raise ValueError("the review's assessments do not fit the record")
        try:
            for pos, item in zip(review.positions, stored, strict=False):
                review.add(_assessment_of(record, pos, item))
        except (KeyError, TypeError, AttributeError, ArithmeticError) as error:
            # an item of the wrong shape: a best move that is not text, a chance of 1e400
            raise ValueError(f"a bad assessment in the review: {error!r:.200}") from None
        return review


def _assessment_json(rules: Any, pos: Position, assessment: Assessment) -> dict[str, Any]:
    """Return one position's assessment as JSON, its best move in notation."""
    best = assessment.best
    exact = assessment.exact
    return {"chance": assessment.chance,
            "best": None if best is None else rules.move_text(rules.move_between(pos, best)),
            "played": assessment.played, "depth": assessment.depth,
            "exact": None if exact is None else [list(value) for value in exact]}


def _assessment_of(record: Record, pos: Position, item: dict[str, Any]) -> Assessment:
    """Return the assessment of ``pos`` that ``_assessment_json`` stored as ``item``.

    Raises ValueError (a move that is not legal, a chance out of 0..1), or KeyError,
    TypeError, AttributeError or ArithmeticError for a malformed item.
    """
    rules = record.rules
    chance, played = float(item["chance"]), item["played"]
    played = None if played is None else float(played)
    if not all(0.0 <= value <= 1.0 for value in (chance, played) if value is not None):
        raise ValueError(f"a win chance out of 0..1 in the review: {chance}, {played}")
    best = None if item["best"] is None else rules.play(pos, rules.parse_move(item["best"], pos))
    exact = item["exact"]
    if exact is not None:
        exact = (Solution(*map(int, exact[0])), Solution(*map(int, exact[1])))
    return Assessment(chance, best, played, int(item["depth"]), exact)
