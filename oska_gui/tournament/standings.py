"""A tournament's standings and crosstable, from its finished games.

Entrants are ranked by rating (then points, then name); points are 1 a win and 0.5 a
draw. In a Swiss tournament they are ranked by points (byes included), then the
Buchholz tie-break, then rating, as the Swiss system scores them. A forfeit is counted
against the side that forfeited (always the loser), by reason. Move times count every
move an entrant was asked for, the failed attempt of a forfeit included, as ``oska
match`` counts them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from oska_gui.console.table import seconds_text

from .formats import Extras
from .games import FORFEIT_REASONS
from .ratings import Rating, rate
from .result import GameResult

CROSSTABLE_MAX = 40  # entrants; a wider crosstable is left to the HTML report


@dataclass
class Standing:
    """One entrant's results over the tournament."""

    name: str
    rating: Rating = Rating(0.0, 0.0, 0.0)
    wins: int = 0
    losses: int = 0
    draws: int = 0
    forfeits: Counter = field(default_factory=Counter)
    moves: int = 0
    seconds: float = 0.0
    longest: float = 0.0
    bye_points: float = 0.0
    buchholz: float | None = None  # a Swiss tournament's tie-break; None elsewhere

    @property
    def games(self) -> int:
        """Return the number of games played."""
        return self.wins + self.losses + self.draws

    @property
    def points(self) -> float:
        """Return the points: 1 a win, 0.5 a draw, and those of any bye."""
        return self.wins + self.draws / 2 + self.bye_points

    @property
    def mean_seconds(self) -> float | None:
        """Return the mean time per move, or None when no move was timed."""
        return self.seconds / self.moves if self.moves else None


def standings(names: Sequence[str], results: Sequence[GameResult],
              extras: Sequence[Extras] | None = None) -> list[Standing]:
    """Return every entrant's standing, best first.

    Args:
        names: the entrants' names, in entrant order.
        results: the finished games between them.
        extras: what the format adds to each entrant (byes, a tie-break), in entrant
            order; none for a round robin.

    Returns:
        One Standing per entrant, ranked by rating, then points, then name; with a
        tie-break, by points, the tie-break, rating, then name.
    """
    added = extras or [Extras() for _ in names]
    lines = {name: Standing(name, bye_points=extra.bye_points, buchholz=extra.buchholz)
             for name, extra in zip(names, added, strict=True)}
    for result in results:
        _count(lines[result.white], lines[result.black], result)
    index = {name: i for i, name in enumerate(names)}
    ratings = rate(len(names), ((index[r.white], index[r.black], r.score_of_white())
                                for r in results))
    for name, rating in zip(names, ratings, strict=True):
        lines[name].rating = rating
    if any(s.buchholz is not None for s in lines.values()):
        return sorted(lines.values(),
                      key=lambda s: (-s.points, -(s.buchholz or 0.0), -s.rating.elo, s.name))
    return sorted(lines.values(), key=lambda s: (-s.rating.elo, -s.points, s.name))


def _count(white: Standing, black: Standing, result: GameResult) -> None:
    """Add one game's result, forfeit and move times to both players' standings."""
    for standing, times in ((white, result.white_times), (black, result.black_times)):
        standing.moves += times.moves
        standing.seconds += times.total
        standing.longest = max(standing.longest, times.longest)
    if result.winner is None:
        white.draws += 1
        black.draws += 1
        return
    winner, loser = (white, black) if result.winner == 0 else (black, white)
    winner.wins += 1
    loser.losses += 1
    if result.forfeit is not None:
        loser.forfeits[result.forfeit] += 1


def reasons_seen(lines: Sequence[Standing]) -> list[str]:
    """Return the forfeit reasons that occurred, in the order ``REASONS`` lists them."""
    return [reason for reason in FORFEIT_REASONS if any(s.forfeits[reason] for s in lines)]


def standings_rows(lines: Sequence[Standing]) -> tuple[list[str], list[list[object]]]:
    """Return the standings table's headers and rows (one per entrant, best first)."""
    reasons = reasons_seen(lines)
    swiss = any(s.buchholz is not None for s in lines)
    headers = ["rank", "entrant", "Elo", "95% interval", "points",
               *(["Buchholz", "bye points"] if swiss else []), "games", "W-L-D",
               "forfeits", *reasons, "mean s/move", "max s/move"]
    rows = [[rank, s.name, f"{s.rating.elo:+.0f}",
             f"{s.rating.low:+.0f} to {s.rating.high:+.0f}", f"{s.points:g}",
             *([f"{s.buchholz or 0.0:g}", f"{s.bye_points:g}"] if swiss else []), s.games,
             f"{s.wins}-{s.losses}-{s.draws}", sum(s.forfeits.values()),
             *(s.forfeits[reason] for reason in reasons), seconds_text(s.mean_seconds),
             seconds_text(s.longest if s.moves else None)]
            for rank, s in enumerate(lines, start=1)]
    return headers, rows


def crosstable(lines: Sequence[Standing], results: Sequence[GameResult]) -> list[list[str]]:
    """Return the points each entrant scored against each other one, in standings order.

    Row i, column j holds entrant i's points against entrant j ('' on the diagonal and
    where they have not played).
    """
    rank = {s.name: i for i, s in enumerate(lines)}
    points = [[0.0] * len(lines) for _ in lines]
    met = [[False] * len(lines) for _ in lines]
    for result in results:
        white, black = rank[result.white], rank[result.black]
        points[white][black] += result.score_of_white()
        points[black][white] += 1 - result.score_of_white()
        met[white][black] = met[black][white] = True
    return [[f"{points[i][j]:g}" if met[i][j] else "" for j in range(len(lines))]
            for i in range(len(lines))]


def crosstable_rows(lines: Sequence[Standing], results: Sequence[GameResult]
                    ) -> tuple[list[str], list[list[object]]]:
    """Return the crosstable as a console table: rank, entrant, then a column per rank."""
    cells = crosstable(lines, results)
    headers = ["rank", "entrant", *(str(rank) for rank in range(1, len(lines) + 1))]
    rows = [[rank, s.name, *(cell or "-" for cell in row)]
            for rank, (s, row) in enumerate(zip(lines, cells, strict=True), start=1)]
    return headers, rows


def first_forfeits(lines: Sequence[Standing], results: Sequence[GameResult]
                   ) -> list[tuple[str, str, GameResult]]:
    """Return (entrant, reason, game) for the first forfeit of each kind of each entrant."""
    seen: dict[tuple[str, str], GameResult] = {}
    for result in results:
        if result.forfeit is not None and result.loser is not None:
            seen.setdefault((result.loser, result.forfeit), result)
    order = {s.name: i for i, s in enumerate(lines)}
    return [(name, reason, game) for (name, reason), game
            in sorted(seen.items(), key=lambda item: (order[item[0][0]], item[0][1]))]
