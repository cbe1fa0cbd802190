"""How much search a review spends on each position: nodes, a depth, or (not reproducible)
seconds.

A budget of nodes or a depth gives the same review of the same record, byte for byte,
on any machine, under any load and however a front end slices the work: the search
counts its nodes and stops at fixed points. A wall-clock budget is kept for those who
ask for one, and says that it is not reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass

# The default: ``python -m tools.review_budget`` measured its median depth over the
# positions of 20 seeded n = 6 games at 10, as deep as 0.2 s of processor time a position
# (9 before the review's searches shared their tables; docs/review.md gives the figures).
DEFAULT_NODES = 15_000


@dataclass(frozen=True)
class Budget:
    """The search a position may take; each limit given applies, the first reached ends it.

    Attributes:
        nodes: the most nodes a position's search visits (None: no such limit).
        depth: the deepest search (None: no such limit).
        seconds: the most wall-clock seconds a position (None: no such limit); a review
            with it may differ from run to run.
    """

    nodes: int | None = DEFAULT_NODES
    depth: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        """Refuse a budget without any limit, or with a limit that is not positive.

        Raises:
            ValueError: no limit, or one at or below zero.
        """
        limits = (self.nodes, self.depth, self.seconds)
        if all(limit is None for limit in limits):
            raise ValueError("a review needs nodes, a depth or a time a position")
        if any(limit is not None and limit <= 0 for limit in limits):
            raise ValueError("a review's budget must be positive")

    @classmethod
    def chosen(cls, nodes: int | None = None, depth: int | None = None,
               seconds: float | None = None) -> Budget:
        """Return the budget of a command's options: the ones given, else the default.

        Args:
            nodes: ``--nodes``, or None.
            depth: ``--depth``, or None.
            seconds: ``--time``, or None.

        Returns:
            The budget; ``DEFAULT_NODES`` when no option is given.
        """
        if nodes is None and depth is None and seconds is None:
            return cls()
        return cls(nodes, depth, seconds)

    @property
    def reproducible(self) -> bool:
        """Return True when the review does not depend on the machine's speed."""
        return self.seconds is None

    def describe(self) -> str:
        """Return the budget in words, e.g. '40,000 nodes a position' or 'depth 6 or 0.5 s
        a position (wall clock: not reproducible)'."""
        limits = [f"{self.nodes:,} nodes" if self.nodes is not None else "",
                  f"depth {self.depth}" if self.depth is not None else "",
                  f"{self.seconds:g} s" if self.seconds is not None else ""]
        text = " or ".join(limit for limit in limits if limit) + " a position"
        return text if self.reproducible else text + " (wall clock: not reproducible)"
