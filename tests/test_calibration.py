"""The review's win chances against exact values: ``tools.calibration``'s seeded sample.

``tests/data/calibration_n5.json`` holds 1,694 n = 5 positions of the second half of the
held-out ones (``exact_dataset.held_out_half``; the review's scale was fitted on the first
half: 535 units a logit there, 540 on this one), met along seeded games of random and
perfect moves, up to 200 in each 10-point bin of the review's chance, with their exact
values from the solved game (``python -m tools.calibration --write FILE``; the solved
game itself, 800 MB, is not needed here). The test searches each again as the review
does, exact values off, and compares the review's chances with the evaluator's own.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oska_gui.core.types import Position
from oska_gui.engine.exact_dataset import held_out_half
from oska_gui.engine.learned import SCALE as LEARNED_SCALE
from oska_gui.engine.registry import GameKind
from oska_gui.games.oska import oska_rules
from oska_gui.play.review.budget import DEFAULT_NODES
from oska_gui.play.review.chances import READINGS, Reading
from tools.calibration import BINS, Bin, check, read_sample

SAMPLE = Path(__file__).with_name("data") / "calibration_n5.json"
MIN_BIN = 100  # positions a bin needs for its share to be a test
# points the worst bin may be off: at the default 15,000 nodes this sample's worst is 14.1
# (15.6 at the evaluator's own scale); the target is 5 (docs/review.md)
WORST = 14.5


def sample_rows() -> tuple[int, list[list]]:
    """Return the sample's board size and rows [white, black, turn, value]."""
    data = json.loads(SAMPLE.read_text())
    return data["n"], data["positions"]


def test_the_sample_is_held_out_unfinished_and_distinct() -> None:
    """Every position of the sample is in the held-out half the scale was not fitted on,
    not finished, with a move (a pass counts), and its value one of win, draw or loss."""
    n, rows = sample_rows()
    rules = oska_rules(n)
    assert len(rows) >= BINS * MIN_BIN and len({tuple(row[:3]) for row in rows}) == len(rows)
    for white, black, turn, value in rows:
        pos = Position(white, black, turn)
        assert held_out_half(rules, pos) == 1
        assert rules.terminal(pos) is None and rules.children(pos)
        assert value in (0, 0.5, 1)


def worst(bins: list[Bin]) -> float:
    """Return how many points the bin furthest off is off by."""
    return max(abs(each.won - each.mean_chance) for each in bins if each.count)


@pytest.mark.slow
def test_the_review_chances_are_truer_than_the_evaluators_own() -> None:
    """At the default budget, exact values off, every ten-point bin of the review's
    chances holds at least 100 of the sample's positions; the bin furthest off is off by
    less than with the evaluator's own scale, and by at most 14.5 points."""
    samples = read_sample(SAMPLE, DEFAULT_NODES)
    review = check(samples, READINGS[GameKind.OSKA])
    own = check(samples, Reading(LEARNED_SCALE))
    assert all(each.count >= MIN_BIN for each in review), review
    assert worst(review) < worst(own) and worst(review) <= WORST, (review, own)
