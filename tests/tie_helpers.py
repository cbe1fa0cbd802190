"""Positions where root moves tie: a fixed-depth search chooses by its deepening.

Between equally scored root moves a search keeps the favourite of its previous
iteration, so deepening a ply at a time and two at a time (``analyse``) can choose
different moves there. Every way the project plays a fixed depth must choose as
``analyse`` does; these positions show whether one does not.
"""

from __future__ import annotations

import random

from oska_gui.core.types import Evaluator, Position
from oska_gui.engine.search import Thinker, best_child
from oska_gui.games.oska import OskaRules
from oska_gui.play.selfplay import random_opening


def fixed_depth_choices(rules: OskaRules, evaluate: Evaluator, depth: int, tries: int,
                        seed: int = 3) -> list[tuple[Position, Position, bool]]:
    """Return, for the unfinished ends of ``tries`` seeded random openings, (position,
    ``analyse``'s choice at ``depth``, whether deepening a ply at a time chooses
    another child)."""
    rng = random.Random(seed)
    found = []
    for _ in range(tries):
        pos = random_opening(rules, rng.randint(4, 14), rng)[-1]
        if rules.terminal(pos) is not None or not rules.children(pos):
            continue
        chosen = best_child(rules, evaluate, pos, depth)
        one_ply_steps = Thinker(rules, evaluate, pos, max_depth=depth)
        while not one_ply_steps.advance(1.0):
            pass
        found.append((pos, chosen, one_ply_steps.best != chosen))
    return found
