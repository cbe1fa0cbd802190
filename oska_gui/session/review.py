"""A game under review in a front end: the analysis run a slice a frame, and a cursor.

``ReviewSession`` runs a ``play.review`` job (``ReviewJob``) a few milliseconds at a
time, as the players' search runs, so the window keeps drawing while the review fills
in, and keeps the position the viewer looks at (``cursor``: an index into the game's
positions, 0 the first). Everything a review screen shows or says is worded here, free
of any drawing: the move that led to the cursor's position with its mark, White's win
chance along the game, and each side's summary. The better move goes with the position
it could have been played in: when the move played next from the cursor's position is
marked ?!, ? or ??, that move and the better one are the board's arrows there (on the
position after the bad move an arrow would read as the best reply), and Up/Down go to
those positions.
"""

from __future__ import annotations

from oska_gui.core.types import SIDE_NAMES, WHITE, Move
from oska_gui.play.game import GameAdapter, Position, make_game
from oska_gui.play.records import Record, from_positions
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.job import ReviewJob
from oska_gui.play.review.marks import Mark
from oska_gui.play.review.result import PlyReview, Review

from .match import Match
from .memory import Reclaimer
from .saved_game import player_name


def record_of_match(match: Match) -> Record:
    """Return the game of ``match`` to review: its replayed record, or the game played
    up to the position on the board (its outcome when that is the end)."""
    if match.replay is not None:
        return match.replay
    history, settings = match.history, match.settings
    positions = list(history.positions[:history.cursor + 1])
    outcome = match.outcome if match.over else None
    return from_positions(positions, match.game.rules, player_name(settings, WHITE),
                          player_name(settings, 1 - WHITE), outcome)


class ReviewSession:
    """One record's review, worked on in slices, and the position looked at."""

    def __init__(self, record: Record, budget: Budget | None = None,
                 cursor: int = 0, reclaimer: Reclaimer | None = None) -> None:
        """Start reviewing ``record`` (raises RecordError for illegal moves).

        Args:
            record: the game to review.
            budget: the search a position may take (``ReviewJob``; None: the default).
            cursor: the position to look at first (kept within the game).
            reclaimer: frees each finished search's tables a little per frame (None:
                at once).
        """
        self.record = record
        self.game: GameAdapter = make_game(record.game, record.n)
        self.job = ReviewJob(record, budget, reclaimer=reclaimer)
        self.cursor = 0
        self.go(cursor)

    @property
    def review(self) -> Review:
        """Return the review so far."""
        return self.job.review

    @property
    def positions(self) -> list[Position]:
        """Return every position of the game, the first one first."""
        return self.review.positions

    @property
    def last(self) -> int:
        """Return the index of the game's last position."""
        return len(self.positions) - 1

    @property
    def done(self) -> bool:
        """Return True once every position is analysed."""
        return self.job.done

    def advance(self, seconds: float) -> bool:
        """Analyse for about ``seconds``; return True when a position's analysis (and
        with it a move's mark) came in, so the screen must be drawn again."""
        if self.done:
            return False
        assessed = len(self.review.assessments)
        self.job.advance(max(0.0, seconds))
        return len(self.review.assessments) != assessed

    # -- the cursor ------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """Return the position looked at."""
        return self.positions[self.cursor]

    def go(self, index: int) -> bool:
        """Look at position ``index`` (kept within the game); return True if it moved."""
        index = max(0, min(self.last, index))
        moved = index != self.cursor
        self.cursor = index
        return moved

    def step(self, delta: int) -> bool:
        """Move the cursor ``delta`` positions on (back if negative); True if it moved."""
        return self.go(self.cursor + delta)

    def next_bad(self, direction: int) -> bool:
        """Go to the position before the next (``direction`` 1) or previous (-1) move
        marked ?!, ? or ?? of the moves analysed so far, where its better move is shown;
        return False (staying put) when there is none."""
        bad = [ply.ply - 1 for ply in self.review.plies if ply.judged and ply.mark.bad]
        ahead = [ply for ply in bad if (ply - self.cursor) * direction > 0]
        if not ahead:
            return False
        return self.go(min(ahead) if direction > 0 else max(ahead))

    # -- what the cursor's move is ---------------------------------------------------

    @property
    def ply(self) -> PlyReview | None:
        """Return the review of the move that led to the position looked at (None at
        the start, or before that move is analysed)."""
        plies = self.review.plies
        return plies[self.cursor - 1] if 0 < self.cursor <= len(plies) else None

    @property
    def last_move(self) -> Move | None:
        """Return the move that led to the position looked at (None at the start)."""
        if self.cursor == 0:
            return None
        return self.game.move_between(self.positions[self.cursor - 1], self.position)

    @property
    def next_ply(self) -> PlyReview | None:
        """Return the review of the move played next, from the position looked at (None
        at the end, or before that move is analysed)."""
        plies = self.review.plies
        return plies[self.cursor] if self.cursor < len(plies) else None

    @property
    def replaced_move(self) -> Move | None:
        """Return the move played next when it is marked ?!, ? or ?? (None otherwise): the
        board's arrow in its mark's colour, beside the better move's."""
        ply = self.next_ply
        if ply is None or not ply.better:
            return None
        return self.game.move_between(self.position, self.positions[self.cursor + 1])

    @property
    def better_move(self) -> Move | None:
        """Return the better move in the position looked at when the move played next,
        from it, is marked ?!, ? or ?? (None otherwise): the board's blue arrow, on the
        position where it could have been played."""
        ply = self.next_ply
        if ply is None or not ply.better:
            return None
        best = self.review.assessments[self.cursor].best
        return None if best is None else self.game.move_between(self.position, best)

    def white_chances(self) -> list[float]:
        """Return White's win chance at each position analysed so far (the graph)."""
        return self.review.white_chances()

    def move_label(self, index: int) -> str:
        """Return the move that led to position ``index`` with its mark's symbol once
        analysed ('b2-c1 ??'); plain notation before."""
        plies = self.review.plies
        if index - 1 < len(plies):
            return plies[index - 1].annotated
        before, after = self.positions[index - 1], self.positions[index]
        return self.game.move_text(self.game.move_between(before, after))

    def mark_of(self, index: int) -> Mark | None:
        """Return the mark of the move that led to position ``index``, None when it is
        not analysed yet or was a random opening ply."""
        plies = self.review.plies
        if not 0 < index <= len(plies) or not plies[index - 1].judged:
            return None
        return plies[index - 1].mark

    # -- words ------------------------------------------------------------------------

    @property
    def progress(self) -> str:
        """Return how far the analysis is in its longest wording (see
        ``progress_wordings``), or '' once it is complete."""
        wordings = self.progress_wordings
        return wordings[0] if wordings else ""

    @property
    def progress_wordings(self) -> tuple[str, ...]:
        """Return how far the analysis is, in wordings from the longest to the shortest
        (a narrow panel shows the longest that fits whole), or () once it is complete.

        Returns:
            While positions are assessed: 'analysing: 12 of 27 positions' down to
            '12 of 27'. While the exact solver works (it can take seconds before a
            position is done): 'analysing: solving exactly from move 31, 12,288
            positions' down to 'solving: 12,288'.
        """
        if self.done:
            return ()
        job = self.job
        if job.solving is not None:
            start = "the start" if job.solving == 0 else f"move {job.solving}"
            count = f"{job.solver.building:,}"
            return (f"analysing: solving exactly from {start}, {count} positions",
                    f"solving exactly from {start}, {count} positions",
                    f"solving from {start}: {count} positions",
                    f"solving: {count} positions", f"solving: {count}")
        done = f"{len(self.review.assessments)} of {len(self.positions)}"
        return f"analysing: {done} positions", f"{done} positions", done

    def sentence(self, chance: bool = True) -> str:
        """Return the position looked at in words for the status line and screen
        readers: the move, its mark and the better move, and (if ``chance``) White's
        win chance; then, when the move played next is marked ?!, ? or ??, that move
        and the better one (the board's arrows)."""
        head = self._head()
        chances = self.white_chances()
        if chance and self.cursor < len(chances):
            head += f". White's win chance {100 * chances[self.cursor]:.0f} %"
        ply = self.next_ply
        if ply is None or not ply.better:
            return head
        return (f"{head}. Next, {SIDE_NAMES[ply.side]} {ply.played}: {ply.mark.value} "
                f"({ply.mark.symbol}); better {ply.better} (the blue arrow)")

    def status_wordings(self) -> tuple[str, ...]:
        """Return the position looked at in words for the status line, from the longest
        wording to the shortest (a narrow panel shows the longest that fits): the
        ``sentence`` with White's win chance, without it and, before a marked move,
        shorter forms that keep the move played next and the better move."""
        wordings = [self.sentence(), self.sentence(chance=False)]
        ply = self.next_ply
        if ply is not None and ply.better:
            brief = f". Next {ply.played} {ply.mark.symbol}, better {ply.better} (blue arrow)"
            wordings.append(self._head() + brief)
            if self.cursor > 0:
                wordings.append(f"Move {self.cursor}, {self._move_text()}{brief}")
        return tuple(wordings)

    def _head(self) -> str:
        """Return the move that led to the position looked at in words, with its mark
        and the better move ('Move 7 of 26, White b2-c1, mistake (?); better b1-c2'),
        or the start of the game."""
        if self.cursor == 0:
            return f"Start of the game, {self.last} moves to review"
        mover = SIDE_NAMES[self.positions[self.cursor - 1].turn]
        return f"Move {self.cursor} of {self.last}, {mover} {self._move_text()}" + \
            self._verdict()

    def _move_text(self) -> str:
        """Return the notation of the move that led to the cursor's position."""
        move = self.last_move
        return "" if move is None else self.game.move_text(move)

    def _verdict(self) -> str:
        """Return ', a mistake (?); better c2-d1' for the cursor's move: its mark (or
        that it is not analysed yet) and the better move after a bad one."""
        ply = self.ply
        if ply is None:
            return ", not analysed yet"
        if not ply.judged:
            return ", a random opening move"
        words = f", {ply.mark.value}"
        if ply.mark.bad:
            words += f" ({ply.mark.symbol}); better {ply.better}"
        return words

    def summary(self, side: int) -> str:
        """Return ``side``'s summary line so far, e.g. 'White: accuracy 81 %; 1 ?!,
        0 ?, 2 ??' ('accuracy -' before any of its moves is analysed)."""
        summary = self.review.summary(side)
        counts = ", ".join(f"{summary.counts[mark]} {mark.symbol}"
                           for mark in (Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER))
        return f"{SIDE_NAMES[side]}: accuracy {summary.accuracy_text(0)}; {counts}"
