"""What the review page's tests share: seeded random games with hostile player names,
reviewed quickly, and their pages (``console.review_page``)."""

from __future__ import annotations

from random_games import random_game

from oska_gui.console.review_page import heading, page
from oska_gui.engine.registry import GAMES, GameKind
from oska_gui.play.records import Record, from_positions
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.job import ReviewJob, exact_source
from oska_gui.play.review.result import Review

HOSTILE_WHITE = "</script><script>alert(1)</script>"
HOSTILE_BLACK = "<img src=x onerror=alert(2)> & \"'"


def random_record(kind: GameKind, n: int, seed: int) -> Record:
    """Return a seeded random finished game of ``kind`` on ``n`` as a record, its players
    named to break a page that did not escape them."""
    rules = GAMES[kind].rules(n)
    line = random_game(rules, seed)
    return from_positions(line, rules, HOSTILE_WHITE, HOSTILE_BLACK, rules.outcome(line[-1]))


def reviewed(record: Record) -> tuple[Review, str]:
    """Return a quick review of ``record`` (2,000 nodes a position, no exact values) and
    its page's text."""
    budget = Budget(nodes=2_000)
    job = ReviewJob(record, budget, exact=False)
    while not job.advance(1.0):
        pass
    return job.review, page(job.review, heading(record, budget, exact_source(record, False)))
