"""Refitting the general model to deeper searches: labels, games, determinism."""

from __future__ import annotations

import argparse
import math
from concurrent.futures import ProcessPoolExecutor

import pytest

from oska_gui.engine.features import NAMES, feature_space
from oska_gui.engine.learned import PASSED_WIN, SCALE, learned_evaluator, shipped_model
from oska_gui.engine.search import analyse
from oska_gui.games.oska import oska_rules
from tools.distill import (
    LABEL_DEPTHS,
    distill,
    labelled_game,
    parse_games,
    search_label,
)
from tools.samples import GameJob, play_line

pytestmark = pytest.mark.numba


def test_a_search_score_becomes_a_winning_chance() -> None:
    assert search_label(0) == 0.5
    assert search_label(SCALE) == pytest.approx(1 / (1 + math.exp(-1)))
    assert search_label(-2 * SCALE) == pytest.approx(1 / (1 + math.exp(2)))
    assert search_label(PASSED_WIN) == 1.0 and search_label(-PASSED_WIN - 7) == 0.0


def test_each_contact_position_with_a_move_is_labelled_by_its_search() -> None:
    job = GameJob(6, 5, shipped_model(6))
    rules = oska_rules(6)
    found = labelled_game(job)
    line, _ = play_line(job)
    kept = [pos for pos in line if rules.outcome(pos) is None
            and feature_space(rules).features(pos) is not None and rules.real_children(pos)]
    assert len(found) == len(kept) > 0
    evaluate = learned_evaluator(rules, job.model)
    for (row, label), pos in zip(found, kept, strict=True):
        features = feature_space(rules).features(pos)
        assert features is not None and row == (features.bucket, *features.counts)
        assert len(row) == 1 + len(NAMES)
        assert label == search_label(analyse(rules, evaluate, pos, LABEL_DEPTHS[6]).score)


def test_distilling_is_seeded_and_refits_the_model() -> None:
    start = shipped_model(6)
    with ProcessPoolExecutor(2) as pool:
        first = distill(start, 3, 1, {6: 3, 8: 1}, pool, lambda line: None)
        again = distill(start, 3, 1, {6: 3, 8: 1}, pool, lambda line: None)
        other = distill(start, 4, 1, {6: 3, 8: 1}, pool, lambda line: None)
    assert first == again != start
    assert other != first


def test_games_a_round_are_read_per_board_size() -> None:
    assert parse_games("6:10,8:4") == {6: 10, 8: 4}
    with pytest.raises(argparse.ArgumentTypeError, match="no label depth"):
        parse_games("7:10")
