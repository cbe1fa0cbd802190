"""A maximum matching of a general graph (Edmonds' blossom algorithm), for Swiss pairing.

The Swiss pairing (``swiss``) asks one question many times: how many pairs of these
entrants can be made of entrants that have not met yet? That is the size of a maximum
matching of the graph whose edges are the pairs that have not met. The graph is not
bipartite, so augmenting paths are searched with Edmonds' blossoms: an odd cycle found
on the way is shrunk to its base, and the search goes on from it (the compact form of
the algorithm, as in e-maxx's "Edmonds' algorithm": O(V^2) a search, O(V^3) in all).

``without`` answers the question again after a pair is taken out, from the matching
already found: only the two entrants left without a partner can start an augmenting
path then, so at most two searches are needed rather than a new matching.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

Adjacent = Callable[[int, int], bool]


class Matching:
    """A maximum matching of the graph ``adjacent`` over ``vertices``."""

    def __init__(self, vertices: Iterable[int], adjacent: Adjacent) -> None:
        """Find a maximum matching: greedily first, then by augmenting paths.

        Args:
            vertices: the graph's vertices (distinct ints).
            adjacent: whether two vertices are joined by an edge (symmetric).
        """
        self.vertices = list(vertices)
        self.adjacent = adjacent
        self.mate: dict[int, int | None] = dict.fromkeys(self.vertices)
        for v in self.vertices:
            if self.mate[v] is None:
                other = next((u for u in self.vertices if u != v and self.mate[u] is None
                              and adjacent(v, u)), None)
                if other is not None:
                    self.mate[v], self.mate[other] = other, v
        for v in self.vertices:
            if self.mate[v] is None:
                self._augment(v)

    @property
    def size(self) -> int:
        """Return the number of matched pairs."""
        return sum(mate is not None for mate in self.mate.values()) // 2

    def without(self, one: int, other: int) -> Matching:
        """Return a maximum matching of the graph without the vertices ``one`` and
        ``other`` (this one is left as it is).

        The partners they leave are the only vertices an augmenting path can start
        from (any other would have augmented this matching), so each is searched from
        once: afterwards neither can gain (Edmonds' lemma).
        """
        copy = Matching.__new__(Matching)
        copy.vertices = [v for v in self.vertices if v not in (one, other)]
        copy.adjacent = self.adjacent
        copy.mate = {v: self.mate[v] for v in copy.vertices}
        freed = [self.mate[v] for v in (one, other)]
        for v in freed:
            if v is not None and v in copy.mate:
                copy.mate[v] = None
        for v in freed:
            if v is not None and v in copy.mate and copy.mate[v] is None:
                copy._augment(v)
        return copy

    def _augment(self, root: int) -> bool:
        """Search an augmenting path from the unmatched ``root``; flip it if found.

        Returns:
            True when the matching grew by one pair.
        """
        mate, adjacent = self.mate, self.adjacent
        base = {v: v for v in self.vertices}
        parent: dict[int, int | None] = dict.fromkeys(self.vertices)
        reached = {root}
        queue = deque([root])
        while queue:
            v = queue.popleft()
            for to in self.vertices:
                if base[v] == base[to] or mate[v] == to or not adjacent(v, to):
                    continue
                partner = mate[to]
                if to == root or (partner is not None and parent[partner] is not None):
                    self._shrink(v, to, root, base, parent, reached, queue)
                elif parent[to] is None:
                    parent[to] = v
                    if partner is None:
                        self._flip(to, parent)
                        return True
                    reached.add(partner)
                    queue.append(partner)
        return False

    def _shrink(self, v: int, to: int, root: int, base: dict[int, int],
                parent: dict[int, int | None], reached: set[int], queue: deque) -> None:
        """Shrink the blossom closed by the edge ``v``-``to`` (both outer) to its base:
        its vertices get that base, and the inner ones become outer (searched from)."""
        common = self._common_base(v, to, root, base, parent)
        blossom: set[int] = set()
        self._mark_path(v, common, to, base, parent, blossom)
        self._mark_path(to, common, v, base, parent, blossom)
        for u in self.vertices:
            if base[u] in blossom:
                base[u] = common
                if u not in reached:
                    reached.add(u)
                    queue.append(u)

    def _common_base(self, a: int, b: int, root: int, base: dict[int, int],
                     parent: dict[int, int | None]) -> int:
        """Return the base of the blossom that the edge ``a``-``b`` closes: the first
        base on both of their alternating paths back to the root."""
        seen = set()
        while True:
            a = base[a]
            seen.add(a)
            if a == root:
                break
            a = self._up(a, parent)
        while base[b] not in seen:
            b = self._up(base[b], parent)
        return base[b]

    def _up(self, v: int, parent: dict[int, int | None]) -> int:
        """Return the outer vertex two steps up the search tree from the outer ``v``."""
        partner = self.mate[v]
        assert partner is not None
        up = parent[partner]
        assert up is not None
        return up

    def _mark_path(self, v: int, common: int, child: int, base: dict[int, int],
                   parent: dict[int, int | None], blossom: set[int]) -> None:
        """Mark the bases on the path from ``v`` up to the blossom's base ``common`` as
        in the blossom, and point the path's inner vertices back towards ``child``."""
        while base[v] != common:
            partner = self.mate[v]
            assert partner is not None
            blossom.update((base[v], base[partner]))
            parent[v] = child
            child = partner
            v = self._up(v, parent)

    def _flip(self, end: int, parent: dict[int, int | None]) -> None:
        """Flip the augmenting path that ends at the unmatched ``end``."""
        v: int | None = end
        while v is not None:
            up = parent[v]
            assert up is not None
            after = self.mate[up]
            self.mate[v], self.mate[up] = up, v
            v = after
