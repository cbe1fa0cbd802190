"""Random games of any of the project's games, for the tests of notation and records."""

from __future__ import annotations

import random

from oska_gui.core.types import Position, Rules


def random_game(rules: Rules, seed: int) -> list[Position]:
    """Return the positions of a seeded random game played to its end.

    Args:
        rules: the game's rules (any game, any size).
        seed: the seed of the random moves.

    Returns:
        The positions from the start to the first one where the game is over.
    """
    rng = random.Random(seed)
    line = [rules.start()]
    while rules.outcome(line[-1]) is None:
        line.append(rng.choice(rules.children(line[-1])))
    return line
