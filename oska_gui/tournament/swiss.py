"""The Swiss system: pair entrants round by round with those of equal or near score.

A round robin of k entrants plays k (k - 1) / 2 pairings; a Swiss tournament of R
rounds plays about R k / 2 and still ranks a field well, because after a few rounds
each entrant meets others of its own strength. The rules, for each round:

- entrants are ranked by points (then by their number, the order they were given in);
- with an odd count, the lowest-ranked entrant that has not had a bye gets one, scored
  as a won pairing (every game of it won) but not as games for the ratings;
- the rest are paired from the top: each takes an entrant with the closest score that
  it has not met yet, and within its own score group the one half the group down (the
  top half meets the bottom half: 1-5, 2-6, 3-7, 4-8 in a group of eight, as in the
  Dutch system), backtracking when the entrants left cannot all be paired that way;
  only when no pairing without a rematch exists are rematches allowed, the fewest
  possible first;
- in a pairing, the entrant that has had White less often so far has White in the
  pairing's first game (then the lower number); with an even number of games a
  pairing, colours alternate and everyone has White as often as Black.

Standings add the Buchholz tie-break: the sum of the points of every opponent met (a
bye adds nothing), so among equal scores the entrant that met stronger opposition
ranks first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

MAX_TRIES = 200_000  # pairing attempts before allowing rematches (never reached in tests)


@dataclass(frozen=True)
class Round:
    """One round's pairings: (first, second) entrant numbers and the bye, if any.

    ``first`` has White in the pairing's even-numbered games.
    """

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None


@dataclass
class SwissHistory:
    """What the pairing of the next round needs from the rounds before it.

    ``points`` per entrant (byes included), how often each pair met, the games each
    entrant had White, and who had a bye.
    """

    count: int
    points: list[float] = field(default_factory=list)
    met: Counter = field(default_factory=Counter)
    whites: Counter = field(default_factory=Counter)
    byes: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        """Start every entrant on 0 points when none are given."""
        if not self.points:
            self.points = [0.0] * self.count

    def add_round(self, played: Round, points: dict[tuple[int, int], float],
                  games: int) -> None:
        """Add a finished round.

        Args:
            played: its pairings.
            points: per pairing (first, second), the first entrant's points in it
                (the second's are ``games`` minus those, forfeits and draws included).
            games: games a pairing.
        """
        for first, second in played.pairs:
            self.met[frozenset((first, second))] += 1
            self.points[first] += points[first, second]
            self.points[second] += games - points[first, second]
            self.whites[first] += (games + 1) // 2
            self.whites[second] += games // 2
        if played.bye is not None:
            self.byes.add(played.bye)
            self.points[played.bye] += games

    def ranked(self) -> list[int]:
        """Return the entrants by points, best first (then by number)."""
        return sorted(range(self.count), key=lambda i: (-self.points[i], i))


def pair_round(history: SwissHistory) -> Round:
    """Return the next round's pairings by the rules in the module's docstring.

    Args:
        history: the rounds so far (at least two entrants).

    Returns:
        The Round: every entrant paired once, or given the bye.
    """
    ranked = history.ranked()
    bye = None
    if len(ranked) % 2:
        bye = next((i for i in reversed(ranked) if i not in history.byes), ranked[-1])
        ranked.remove(bye)
    for rematches in range(max(history.met.values(), default=0) + 1):
        pairs = _pair(ranked, history, rematches)
        if pairs is not None:
            return Round(tuple(_coloured(a, b, history) for a, b in pairs), bye)
    raise AssertionError("pairing with every rematch allowed cannot fail")


def _pair(ranked: list[int], history: SwissHistory,
          rematches: int) -> list[tuple[int, int]] | None:
    """Return pairs of all of ``ranked``, or None when the rules allow none.

    A depth-first search with its own stack (a field of thousands would overflow
    Python's): at each level the best-ranked entrant left takes the first allowed
    opponent, and the next one when the entrants after it cannot all be paired.

    Args:
        ranked: the entrants to pair, best ranked first (an even number).
        history: the rounds so far.
        rematches: how many earlier meetings a pair may have had.

    Returns:
        The pairs, best ranked first; None when there are none, or when MAX_TRIES
        attempts found none (so that the caller allows more rematches).
    """
    left, options = ranked, _options(ranked, history, rematches)
    stack: list[tuple[list[int], list[int]]] = []
    pairs: list[tuple[int, int]] = []
    for _ in range(MAX_TRIES):
        if not left:
            return pairs
        if options:
            other = options.pop()
            stack.append((left, options))
            pairs.append((left[0], other))
            left = [i for i in left[1:] if i != other]
            options = _options(left, history, rematches)
        elif stack:
            left, options = stack.pop()
            pairs.pop()
        else:
            return None
    return None


def _options(left: list[int], history: SwissHistory, rematches: int) -> list[int]:
    """Return the allowed opponents of ``left[0]``, the one to try first last.

    Closest score first; within ``left[0]``'s own score group (of g entrants, ranked),
    the one g / 2 places down first, then those nearest that place, so the group's top
    half meets its bottom half (1-5, 2-6, 3-7, 4-8 in a group of eight, as the Dutch
    system pairs); opponents met more than ``rematches`` times are left out.
    """
    if not left:
        return []
    top = left[0]
    score = history.points[top]
    middle = sum(history.points[other] == score for other in left) // 2
    allowed = [(abs(history.points[other] - score), abs(place - middle), place, other)
               for place, other in enumerate(left[1:], start=1)
               if history.met[frozenset((top, other))] <= rematches]
    return [other for *_, other in sorted(allowed, reverse=True)]


def _coloured(one: int, other: int, history: SwissHistory) -> tuple[int, int]:
    """Return the pair with first the one to have White first (fewer Whites, then number)."""
    return min((one, other), (other, one),
               key=lambda pair: (history.whites[pair[0]], pair[0]))


def buchholz(history: SwissHistory, rounds: Sequence[Round]) -> list[float]:
    """Return each entrant's Buchholz score: the points of every opponent it met."""
    totals = [0.0] * history.count
    for played in rounds:
        for first, second in played.pairs:
            totals[first] += history.points[second]
            totals[second] += history.points[first]
    return totals
