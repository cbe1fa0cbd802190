"""The Swiss pairing of earlier versions, kept so that a rerun finds the rounds it paired.

Until the pairing counted the rematches a round needs (issue 37), each round was paired
by a depth-first search: from the top, each entrant took the first allowed opponent in
its order of preference (``swiss.place_key``), backtracking when the rest could not all
be paired; first with no rematch allowed, and when that failed, or took more than
``MAX_TRIES`` attempts, with pairs that had met once allowed, and so on. It made
rematches no round needed (random results: 24 in round 26 of 64 entrants where a
pairing without any existed).

A tournament stored by such a version plays on with this one: a finished round stays as
it was played (``formats.SwissRounds`` looks for this search's pairing in the database
when ``swiss.pair_round`` pairs a round otherwise), and the rounds after it are paired
by ``swiss``. Do not change this search: it must give what it gave then.
"""

from __future__ import annotations

from .swiss import Round, SwissHistory, coloured, place_key

MAX_TRIES = 200_000  # pairing attempts before allowing rematches


def legacy_round(history: SwissHistory) -> Round:
    """Return the round that earlier versions paired after ``history``.

    Args:
        history: the rounds so far (at least two entrants).

    Returns:
        The Round: every entrant paired once, or given the bye (the lowest-ranked
        entrant without one, else the lowest-ranked).
    """
    ranked = history.ranked()
    bye = None
    if len(ranked) % 2:
        bye = next((i for i in reversed(ranked) if i not in history.byes), ranked[-1])
        ranked.remove(bye)
    for rematches in range(max(history.met.values(), default=0) + 1):
        pairs = _pair(ranked, history, rematches)
        if pairs is not None:
            return Round(tuple(coloured(a, b, history) for a, b in pairs), bye)
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
    """Return the allowed opponents of ``left[0]`` (``swiss.place_key`` orders them),
    the one to try first last; opponents met more than ``rematches`` times are left out."""
    if not left:
        return []
    key = place_key(left, history)
    allowed = [(*key(place, other), other) for place, other in enumerate(left[1:], start=1)
               if history.met[frozenset((left[0], other))] <= rematches]
    return [other for *_, other in sorted(allowed, reverse=True)]
