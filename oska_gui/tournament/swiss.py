"""The Swiss system: pair entrants round by round with those of equal or near score.

A round robin of k entrants plays k (k - 1) / 2 pairings; a Swiss tournament of R
rounds plays about R k / 2 and still ranks a field well, because after a few rounds
each entrant meets others of its own strength. The rules, for each round:

- entrants are ranked by points (then by their number, the order they were given in);
- the round makes the fewest rematches (pairs that met before) any pairing of the
  field can: none unless no pairing without one exists. A maximum matching of the pairs
  that have not met (``matching``) counts them, and a field of at least 2 d + 2
  entrants, d the most opponents any has met, needs none (Dirac's theorem);
- with an odd count, the lowest-ranked entrant that has not had a bye gets one (of
  those whose bye leaves that fewest number of rematches), scored as a won pairing
  (every game of it won) but not as games for the ratings;
- the rest are paired from the top: each takes the first entrant in its order of
  preference after which the rest can still be paired with no more rematches: one it
  has not met before one it has (fewer meetings first), then the closest score, and
  within its own score group the one half the group down (the top half meets the bottom
  half: 1-5, 2-6, 3-7, 4-8 in a group of eight, as in the Dutch system);
- in a pairing, the entrant that has had White less often so far has White in the
  pairing's first game (then the lower number); with an even number of games a
  pairing, colours alternate and everyone has White as often as Black.

Standings add the Buchholz tie-break: the sum of the points of every opponent met (a
bye adds nothing), so among equal scores the entrant that met stronger opposition
ranks first.

Earlier versions searched for the pairing without counting the rematches first, and
after 200,000 attempts allowed some where none were needed; rounds they paired and
stored are found again by ``swiss_legacy`` (see ``formats.SwissRounds``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

from .matching import Matching


@dataclass(frozen=True)
class Round:
    """One round's pairings: (first, second) entrant numbers and the bye, if any.

    ``first`` has White in the pairing's even-numbered games. ``straight`` says that
    every pairing was the first choice of its entrant, without a rematch, and the bye
    the first choice too: the search of earlier versions (``swiss_legacy``) paired such
    a round the same way.
    """

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
    straight: bool = field(default=True, compare=False)


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
        history: the rounds so far (at least one entrant).

    Returns:
        The Round: every entrant paired once, or given the bye.
    """
    ranked = history.ranked()
    pairer = _Pairer(history)
    bye, first_bye = None, True
    if len(ranked) % 2:
        bye, first_bye = pairer.bye(ranked)
        ranked.remove(bye)
    pairs, straight = pairer.pairs(ranked)
    return Round(tuple(coloured(a, b, history) for a, b in pairs), bye,
                 straight=straight and first_bye)


class _Pairer:
    """The pairing of one round: who met whom, and how many rematches a set of
    entrants cannot avoid (``rematches``)."""

    def __init__(self, history: SwissHistory) -> None:
        """Note every entrant's opponents so far, and the most any entrant has had."""
        self.history = history
        self.meetings: list[Counter] = [Counter() for _ in range(history.count)]
        for pair, times in history.met.items():
            one, other = pair
            if times:
                self.meetings[one][other] = self.meetings[other][one] = times
        self.most_met = max((len(met) for met in self.meetings), default=0)

    def new(self, one: int, other: int) -> bool:
        """Return whether ``one`` and ``other`` have not met yet."""
        return other not in self.meetings[one]

    def rematches(self, entrants: list[int]) -> tuple[int, Matching | None]:
        """Return the fewest rematches a pairing of ``entrants`` (an even number) needs,
        and the maximum matching of their new pairs that says so.

        When there are at least 2 d + 2 of them, d the most opponents anyone has met,
        each has not met at least half of the others, so by Dirac's theorem the new
        pairs hold a Hamiltonian cycle, and every other edge of it is a pairing without
        a rematch: 0, without a matching (None). That is every round of a large field.
        """
        if len(entrants) >= 2 * self.most_met + 2:
            return 0, None
        matching = Matching(entrants, self.new)
        return len(entrants) // 2 - matching.size, matching

    def bye(self, ranked: list[int]) -> tuple[int, bool]:
        """Return who gets the bye: of the entrants without one yet (all, when every one
        has had one), lowest ranked first, the first whose absence leaves the others
        pairable with the fewest rematches; and whether that was the first of them."""
        candidates = [i for i in reversed(ranked) if i not in self.history.byes] or \
            list(reversed(ranked))
        best, fewest = candidates[0], None
        for candidate in candidates:
            needed, _ = self.rematches([i for i in ranked if i != candidate])
            if fewest is None or needed < fewest:
                best, fewest = candidate, needed
            if needed == 0:
                break
        return best, best == candidates[0]

    def pairs(self, ranked: list[int]) -> tuple[list[tuple[int, int]], bool]:
        """Return the pairs of all of ``ranked`` (an even number, best ranked first).

        The best ranked entrant left takes the first entrant in its order of preference
        (``_preference``) after which the rest can still be paired with the rematches
        the round has left; the first such always exists, as the fewest rematches of
        the whole field were counted before the first pair was made.

        Returns:
            The pairs, best ranked first, and whether each took its first preference
            without a rematch (then the search of earlier versions paired it so too).
        """
        left = ranked
        allowed, matching = self.rematches(left)
        pairs: list[tuple[int, int]] = []
        straight = allowed == 0
        while left:
            other, first, matching = self._opponent(left, allowed, matching)
            straight = straight and first
            allowed -= 0 if self.new(left[0], other) else 1
            pairs.append((left[0], other))
            left = [i for i in left[1:] if i != other]
        return pairs, straight

    def _opponent(self, left: list[int], allowed: int, matching: Matching | None
                  ) -> tuple[int, bool, Matching | None]:
        """Return the opponent ``left[0]`` takes: the first in its order of preference
        after which the rest can be paired with at most ``allowed`` rematches; whether
        it was the first; and the maximum matching of the rest's new pairs (see
        ``_fits``; ``matching`` is that of ``left``)."""
        top = left[0]
        for choice, other in enumerate(_preference(left, self.history, self.meetings)):
            cost = int(not self.new(top, other))
            if cost <= allowed:
                rest = [i for i in left[1:] if i != other]
                fits, after = self._fits(rest, allowed - cost, matching, (top, other))
                if fits:
                    return other, choice == 0, after
        raise AssertionError("the fewest rematches always leave a way to pair the rest")

    def _fits(self, rest: list[int], allowed: int, matching: Matching | None,
              pair: tuple[int, int]) -> tuple[bool, Matching | None]:
        """Return whether ``rest`` can be paired with at most ``allowed`` rematches once
        ``pair`` is taken, and the maximum matching of their new pairs (None while Dirac's
        theorem answers alone; see ``rematches``)."""
        if matching is None:
            needed, after = self.rematches(rest)
        else:
            after = matching.without(*pair)
            needed = len(rest) // 2 - after.size
        return needed <= allowed, after


def _preference(left: list[int], history: SwissHistory,
                meetings: list[Counter]) -> Iterator[int]:
    """Yield the possible opponents of ``left[0]``, the one to try first first.

    Those it has not met first, in the order of ``place_key``: closest score first
    (``left`` is ranked, so the score groups follow one another), and within
    ``left[0]``'s own score group of g entrants the one g / 2 places down first, then
    those nearest it. Then those it has met, fewer meetings first. Made lazily: the
    first one is nearly always taken, and a field may have thousands.
    """
    points, met = history.points, meetings[left[0]]
    group = next((place for place, other in enumerate(left)
                  if points[other] != points[left[0]]), len(left))
    rematches = []
    for place in chain(_around(group // 2, 1, group), range(group, len(left))):
        other = left[place]
        if other in met:
            rematches.append((met[other], place, other))
        else:
            yield other
    for *_, other in sorted(rematches, key=lambda item: item[0]):
        yield other


def _around(middle: int, low: int, high: int) -> Iterator[int]:
    """Yield the places ``low`` to ``high - 1`` nearest ``middle`` first, the lower first
    of two as near (the order ``place_key`` gives a score group)."""
    for distance in range(max(middle - low, high - 1 - middle) + 1):
        for place in dict.fromkeys((middle - distance, middle + distance)):
            if low <= place < high:
                yield place


def place_key(left: list[int], history: SwissHistory
              ) -> Callable[[int, int], tuple[float, int, int]]:
    """Return the key that orders the opponents of ``left[0]`` among the entrants
    ``left``, given with their place in it: closest score first; within ``left[0]``'s
    own score group (of g entrants, ranked), the one g / 2 places down first, then those
    nearest that place, so the group's top half meets its bottom half (1-5, 2-6, 3-7,
    4-8 in a group of eight, as the Dutch system pairs); then the better ranked."""
    score = history.points[left[0]]
    middle = sum(history.points[other] == score for other in left) // 2
    return lambda place, other: (abs(history.points[other] - score), abs(place - middle),
                                 place)


def coloured(one: int, other: int, history: SwissHistory) -> tuple[int, int]:
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
