"""Reviews of a tournament's games (``--review``): done by the workers that play games.

A review task carries the game's record (JSON text), so it travels to a cluster worker
as a game task does; the worker runs ``play.review.ReviewJob`` on it to the end and
sends back the review as JSON text, which the store keeps under an id made of the game
and the review's settings, so a rerun reviews only what is missing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass

from oska_gui.console.progress import ProgressBar
from oska_gui.play.records import from_json
from oska_gui.play.review.budget import Budget
from oska_gui.play.review.job import ReviewJob
from oska_gui.play.review.result import VERSION, Review

from .games import Entrant
from .result import GameResult
from .store import Store

ALL, LOSSES = "all", "losses"
CHOICES = (ALL, LOSSES)
SLICE_SECONDS = 1.0  # a worker has no frames to keep: long slices, less overhead


@dataclass(frozen=True)
class ReviewTask:
    """One game to review: the review's id, the game's id, its record and the budget."""

    review_id: str
    game_id: str
    record: str  # the game record as JSON text
    budget: Budget  # the search a position may take


def review_id(game_id: str, budget: Budget) -> str:
    """Return the id of the review of ``game_id`` within ``budget`` (24 hex digits)."""
    facts = ["review", VERSION, game_id, budget.describe()]
    return hashlib.sha256(json.dumps(facts).encode("utf-8")).hexdigest()[:24]


def to_review(results: Sequence[GameResult], players: Sequence[Entrant],
              which: str) -> list[GameResult]:
    """Return the games to review: all, or those a bot (not this project's AI) lost.

    Args:
        results: the tournament's games.
        players: its entrants.
        which: ALL or LOSSES.
    """
    if which == ALL:
        return list(results)
    bots = {player.name for player in players if player.bot is not None}
    return [result for result in results if result.loser in bots]


def review_game(task: ReviewTask) -> tuple[str, str, str]:
    """Review one game to the end (in a worker); return (review id, game id, review JSON)."""
    job = ReviewJob(from_json(json.loads(task.record)), task.budget)
    while not job.advance(SLICE_SECONDS):
        pass
    return task.review_id, task.game_id, json.dumps(job.review.to_json())


def review_games(store: Store, chosen: Sequence[GameResult], budget: Budget,
                 runs: Callable[[list[ReviewTask]], Generator[tuple[str, str, str], None, None]],
                 progress: bool | None) -> tuple[dict[str, str], int, dict[str, str]]:
    """Review the ``chosen`` games that ``store`` has no review of yet, and store them.

    Args:
        store: the tournament database (games with their records, and reviews).
        chosen: the games to review.
        budget: the search a position may take.
        runs: does review tasks on the workers (local or a cluster), yielding each
            ``review_game`` result as it ends; closed when done or stopped.
        progress: show a progress bar (None: only on a terminal).

    Returns:
        {game id: review JSON text} of every chosen game, how many were made now, and
        {game id: why} of the stored reviews that could not be read (made again).
    """
    ids = {game.game_id: review_id(game.game_id, budget) for game in chosen}
    stored = store.reviews(ids.values())
    records = dict(store.records(ids))
    unreadable = {}
    for game_id, rid in ids.items():
        if rid in stored and (why := unusable(records[game_id], stored[rid])) is not None:
            unreadable[game_id] = why
            del stored[rid]
    missing = [game_id for game_id, rid in ids.items() if rid not in stored]
    tasks = [ReviewTask(ids[game_id], game_id, records[game_id], budget)
             for game_id in missing]
    with ProgressBar(len(tasks), "reviews", progress, unit="reviews") as bar, \
            closing(runs(tasks)) as done:
        for rid, game_id, review in done:
            store.add_review(rid, game_id, review)
            stored[rid] = review
            bar.advance()
    return {game_id: stored[rid] for game_id, rid in ids.items()}, len(tasks), unreadable


def unusable(record: str, review: str) -> str | None:
    """Return why a stored ``review`` (JSON text) of the game ``record`` (its record,
    read back by the store) cannot be shown, or None when it can: a damaged review row
    is made again rather than break the report."""
    try:
        Review.from_json(from_json(json.loads(record)), json.loads(review))
    except (ValueError, RecursionError) as error:  # not JSON, nested too deep, not a review
        return str(error)[:200]
    return None
